// Matmul benchmark: GFLOP/s of kernels::matmul (and the scalar reference on small shapes) in the
// three forms, at cube sizes and at the shapes a small transformer's training step uses.
// --shape MxKxN --form F --calls N times exactly N calls of one product instead: a fixed amount of
// work, whose CPU time can be read from outside (comparing engines on a busy machine).
#include <cstdio>
#include <vector>

#include "bench/bench_util.h"
#include "core/rng.h"
#include "kernels/kernels.h"
#include "kernels/reference.h"

namespace tp::bench {

namespace {

struct MatmulShape {
  int m, k, n;
};

// (M, K, N): cubes, then a training step of dModel 128..512 with 1024 tokens and vocab 65.
const MatmulShape kShapes[] = {{64, 64, 64},     {128, 128, 128},  {256, 256, 256},  {512, 512, 512}, {1024, 128, 384},
                               {1024, 128, 512}, {1024, 512, 128}, {128, 1024, 512}, {1024, 128, 65}};

using Kernel = void (*)(kernels::Trans, kernels::Trans, int, int, int, const float*, int, const float*, int, float*,
                        int, bool, const float*);

// kernels::matmul without its trailing Band (the reference has none).
void fast_matmul(kernels::Trans ta, kernels::Trans tb, int M, int N, int K, const float* A, int lda, const float* B,
                 int ldb, float* C, int ldc, bool accumulate, const float* bias) {
  kernels::matmul(ta, tb, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias);
}

double time_matmul(Kernel kernel, kernels::Trans ta, kernels::Trans tb, const MatmulShape& s,
                   const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c, int reps) {
  const int lda = ta == kernels::Trans::N ? s.k : s.m;
  const int ldb = tb == kernels::Trans::N ? s.n : s.k;
  const double flops = 2.0 * s.m * s.n * s.k;
  // Enough calls per timing to last ~20 ms, so the clock's resolution does not matter.
  const double t0 = now_seconds();
  kernel(ta, tb, s.m, s.n, s.k, a.data(), lda, b.data(), ldb, c.data(), s.n, false, nullptr);
  const double once = std::max(now_seconds() - t0, 1e-7);
  const int inner = std::max(1, static_cast<int>(0.02 / once));
  std::vector<double> gflops;
  for (int r = 0; r < reps; ++r) {
    const double start = now_seconds();
    for (int i = 0; i < inner; ++i) {
      kernel(ta, tb, s.m, s.n, s.k, a.data(), lda, b.data(), ldb, c.data(), s.n, false, nullptr);
    }
    gflops.push_back(flops * inner / (now_seconds() - start) / 1e9);
  }
  return median(gflops);
}

}  // namespace

int run_one_product(const Options& options) {
  MatmulShape s{};
  if (std::sscanf(options.shape.c_str(), "%dx%dx%d", &s.m, &s.k, &s.n) != 3 || s.m <= 0 || s.k <= 0 || s.n <= 0) {
    std::fprintf(stderr, "tp_bench matmul: --shape must be MxKxN (positive), got '%s'\n", options.shape.c_str());
    return 2;
  }
  const std::string form = options.form.empty() ? "nn" : options.form;
  if (form != "nn" && form != "nt" && form != "tn") {
    std::fprintf(stderr, "tp_bench matmul: --form must be nn, nt or tn, got '%s'\n", form.c_str());
    return 2;
  }
  Rng rng(1);
  std::vector<float> a(static_cast<std::size_t>(s.m) * s.k), b(static_cast<std::size_t>(s.k) * s.n);
  std::vector<float> c(static_cast<std::size_t>(s.m) * s.n);
  for (float& v : a) v = rng.uniform(-1.0f, 1.0f);
  for (float& v : b) v = rng.uniform(-1.0f, 1.0f);
  const auto ta = form == "tn" ? kernels::Trans::T : kernels::Trans::N;
  const auto tb = form == "nt" ? kernels::Trans::T : kernels::Trans::N;
  const int lda = ta == kernels::Trans::N ? s.k : s.m, ldb = tb == kernels::Trans::N ? s.n : s.k;
  const int calls = std::max(1, options.calls);
  for (int i = 0; i < std::max(3, calls / 10); ++i)  // warm-up
    kernels::matmul(ta, tb, s.m, s.n, s.k, a.data(), lda, b.data(), ldb, c.data(), s.n, false);
  const double start = now_seconds();
  for (int i = 0; i < calls; ++i)
    kernels::matmul(ta, tb, s.m, s.n, s.k, a.data(), lda, b.data(), ldb, c.data(), s.n, false);
  const double seconds = now_seconds() - start;
  std::printf(
      "{\"bench\":\"matmul\",\"m\":%d,\"k\":%d,\"n\":%d,\"form\":\"%s\",\"impl\":\"%s\",\"calls\":%d,\"gflops\":%.3f}"
      "\n",
      s.m, s.k, s.n, form.c_str(), options.impl.empty() ? default_impl().c_str() : options.impl.c_str(), calls,
      2.0 * s.m * s.n * s.k * calls / seconds / 1e9);
  return 0;
}

int run_matmul(const Options& options) {
  if (!options.shape.empty()) return run_one_product(options);
  Rng rng(1);
  const std::string impl = options.impl.empty() ? default_impl() : options.impl;
  const char* forms[] = {"nn", "nt", "tn"};
  {
    // 200 ms of warm-up so a wasm engine has tiered up to optimised code before any timing.
    const MatmulShape warm = {128, 128, 128};
    std::vector<float> a(128 * 128, 0.5f), b(128 * 128, 0.25f), c(128 * 128);
    const double start = now_seconds();
    while (now_seconds() - start < 0.2)
      time_matmul(&fast_matmul, kernels::Trans::N, kernels::Trans::N, warm, a, b, c, 1);
  }
  for (const MatmulShape& s : kShapes) {
    std::vector<float> a(static_cast<std::size_t>(s.m) * s.k), b(static_cast<std::size_t>(s.k) * s.n);
    std::vector<float> c(static_cast<std::size_t>(s.m) * s.n);
    for (float& v : a) v = rng.uniform(-1.0f, 1.0f);
    for (float& v : b) v = rng.uniform(-1.0f, 1.0f);
    for (int f = 0; f < 3; ++f) {
      const auto ta = f == 2 ? kernels::Trans::T : kernels::Trans::N;
      const auto tb = f == 1 ? kernels::Trans::T : kernels::Trans::N;
      const double g = time_matmul(&fast_matmul, ta, tb, s, a, b, c, options.reps);
      std::printf("{\"bench\":\"matmul\",\"m\":%d,\"k\":%d,\"n\":%d,\"form\":\"%s\",\"impl\":\"%s\",\"gflops\":%.3f}\n",
                  s.m, s.k, s.n, forms[f], impl.c_str(), g);
      // The scalar reference only where it finishes quickly.
      if (static_cast<double>(s.m) * s.n * s.k <= 256.0 * 256 * 256) {
        const double gs = time_matmul(&kernels::ref::matmul, ta, tb, s, a, b, c, 3);
        std::printf(
            "{\"bench\":\"matmul\",\"m\":%d,\"k\":%d,\"n\":%d,\"form\":\"%s\",\"impl\":\"scalar\",\"gflops\":%.3f}\n",
            s.m, s.k, s.n, forms[f], gs);
      }
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace tp::bench
