// [kernels] The fast matmul against the double-precision reference: every form (nn, nt, tn),
// accumulate on/off, bias on/off, padded leading dimensions, and shapes that hit every edge of
// the 4x8 micro-tile and of the 256/128/1024 cache blocks.
#include <catch2/catch.hpp>

#include <string>

#include "core/error.h"
#include "kernels/kernels.h"
#include "kernels/reference.h"
#include "test_util.h"

using namespace tp;
using kernels::Trans;

namespace {

// Sizes the issue names plus tile and block edges.
const int kSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 65, 127, 129, 257, 300};

struct Case {
  Trans ta, tb;
  int M, N, K;
  bool accumulate, bias;
  int pad_a, pad_b, pad_c;
};

std::string describe(const Case& c) {
  return str_cat(c.ta == Trans::N ? "n" : "t", c.tb == Trans::N ? "n" : "t", " M=", c.M, " N=", c.N,
                 " K=", c.K, " acc=", c.accumulate, " bias=", c.bias, " pads=", c.pad_a, ",",
                 c.pad_b, ",", c.pad_c);
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
  kernels::matmul(c.ta, c.tb, c.M, c.N, c.K, A.data(), lda, B.data(), ldb, fast.data(), ldc,
                  c.accumulate, c.bias ? bias.data() : nullptr);
  kernels::ref::matmul(c.ta, c.tb, c.M, c.N, c.K, A.data(), lda, B.data(), ldb, expected.data(),
                       ldc, c.accumulate, c.bias ? bias.data() : nullptr);
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
  const int n_sizes = sizeof(kSizes) / sizeof(kSizes[0]);
  double worst = 0.0;
  for (int i = 0; i < 240; ++i) {
    Case c;
    c.ta = (i % 3 == 2) ? Trans::T : Trans::N;  // nn, nt, tn in turn
    c.tb = (i % 3 == 1) ? Trans::T : Trans::N;
    c.M = kSizes[rng.below(n_sizes)];
    c.N = kSizes[rng.below(n_sizes)];
    c.K = kSizes[rng.below(n_sizes)];
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
  // M > 128 (A blocks), K > 256 (depth blocks, where C starts accumulating), N > 1024 (B blocks).
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
