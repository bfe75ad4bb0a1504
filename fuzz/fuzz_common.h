// What every libFuzzer harness shares: the rule for which outcomes are findings.
//
// A harness feeds bytes to the entry point the CLI or the bindings use for that input. The
// library refusing them with tp::Error is the correct answer to bad input and ends the run
// quietly. A finding is anything else: a crash, a sanitizer report, a leak, a hang, a
// tp::InternalError (a broken TP_ASSERT), any other exception (bad input must be turned into a
// tp::Error with a clear message, not a std::out_of_range), or a broken promise the harness
// checks with FUZZ_EXPECT. Findings abort, so libFuzzer keeps the input as crash-<sha1>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>
#include <typeinfo>

#include "core/error.h"

namespace tp::fuzz {

[[noreturn]] inline void finding(const char* kind, const char* detail) {
  std::fprintf(stderr, "\n==== fuzz finding: %s: %s\n", kind, detail);
  std::abort();
}

// Runs one input through `body`; see the header comment for what counts as a finding.
template <typename Body>
void run(Body&& body) {
  try {
    body();
  } catch (const tp::InternalError& e) {
    finding("tp::InternalError (a broken invariant)", e.what());
  } catch (const tp::Error&) {
    // The input was refused with a message: the expected outcome for bad input.
  } catch (const std::exception& e) {
    finding(typeid(e).name(), e.what());
  } catch (...) {
    finding("unknown exception", "not derived from std::exception");
  }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace tp::fuzz

// A promise the library makes about a successful call (a round trip, a span that stays inside
// its text); breaking it is a finding.
#define FUZZ_EXPECT(condition)                                                             \
  do {                                                                                     \
    if (!(condition)) ::tp::fuzz::finding("broken promise", #condition " (" __FILE__ ")"); \
  } while (0)
