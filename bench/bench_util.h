// Shared pieces of the benchmark programs: options, a monotonic clock and medians.
#pragma once

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "kernels/kernels.h"

namespace tp::bench {

struct Options {
  int reps = 7;
  int warmup = 5;
  bool profile = false;  // train: also print the per-layer profile
  std::string impl;      // label for the rows; defaults per build
  std::string model;     // import: the model folder
  int threads = 1;       // the pool's threads (core/thread_pool.h)
  int seq = 64;          // train: tokens per sequence (the model's max_len)
  int batch = 16;        // train: sequences per step
  int d_model = 256;     // generate: the model's width
  bool uncached = true;  // generate: also time generation without the KV cache
  std::string shape;     // matmul: one shape "MxKxN" only (with form and calls)
  std::string form;      // matmul: one form only: nn, nt or tn
  int calls = 0;         // matmul: with shape, exactly this many timed calls (a fixed amount of work)
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

// The label of this build's rows: wasm-simd, native-simd (the 128-bit kernels) or native-wide.
inline std::string default_impl() {
#ifdef __EMSCRIPTEN__
  return "wasm-simd";
#else
  return std::string(kernels::matmul_path()) == "simd128" ? "native-simd" : "native-wide";
#endif
}

int run_matmul(const Options& options);
int run_train(const Options& options);
int run_generate(const Options& options);
int run_peak(const Options& options);
int run_kernels(const Options& options);
int run_import(const Options& options);
int run_pool(const Options& options);
int run_clock(const Options& options);
// The core clock in GHz (x86 natively; 0 where it cannot be measured, as in wasm).
double clock_ghz();

}  // namespace tp::bench
