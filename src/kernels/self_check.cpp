// run_self_check: a few dozen random cases across every kernel family, plus a small timing.
#include "kernels/self_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/rng.h"
#include "kernels/kernels.h"
#include "kernels/reference.h"

namespace tp::kernels {

namespace {

std::vector<float> random_vector(Rng& rng, int n, float lo = -1.0f, float hi = 1.0f) {
  std::vector<float> v(n);
  for (float& x : v) x = rng.uniform(lo, hi);
  return v;
}

double relative_error(const std::vector<float>& a, const std::vector<float>& b) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i])) return std::numeric_limits<double>::infinity();
    diff += (static_cast<double>(a[i]) - b[i]) * (static_cast<double>(a[i]) - b[i]);
    norm += static_cast<double>(b[i]) * b[i];
  }
  return std::sqrt(diff) / std::max(std::sqrt(norm), 1e-30);
}

double max_abs_error(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i])) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::fabs(static_cast<double>(a[i]) - b[i]));
  }
  return worst;
}

void add_case(SelfCheckReport& report, std::string name, double error, double tolerance) {
  report.cases.push_back({std::move(name), error, tolerance, error <= tolerance});
}

double gflops_of(void (*kernel)(Trans, Trans, int, int, int, const float*, int, const float*, int, float*, int, bool,
                                const float*),
                 const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c, int n, int reps) {
  using clock = std::chrono::steady_clock;
  // Warm up for ~30 ms first: a wasm engine tiers up to its optimising compiler meanwhile.
  const auto warm_start = clock::now();
  do {
    kernel(Trans::N, Trans::N, n, n, n, a.data(), n, b.data(), n, c.data(), n, false, nullptr);
  } while (std::chrono::duration<double>(clock::now() - warm_start).count() < 0.03);
  const auto start = clock::now();
  for (int r = 0; r < reps; ++r) {
    kernel(Trans::N, Trans::N, n, n, n, a.data(), n, b.data(), n, c.data(), n, false, nullptr);
  }
  const double seconds = std::chrono::duration<double>(clock::now() - start).count();
  return 2.0 * n * n * n * reps / std::max(seconds, 1e-9) / 1e9;
}

}  // namespace

SelfCheckReport run_self_check(unsigned seed) {
  SelfCheckReport report;
#ifdef __EMSCRIPTEN__
  report.backend = "wasm-simd128";
#else
  const std::string path = matmul_path();  // "simd128", or "avx2"/"avx512" in a TP_WIDE build
  report.backend = path == "simd128" ? "native-sse" : "native-" + path;
#endif
  Rng rng(seed);
  const int sizes[] = {1, 3, 7, 17, 33, 65};
  const char* forms[] = {"nn", "nt", "tn"};
  for (int i = 0; i < 12; ++i) {
    const int M = sizes[rng.below(6)], N = sizes[rng.below(6)], K = sizes[rng.below(6)];
    const Trans ta = i % 3 == 2 ? Trans::T : Trans::N, tb = i % 3 == 1 ? Trans::T : Trans::N;
    const auto A = random_vector(rng, M * K), B = random_vector(rng, K * N), bias = random_vector(rng, N);
    std::vector<float> c(M * N, std::numeric_limits<float>::quiet_NaN()), expected(M * N);
    const int lda = ta == Trans::N ? K : M, ldb = tb == Trans::N ? N : K;
    matmul(ta, tb, M, N, K, A.data(), lda, B.data(), ldb, c.data(), N, false, bias.data());
    ref::matmul(ta, tb, M, N, K, A.data(), lda, B.data(), ldb, expected.data(), N, false, bias.data());
    add_case(report, str_cat("matmul ", forms[i % 3], " ", M, "x", K, "x", N), relative_error(c, expected), 1e-5);
  }
  for (int i = 0; i < 3; ++i) {
    const int rows = sizes[rng.below(6)], cols = sizes[rng.below(6)];
    const auto x = random_vector(rng, rows * cols, -6.0f, 6.0f);
    std::vector<float> y(rows * cols), expected(rows * cols);
    softmax_forward(x.data(), y.data(), rows, cols, 0.5f);
    ref::softmax_forward(x.data(), expected.data(), rows, cols, 0.5f);
    add_case(report, str_cat("softmax ", rows, "x", cols), max_abs_error(y, expected), 2e-6);

    const auto gamma = random_vector(rng, cols, 0.5f, 1.5f), beta = random_vector(rng, cols);
    std::vector<float> mean(rows), rstd(rows), m2(rows), r2(rows);
    layernorm_forward(x.data(), gamma.data(), beta.data(), y.data(), mean.data(), rstd.data(), rows, cols, 1e-5f);
    ref::layernorm_forward(x.data(), gamma.data(), beta.data(), expected.data(), m2.data(), r2.data(), rows, cols,
                           1e-5f);
    add_case(report, str_cat("layernorm ", rows, "x", cols), max_abs_error(y, expected), 1e-5);

    gelu_forward(x.data(), y.data(), rows * cols);
    ref::gelu_forward(x.data(), expected.data(), rows * cols);
    add_case(report, str_cat("gelu ", rows * cols), max_abs_error(y, expected), 2e-5);
  }
  report.pass = std::all_of(report.cases.begin(), report.cases.end(), [](const SelfCheckCase& c) { return c.pass; });

  const int n = 128;
  const auto a = random_vector(rng, n * n), b = random_vector(rng, n * n);
  std::vector<float> c(n * n);
  // (A lambda: kernels::matmul takes a trailing Band the reference does not.)
  report.simd_gflops = gflops_of(
      [](Trans ta, Trans tb, int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
         bool acc, const float* bias) { matmul(ta, tb, M, N, K, A, lda, B, ldb, C, ldc, acc, bias); },
      a, b, c, n, 40);
  report.scalar_gflops = gflops_of(&ref::matmul, a, b, c, n, 2);
  return report;
}

}  // namespace tp::kernels
