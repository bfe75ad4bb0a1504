// [kernels] The fast matmul against the double-precision reference: every form (nn, nt, tn),
// accumulate on/off, bias on/off, padded leading dimensions, shapes that hit every edge of the
// 4x8 micro-tile and of the 512/32/512 cache blocks (Kc/Mc/Nc), the causal bands attention uses,
// and the unpacked path for one to three rows (bit-identical to the packed one).
#include <catch2/catch.hpp>

#include <string>

#include "core/error.h"
#include "kernels/kernels.h"
#include "kernels/reference.h"
#include "test_util.h"

using namespace tp;
using kernels::Trans;

namespace {

// Sizes that trip edge cases (1, 2, 3, 7, 17, 31, 33, 65, 127...) plus tile and block edges.
const int kMatmulSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 65, 127, 129, 257, 300};

struct Case {
  Trans ta, tb;
  int M, N, K;
  bool accumulate, bias;
  int pad_a, pad_b, pad_c;
};

std::string describe(const Case& c) {
  return str_cat(c.ta == Trans::N ? "n" : "t", c.tb == Trans::N ? "n" : "t", " M=", c.M, " N=", c.N, " K=", c.K,
                 " acc=", c.accumulate, " bias=", c.bias, " pads=", c.pad_a, ",", c.pad_b, ",", c.pad_c);
}

// Runs one case through both implementations; returns the relative error (inf on NaN or on a
// write outside C's valid region).
double run_case(Rng& rng, const Case& c) {
  const int a_rows = c.ta == Trans::N ? c.M : c.K, a_cols = c.ta == Trans::N ? c.K : c.M;
  const int b_rows = c.tb == Trans::N ? c.K : c.N, b_cols = c.tb == Trans::N ? c.N : c.K;
  const int lda = a_cols + c.pad_a, ldb = b_cols + c.pad_b, ldc = c.N + c.pad_c;
  const auto A = test::random_vector(rng, static_cast<std::size_t>(a_rows) * lda);
  const auto B = test::random_vector(rng, static_cast<std::size_t>(b_rows) * ldb);
  const auto bias = test::random_vector(rng, c.N);
  const std::size_t c_size = static_cast<std::size_t>(c.M) * ldc;
  std::vector<float> fast, expected;
  if (c.accumulate) {
    fast = test::random_vector(rng, c_size);
  } else {
    fast = test::poisoned(c_size);
  }
  // Padding columns of C hold a sentinel that must survive.
  for (int i = 0; i < c.M; ++i) {
    for (int j = c.N; j < ldc; ++j) fast[i * ldc + j] = 12345.0f;
  }
  expected = fast;
  kernels::matmul(c.ta, c.tb, c.M, c.N, c.K, A.data(), lda, B.data(), ldb, fast.data(), ldc, c.accumulate,
                  c.bias ? bias.data() : nullptr);
  kernels::ref::matmul(c.ta, c.tb, c.M, c.N, c.K, A.data(), lda, B.data(), ldb, expected.data(), ldc, c.accumulate,
                       c.bias ? bias.data() : nullptr);
  for (int i = 0; i < c.M; ++i) {
    for (int j = c.N; j < ldc; ++j) {
      if (fast[i * ldc + j] != 12345.0f) return std::numeric_limits<double>::infinity();
    }
  }
  return test::relative_error(fast, expected);
}

}  // namespace

TEST_CASE("matmul matches the reference on 240 random shapes in every form", "[kernels]") {
  Rng rng(20261129);
  const int n_sizes = sizeof(kMatmulSizes) / sizeof(kMatmulSizes[0]);
  double worst = 0.0;
  for (int i = 0; i < 240; ++i) {
    Case c;
    c.ta = (i % 3 == 2) ? Trans::T : Trans::N;  // nn, nt, tn in turn
    c.tb = (i % 3 == 1) ? Trans::T : Trans::N;
    c.M = kMatmulSizes[rng.below(n_sizes)];
    c.N = kMatmulSizes[rng.below(n_sizes)];
    c.K = kMatmulSizes[rng.below(n_sizes)];
    c.accumulate = rng.below(2) == 1;
    c.bias = rng.below(2) == 1;
    c.pad_a = rng.below(3) * 3;
    c.pad_b = rng.below(3) * 5;
    c.pad_c = rng.below(2) * 7;
    const double err = run_case(rng, c);
    INFO(describe(c));
    REQUIRE(err <= 1e-5);
    worst = std::max(worst, err);
  }
  WARN("worst matmul relative error over 240 shapes: " << worst);
}

TEST_CASE("matmul crosses every cache-block boundary", "[kernels]") {
  Rng rng(7);
  // M > 32 (A blocks), K > 512 (depth blocks, where C starts accumulating), N > 512 (B blocks).
  const Case cases[] = {
      {Trans::N, Trans::N, 131, 1030, 513, false, true, 0, 0, 0},
      {Trans::N, Trans::T, 260, 1025, 300, true, false, 1, 2, 3},
      {Trans::T, Trans::N, 129, 1031, 257, false, true, 0, 0, 0},
  };
  for (const Case& c : cases) {
    INFO(describe(c));
    REQUIRE(run_case(rng, c) <= 1e-5);
  }
}

TEST_CASE("matmul with K = 0 writes the bias (or keeps C)", "[kernels]") {
  std::vector<float> c = test::poisoned(6), bias = {1, 2, 3};
  kernels::matmul(Trans::N, Trans::N, 2, 3, 0, nullptr, 0, nullptr, 3, c.data(), 3, false, bias.data());
  CHECK(c == std::vector<float>{1, 2, 3, 1, 2, 3});
  kernels::matmul(Trans::N, Trans::N, 2, 3, 0, nullptr, 0, nullptr, 3, c.data(), 3, true, nullptr);
  CHECK(c == std::vector<float>{1, 2, 3, 1, 2, 3});
}

