// [kernels] The wide native matmul (TP_WIDE builds: AVX2 and AVX-512 micro-kernels with FMA)
// against the double-precision reference, on the shapes, forms, bands and edges the 128-bit
// matmul is tested on. Both kernels run when this CPU has them, whichever one routing chose.
//
// The rest of the suite tests the 128-bit path, the one wasm runs and the one the recorded
// [determinism] losses come from, so a TP_WIDE test binary turns wide routing off at start-up.
#include <catch2/catch.hpp>

#include <string>

#include "kernels/kernels.h"
#include "kernels/reference.h"
#include "kernels/wide/wide.h"
#include "test_util.h"

using namespace tp;
using kernels::Trans;

#ifdef TP_WIDE

namespace {

[[maybe_unused]] const bool kSuiteUsesSharedPath = (kernels::use_wide_matmul(false), true);

using Kernel = void (*)(Trans, Trans, int, int, int, const float*, int, const float*, int, float*, int, bool,
                        const float*, kernels::Band);

void check_kernel(Kernel kernel, const char* name) {
  const int sizes[] = {1, 2, 3, 4, 5, 7, 11, 12, 13, 16, 31, 32, 33, 65, 129, 257, 300};
  const int n_sizes = sizeof(sizes) / sizeof(sizes[0]);
  Rng rng(41);
  double worst = 0.0;
  for (int i = 0; i < 240; ++i) {
    const Trans ta = (i % 3 == 2) ? Trans::T : Trans::N, tb = (i % 3 == 1) ? Trans::T : Trans::N;
    const int M = sizes[rng.below(n_sizes)], N = sizes[rng.below(n_sizes)], K = sizes[rng.below(n_sizes)];
    const bool accumulate = rng.below(2) == 1, with_bias = rng.below(2) == 1;
    const int lda = (ta == Trans::N ? K : M) + static_cast<int>(rng.below(3)), ldb = (tb == Trans::N ? N : K) + 1;
    const int ldc = N + static_cast<int>(rng.below(2)) * 5;
    const auto A = test::random_vector(rng, static_cast<std::size_t>(ta == Trans::N ? M : K) * lda);
    const auto B = test::random_vector(rng, static_cast<std::size_t>(tb == Trans::N ? K : N) * ldb);
    const auto bias = test::random_vector(rng, N);
    const std::size_t c_size = static_cast<std::size_t>(M) * ldc;
    auto fast = accumulate ? test::random_vector(rng, c_size) : test::poisoned(c_size);
    for (int r = 0; r < M; ++r) {
      for (int c = N; c < ldc; ++c) fast[static_cast<std::size_t>(r) * ldc + c] = 12345.0f;
    }
    auto expected = fast;
    kernel(ta, tb, M, N, K, A.data(), lda, B.data(), ldb, fast.data(), ldc, accumulate,
           with_bias ? bias.data() : nullptr, {});
    kernels::ref::matmul(ta, tb, M, N, K, A.data(), lda, B.data(), ldb, expected.data(), ldc, accumulate,
                         with_bias ? bias.data() : nullptr);
    INFO(name << " M=" << M << " N=" << N << " K=" << K << " form " << (ta == Trans::N ? "n" : "t")
              << (tb == Trans::N ? "n" : "t") << " acc=" << accumulate << " bias=" << with_bias);
    for (int r = 0; r < M; ++r) {
      for (int c = N; c < ldc; ++c) REQUIRE(fast[static_cast<std::size_t>(r) * ldc + c] == 12345.0f);
    }
    const double err = test::relative_error(fast, expected);
    REQUIRE(err <= 1e-5);
    worst = std::max(worst, err);
  }
  WARN("worst " << name << " matmul relative error over 240 shapes: " << worst);
}

}  // namespace

TEST_CASE("the wide matmul kernels match the reference", "[kernels]") {
  __builtin_cpu_init();
  bool ran = false;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    check_kernel(&kernels::wide::matmul_avx2, "avx2");
    ran = true;
  }
  if (__builtin_cpu_supports("avx512f")) {
    check_kernel(&kernels::wide::matmul_avx512, "avx512");
    ran = true;
  }
  if (!ran) WARN("this CPU has neither AVX2+FMA nor AVX-512: no wide kernel to test");
}

