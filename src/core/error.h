// tp::Error and the check macros.
//
// Bad input from a user or a file (a config, a text, checkpoint bytes, an id) raises tp::Error
// whose message says what was wrong and what is allowed. The bindings turn it into a JS Error and
// the CLI prints it on one line, so nothing here may abort the process. TP_ASSERT guards internal
// invariants: a failure is a bug in this library, reported as tp::Error with the source location
// so that even a bug never takes the page down.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace tp {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// What TP_ASSERT throws: still a tp::Error, so every boundary handles it the same way, but a
// separate type lets the tests and fuzz harnesses tell a bug from a refused input.
class InternalError : public Error {
 public:
  explicit InternalError(const std::string& message) : Error(message) {}
};

// Joins the arguments with operator<< into one message; used by TP_CHECK and TP_FAIL.
template <typename... Parts>
std::string str_cat(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

[[noreturn]] void throw_internal_error(const char* condition, const char* file, int line);

}  // namespace tp

// Throws tp::Error built from the message parts when the condition does not hold.
#define TP_CHECK(condition, ...)                                     \
  do {                                                               \
    if (!(condition)) throw ::tp::Error(::tp::str_cat(__VA_ARGS__)); \
  } while (0)

#define TP_FAIL(...) throw ::tp::Error(::tp::str_cat(__VA_ARGS__))

#define TP_ASSERT(condition)                                                      \
  do {                                                                            \
    if (!(condition)) ::tp::throw_internal_error(#condition, __FILE__, __LINE__); \
  } while (0)
