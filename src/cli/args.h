// Command-line arguments: `--name value`, `--flag`, and positional words, with the errors a
// user needs ("unknown option --lr8; allowed: ..."), never a crash.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tp::cli {

class Args {
 public:
  // `valued` names take a value, `flags` do not; anything else starting with "--" is an error.
  Args(int argc, char** argv, int first, const std::set<std::string>& valued, const std::set<std::string>& flags);

  bool has(const std::string& name) const;
  bool flag(const std::string& name) const { return has(name); }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  std::string require(const std::string& name) const;  // tp::Error if absent
  int get_int(const std::string& name, int fallback) const;
  double get_double(const std::string& name, double fallback) const;
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

// Parses a whole number or a decimal, with an error naming the option.
int parse_int(const std::string& text, const std::string& option);
double parse_double(const std::string& text, const std::string& option);

}  // namespace tp::cli