TEST_CASE("the wide GELU kernels give the 128-bit kernels' bits", "[kernels]") {
  __builtin_cpu_init();
  using Forward = void (*)(const float*, float*, float*, int);
  using Backward = void (*)(const float*, const float*, const float*, float*, int, int, float*);
  struct Impl {
    const char* name;
    bool available;
    Forward forward;
    Backward backward;
  };
  const Impl impls[] = {
      {"avx2", __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"), &kernels::wide::gelu_forward_gate_avx2,
       &kernels::wide::gelu_backward_gate_avx2},
      {"avx512", __builtin_cpu_supports("avx512f") != 0, &kernels::wide::gelu_forward_gate_avx512,
       &kernels::wide::gelu_backward_gate_avx512},
  };
  Rng rng(43);
  const int sizes[] = {1, 3, 7, 8, 15, 16, 17, 33, 64, 127, 512};
  for (const Impl& impl : impls) {
    if (!impl.available) continue;
    for (int i = 0; i < 40; ++i) {
      const int rows = 1 + static_cast<int>(rng.below(5)), cols = sizes[rng.below(11)], n = rows * cols;
      auto x = test::random_vector(rng, n, -12.0f, 12.0f);
      if (i == 0) x[0] = 100.0f;  // past exp's range on the negative side: σ = 1 exactly
      auto y = test::poisoned(n), gate = test::poisoned(n), y128 = test::poisoned(n), gate128 = test::poisoned(n);
      impl.forward(x.data(), y.data(), gate.data(), n);
      kernels::gelu_forward_gate_simd128(x.data(), y128.data(), gate128.data(), n);
      INFO(impl.name << " rows=" << rows << " cols=" << cols);
      REQUIRE(y == y128);
      REQUIRE(gate == gate128);
      const auto dy = test::random_vector(rng, n);
      auto dx = test::poisoned(n), dx128 = test::poisoned(n);
      auto db = test::random_vector(rng, cols);
      auto db128 = db;
      impl.backward(x.data(), gate.data(), dy.data(), dx.data(), rows, cols, db.data());
      kernels::gelu_backward_gate_simd128(x.data(), gate.data(), dy.data(), dx128.data(), rows, cols, db128.data());
      REQUIRE(dx == dx128);
      REQUIRE(db == db128);
    }
  }
}

TEST_CASE("wide routing can be turned on and off", "[kernels]") {
  REQUIRE(std::string(kernels::matmul_path()) == "simd128");  // the suite runs the shared path
  if (kernels::wide::best_available() == nullptr) return;
  REQUIRE(kernels::use_wide_matmul(true));
  REQUIRE(std::string(kernels::matmul_path()) != "simd128");
  // Routed through kernels::matmul, a banded product still matches the full one in the band.
  Rng rng(42);
  const int M = 64, N = 64, K = 32;
  const auto A = test::random_vector(rng, M * K), B = test::random_vector(rng, N * K);
  std::vector<float> full(M * N), banded = test::poisoned(M * N), expected(M * N);
  kernels::matmul(Trans::N, Trans::T, M, N, K, A.data(), K, B.data(), K, banded.data(), N, false, nullptr,
                  {kernels::Band::Kind::Lower, 0});
  kernels::matmul(Trans::N, Trans::T, M, N, K, A.data(), K, B.data(), K, full.data(), N);
  kernels::ref::matmul(Trans::N, Trans::T, M, N, K, A.data(), K, B.data(), K, expected.data(), N);
  REQUIRE_FALSE(kernels::use_wide_matmul(false));
  REQUIRE(test::relative_error(full, expected) <= 1e-5);
  for (int r = 0; r < M; ++r) {
    for (int c = 0; c <= r; ++c) REQUIRE(banded[r * N + c] == full[r * N + c]);
  }
}

#else

TEST_CASE("without TP_WIDE the matmul path is the 128-bit one", "[kernels]") {
  REQUIRE(std::string(kernels::matmul_path()) == "simd128");
  REQUIRE_FALSE(kernels::use_wide_matmul(true));
}

#endif
