// Command-line arguments: `--name value`, `--name=value`, `--flag`, positional words, `--` (every
// word after it is positional) and `-` (standard input, where a command reads a file or a text),
// with the errors a user needs ("unknown option --lr8; allowed: ..."), never a crash.
//
// Errors in the arguments themselves are UsageError (exit status 2, main.cpp); errors found while
// running (a file that cannot be read, a malformed checkpoint) stay tp::Error (exit status 1).
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace tp::cli {

// A mistake in how the command was called: an unknown option, a missing or malformed value, a
// value out of range, a config the options make impossible.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(message) {}
};

// Runs f() and reports any tp::Error it raises as a UsageError: for the core's checks of values
// that came from the command line (option tables, ModelConfig::validate, task names). A broken
// internal invariant stays an InternalError.
template <typename F>
decltype(auto) as_usage(F&& f) {
  try {
    return f();
  } catch (const InternalError&) {
    throw;
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

class Args {
 public:
  // `valued` names take a value, `flags` do not; anything else starting with "--" before a lone
  // "--" is a UsageError.
  Args(int argc, char** argv, int first, const std::set<std::string>& valued, const std::set<std::string>& flags);

  bool has(const std::string& name) const;
  bool flag(const std::string& name) const { return has(name); }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  std::string require(const std::string& name) const;  // UsageError if absent
  int get_int(const std::string& name, int fallback) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Valued options in the order given (for config overrides).
  const std::vector<std::pair<std::string, std::string>>& ordered() const { return ordered_; }

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::pair<std::string, std::string>> ordered_;
  std::vector<std::string> positional_;
};

// --threads N: sizes the thread pool (default: every core; results are the same at any count).
// threads_help() is its --help line.
void set_threads(const Args& args);
std::string threads_help();

// Parses a whole number or a decimal, with a UsageError naming the option.
int parse_int(const std::string& text, const std::string& option);
double parse_double(const std::string& text, const std::string& option);

// True when argv[first..] asks for help (-h or --help before any lone "--").
bool wants_help(int argc, char** argv, int first = 2);
// True when argv[first..] has the flag --json before any lone "--" (main.cpp formats errors by it).
bool wants_json(int argc, char** argv, int first = 2);

// Standard input as one of a command's inputs. `what` names the option ("--data", "TEXT") for
// the error when two options both ask for it.
class Stdin {
 public:
  // The whole of standard input, once; a second call is a UsageError naming both users.
  std::string read(const std::string& what);
  // The same for a one-line text (a prompt): one trailing newline ("\n" or "\r\n") is dropped,
  // as a shell's `echo` or a file ending in a newline adds it.
  std::string read_line_text(const std::string& what);

 private:
  std::string used_by_;
};

// The file at `path`, or standard input when `path` is "-".
std::string read_input(const std::string& path, const std::string& what, Stdin& in);

}  // namespace tp::cli
