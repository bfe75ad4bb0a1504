// Shared pieces of the benchmark programs: options, a monotonic clock and medians.
#pragma once

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace tp::bench {

struct Options {
  int reps = 7;
  std::string impl;  // label for the rows; defaults per build
};

inline double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The label of the 128-bit kernels in this build.
inline std::string default_impl() {
#ifdef __EMSCRIPTEN__
  return "wasm-simd";
#else
  return "native-simd";
#endif
}

int run_matmul(const Options& options);

}  // namespace tp::bench
