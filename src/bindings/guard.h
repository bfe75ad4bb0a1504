// The error boundary of the bindings: guarded() runs a call and turns any C++ exception into a
// message JavaScript collects with takeError() (web/lib/engine.js rethrows it as a JS Error).
// Include this in every file that registers bindings (several EMSCRIPTEN_BINDINGS blocks may
// exist, each in its own file), so all of them share the one error slot.
#pragma once

#include <emscripten/val.h>

#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tp::bindings {

using emscripten::val;

// The message of the last failed call, empty when none.
std::string& last_error();
// Returns the pending message and clears it (bound as takeError).
std::string take_error();

// What a failed call returns (JS ignores it and throws the collected error instead).
template <typename T>
T failed_result() {
  if constexpr (std::is_same_v<T, val>) {
    return val::undefined();
  } else {
    return T();
  }
}

template <typename Fn>
auto guarded(Fn fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    last_error() = "out of memory: the model, batch or text is too large for this page";
  } catch (const std::exception& e) {
    last_error() = e.what();
  } catch (...) {
    last_error() = "unknown error";
  }
  return failed_result<decltype(fn())>();
}

// Guarded<&Class::method>::call is the method wrapped in guarded(), as a plain function taking
// the object first (the form embind binds as a method).
template <auto Fn>
struct Guarded;
template <typename R, typename C, typename... A, R (C::*Fn)(A...)>
struct Guarded<Fn> {
  static R call(C& self, A... args) {
    return guarded([&] { return (self.*Fn)(args...); });
  }
};
template <typename R, typename C, typename... A, R (C::*Fn)(A...) const>
struct Guarded<Fn> {
  static R call(const C& self, A... args) {
    return guarded([&] { return (self.*Fn)(args...); });
  }
};

}  // namespace tp::bindings