namespace {

// op(A) for a band case: random, with exact zeros where KUpTo/KFrom promise them.
std::vector<float> banded_a(Rng& rng, Trans ta, int M, int K, int lda, kernels::Band band) {
  const int rows = ta == Trans::N ? M : K;
  auto A = test::random_vector(rng, static_cast<std::size_t>(rows) * lda);
  for (int i = 0; i < M; ++i) {
    for (int k = 0; k < K; ++k) {
      const bool zero = (band.kind == kernels::Band::Kind::KUpTo && k > i + band.offset) ||
                        (band.kind == kernels::Band::Kind::KFrom && k < i + band.offset);
      if (zero)
        (ta == Trans::N ? A[static_cast<std::size_t>(i) * lda + k] : A[static_cast<std::size_t>(k) * lda + i]) = 0.0f;
    }
  }
  return A;
}

}  // namespace

TEST_CASE("banded matmul computes what causal attention reads", "[kernels]") {
  using Kind = kernels::Band::Kind;
  Rng rng(31);
  const int n_sizes = sizeof(kMatmulSizes) / sizeof(kMatmulSizes[0]);
  for (int i = 0; i < 180; ++i) {
    const Trans ta = (i % 3 == 2) ? Trans::T : Trans::N, tb = (i % 3 == 1) ? Trans::T : Trans::N;
    const int M = kMatmulSizes[rng.below(n_sizes)], N = kMatmulSizes[rng.below(n_sizes)],
              K = kMatmulSizes[rng.below(n_sizes)];
    kernels::Band band;
    band.kind = static_cast<Kind>(1 + (i / 3) % 3);
    band.offset = static_cast<int>(rng.below(7)) - 3;
    const bool accumulate = rng.below(2) == 1, with_bias = rng.below(2) == 1;
    const int lda = (ta == Trans::N ? K : M) + 1, ldb = (tb == Trans::N ? N : K) + 2, ldc = N;
    const auto A = banded_a(rng, ta, M, K, lda, band);
    const auto B = test::random_vector(rng, static_cast<std::size_t>(tb == Trans::N ? K : N) * ldb);
    const auto bias = test::random_vector(rng, N);
    const auto start = accumulate ? test::random_vector(rng, static_cast<std::size_t>(M) * ldc)
                                  : test::poisoned(static_cast<std::size_t>(M) * ldc);
    auto banded = start, full = start, expected = start;
    const float* b = with_bias ? bias.data() : nullptr;
    kernels::matmul(ta, tb, M, N, K, A.data(), lda, B.data(), ldb, banded.data(), ldc, accumulate, b, band);
    kernels::matmul(ta, tb, M, N, K, A.data(), lda, B.data(), ldb, full.data(), ldc, accumulate, b);
    kernels::ref::matmul(ta, tb, M, N, K, A.data(), lda, B.data(), ldb, expected.data(), ldc, accumulate, b);
    INFO("band " << static_cast<int>(band.kind) << " offset " << band.offset << " M=" << M << " N=" << N << " K=" << K
                 << " form " << (ta == Trans::N ? "n" : "t") << (tb == Trans::N ? "n" : "t") << " acc=" << accumulate);
    REQUIRE_FALSE(test::any_nan(banded));  // every element written
    if (band.kind == Kind::Lower) {
      for (int r = 0; r < M; ++r) {
        for (int c = 0; c <= std::min(N - 1, r + band.offset); ++c) {
          const std::size_t k = static_cast<std::size_t>(r) * ldc + c;
          REQUIRE(banded[k] == full[k]);  // inside the band: the unbanded kernel's own value
        }
      }
    } else {
      // Only exact-zero terms are dropped: the same bits as the full product.
      REQUIRE(banded == full);
      REQUIRE(test::relative_error(banded, expected) <= 1e-5);
    }
  }
}

TEST_CASE("products of one to three rows are bit-identical to the same rows of a larger one", "[kernels]") {
  // The cached generation step multiplies one row; a full forward pass multiplies them all. The
  // unpacked small-M path must give exactly the packed path's bits for generation to match.
  Rng rng(32);
  const int Ks[] = {1, 5, 32, 129, 513, 1100};
  for (int i = 0; i < 36; ++i) {
    const Trans ta = (i % 3 == 2) ? Trans::T : Trans::N, tb = (i % 3 == 1) ? Trans::T : Trans::N;
    const int big_m = 8, N = 1 + static_cast<int>(rng.below(70)), K = Ks[(i / 3) % 6];
    const int lda = ta == Trans::N ? K : big_m, ldb = tb == Trans::N ? N : K;
    const auto A = test::random_vector(rng, static_cast<std::size_t>(ta == Trans::N ? big_m : K) * lda);
    const auto B = test::random_vector(rng, static_cast<std::size_t>(tb == Trans::N ? K : N) * ldb);
    const auto bias = test::random_vector(rng, N);
    const bool accumulate = i % 2 == 1;
    const auto start = test::random_vector(rng, static_cast<std::size_t>(big_m) * N);
    auto big = start;
    kernels::matmul(ta, tb, big_m, N, K, A.data(), lda, B.data(), ldb, big.data(), N, accumulate, bias.data());
    for (int m = 1; m <= 3; ++m) {
      auto small = start;
      kernels::matmul(ta, tb, m, N, K, A.data(), lda, B.data(), ldb, small.data(), N, accumulate, bias.data());
      INFO("m=" << m << " N=" << N << " K=" << K << " form " << (ta == Trans::N ? "n" : "t")
                << (tb == Trans::N ? "n" : "t"));
      for (int k = 0; k < m * N; ++k) REQUIRE(small[k] == big[k]);
    }
  }
}
