// Argument parsing; see args.h.
#include "cli/args.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "core/thread_pool.h"
#include "io/checkpoint.h"

namespace tp::cli {

Args::Args(int argc, char** argv, int first, const std::set<std::string>& valued, const std::set<std::string>& flags) {
  bool options_done = false;
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (!options_done && a == "--") {
      options_done = true;
      continue;
    }
    if (!options_done && a.size() > 2 && a.compare(0, 2, "--") == 0) {
      std::string name = a.substr(2), value;
      const std::size_t eq = name.find('=');
      const bool inline_value = eq != std::string::npos;
      if (inline_value) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      if (flags.count(name)) {
        if (inline_value) throw UsageError(str_cat("option --", name, " takes no value"));
        values_[name] = "1";
        continue;
      }
      if (!valued.count(name)) {
        std::string allowed;
        for (const auto& v : valued) allowed += " --" + v;
        for (const auto& f : flags) allowed += " --" + f;
        throw UsageError(str_cat("unknown option --", name, "; allowed:", allowed));
      }
      if (!inline_value) {
        if (i + 1 >= argc) throw UsageError(str_cat("option --", name, " needs a value"));
        value = argv[++i];
      }
      values_[name] = value;
      ordered_.emplace_back(name, value);
    } else {
      positional_.push_back(a);
    }
  }
}

bool Args::has(const std::string& name) const { return values_.count(name) > 0; }

std::string Args::get(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::string Args::require(const std::string& name) const {
  if (!has(name)) throw UsageError(str_cat("missing required option --", name));
  return get(name);
}

void set_threads(const Args& args) {
  const int n = args.get_int("threads", threads::hardware());
  if (n < 1 || n > threads::limit()) {
    throw UsageError(str_cat("--threads ", n, " is out of range; allowed: 1 .. ", threads::limit(),
                             " (this machine has ", threads::hardware(), " cores)"));
  }
  threads::set_count(n);
}

std::string threads_help() {
  return str_cat("  --threads N                   threads to run on (default: all ", threads::hardware(),
                 " cores); any count gives the same results, bit for bit\n");
}

int Args::get_int(const std::string& name, int fallback) const {
  return has(name) ? parse_int(get(name), name) : fallback;
}

int parse_int(const std::string& text, const std::string& option) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < -2147483647L || v > 2147483647L) {
    throw UsageError(str_cat("--", option, " expects a whole number, got '", text, "'"));
  }
  return static_cast<int>(v);
}

double parse_double(const std::string& text, const std::string& option) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0)
    throw UsageError(str_cat("--", option, " expects a number, got '", text, "'"));
  return v;
}

namespace {

bool has_word(int argc, char** argv, int first, std::initializer_list<const char*> words) {
  for (int i = first; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) return false;
    for (const char* w : words) {
      if (std::strcmp(argv[i], w) == 0) return true;
    }
  }
  return false;
}

}  // namespace

bool wants_help(int argc, char** argv, int first) { return has_word(argc, argv, first, {"--help", "-h"}); }
bool wants_json(int argc, char** argv, int first) { return has_word(argc, argv, first, {"--json"}); }

std::string Stdin::read(const std::string& what) {
  if (!used_by_.empty()) {
    throw UsageError(
        str_cat(what, " and ", used_by_, " both ask for standard input ('-'); only one of them can read it"));
  }
  used_by_ = what;
  std::string out;
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) out.append(buffer, n);
  TP_CHECK(!std::ferror(stdin), "cannot read standard input for ", what, ": ", std::strerror(errno));
  return out;
}

std::string Stdin::read_line_text(const std::string& what) {
  std::string text = read(what);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  if (!text.empty() && text.back() == '\r') text.pop_back();
  return text;
}

std::string read_input(const std::string& path, const std::string& what, Stdin& in) {
  // Text is what the tasks read (at most 16 MB); a larger file is refused before it is read.
  constexpr std::uint64_t kMaxTextFileBytes = 256ull << 20;
  return path == "-" ? in.read(what) : read_file(path, kMaxTextFileBytes);
}

}  // namespace tp::cli
