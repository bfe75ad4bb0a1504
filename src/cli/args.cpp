// Argument parsing; see args.h.
#include "cli/args.h"

#include <cerrno>
#include <cstdlib>

#include "core/error.h"
#include "core/thread_pool.h"

namespace tp::cli {

Args::Args(int argc, char** argv, int first, const std::set<std::string>& valued, const std::set<std::string>& flags) {
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
      std::string name = a.substr(2), value;
      const std::size_t eq = name.find('=');
      const bool inline_value = eq != std::string::npos;
      if (inline_value) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      if (flags.count(name)) {
        TP_CHECK(!inline_value, "option --", name, " takes no value");
        values_[name] = "1";
        continue;
      }
      if (!valued.count(name)) {
        std::string allowed;
        for (const auto& v : valued) allowed += " --" + v;
        for (const auto& f : flags) allowed += " --" + f;
        TP_FAIL("unknown option --", name, "; allowed:", allowed);
      }
      if (!inline_value) {
        TP_CHECK(i + 1 < argc, "option --", name, " needs a value");
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
  TP_CHECK(has(name), "missing required option --", name);
  return get(name);
}

void set_threads(const Args& args) {
  const int n = args.get_int("threads", threads::hardware());
  TP_CHECK(n >= 1 && n <= threads::limit(), "--threads ", n, " is out of range; allowed: 1 .. ", threads::limit(),
           " (this machine has ", threads::hardware(), " cores)");
  threads::set_count(n);
}

std::string threads_help() {
  return str_cat("  --threads N                   threads to run on (default: all ", threads::hardware(),
                 " cores); any count gives the same results, bit for bit\n");
}

int Args::get_int(const std::string& name, int fallback) const {
  return has(name) ? parse_int(get(name), name) : fallback;
}

double Args::get_double(const std::string& name, double fallback) const {
  return has(name) ? parse_double(get(name), name) : fallback;
}

int parse_int(const std::string& text, const std::string& option) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  TP_CHECK(!text.empty() && *end == '\0' && errno == 0 && v >= -2147483647L && v <= 2147483647L, "--", option,
           " expects a whole number, got '", text, "'");
  return static_cast<int>(v);
}

double parse_double(const std::string& text, const std::string& option) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  TP_CHECK(!text.empty() && *end == '\0' && errno == 0, "--", option, " expects a number, got '", text, "'");
  return v;
}

}  // namespace tp::cli
