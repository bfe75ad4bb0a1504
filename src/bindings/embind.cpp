// Embind bindings: the only C++ file that includes Emscripten headers.
//
// Thin by design: each function converts arguments, calls the core, converts the result. No
// exception crosses into JavaScript: every call runs inside guarded(), which turns tp::Error (and
// any std::exception) into a message that JS collects with takeError() and rethrows as a JS Error
// (web/lib/engine.js does this for every call), so the module stays usable after any bad input.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <type_traits>

#include "core/error.h"
#include "kernels/self_check.h"

using emscripten::val;

namespace {

std::string last_error;

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
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown error";
  }
  return failed_result<decltype(fn())>();
}

std::string take_error() {
  std::string message;
  message.swap(last_error);
  return message;
}

std::string version() { return TP_VERSION; }

val kernel_self_check(unsigned seed) {
  return guarded([&] {
    const tp::kernels::SelfCheckReport report = tp::kernels::run_self_check(seed);
    val out = val::object();
    out.set("pass", report.pass);
    out.set("backend", report.backend);
    out.set("simdGflops", report.simd_gflops);
    out.set("scalarGflops", report.scalar_gflops);
    val cases = val::array();
    for (const auto& c : report.cases) {
      val item = val::object();
      item.set("kernel", c.kernel);
      item.set("error", c.error);
      item.set("tolerance", c.tolerance);
      item.set("pass", c.pass);
      cases.call<void>("push", item);
    }
    out.set("cases", cases);
    return out;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(transformer_playground) {
  emscripten::function("takeError", &take_error);
  emscripten::function("version", &version);
  emscripten::function("kernelSelfCheck", &kernel_self_check);
}
