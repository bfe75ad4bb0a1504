// [kernels] Softmax, LayerNorm, RMSNorm, activations, elementwise ops and reductions against the
// double-precision reference, on random shapes with sizes 1..127 (and tails of every length).
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "kernels/kernels.h"
#include "kernels/reference.h"
#include "test_util.h"

using namespace tp;

namespace {

const int kRowSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 65, 127};
constexpr int kCases = 200;

int pick_row_size(Rng& rng) { return kRowSizes[rng.below(sizeof(kRowSizes) / sizeof(kRowSizes[0]))]; }

// Norm backward subtracts terms of size rstd·|dy·gamma| that can cancel to almost nothing (a
// 2-column LayerNorm has dx = 0 exactly), so its error is measured against that scale.
double norm_backward_error(const std::vector<float>& dx, const std::vector<float>& dx_ref, const std::vector<float>& dy,
                           const std::vector<float>& gamma, const std::vector<float>& rstd, int cols) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < dx.size(); ++i) {
    if (std::isnan(dx[i])) return std::numeric_limits<double>::infinity();
    const double d = static_cast<double>(dx[i]) - dx_ref[i];
    const double s = static_cast<double>(dy[i]) * gamma[i % cols] * rstd[i / cols];
    diff += d * d;
    scale += s * s + static_cast<double>(dx_ref[i]) * dx_ref[i];
  }
  return std::sqrt(diff) / std::max(std::sqrt(scale), 1e-30);
}

}  // namespace

TEST_CASE("softmax forward with scale and mask matches the reference", "[kernels]") {
  Rng rng(1);
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < kCases; ++i) {
    const int rows = pick_row_size(rng), cols = pick_row_size(rng);
    const float scale = rng.uniform(0.1f, 3.0f);
    auto x = test::random_vector(rng, rows * cols, -8.0f, 8.0f);
    auto mask = test::random_vector(rng, rows * cols, -2.0f, 2.0f);
    for (float& m : mask) {
      if (rng.uniform() < 0.3f) m = neg_inf;
    }
    if (i % 10 == 0) std::fill(mask.begin(), mask.begin() + cols, neg_inf);  // fully masked row
    const bool use_mask = i % 4 != 3;
    auto fast = test::poisoned(rows * cols), expected = test::poisoned(rows * cols);
    kernels::softmax_forward(x.data(), fast.data(), rows, cols, scale, use_mask ? mask.data() : nullptr, cols);
    kernels::ref::softmax_forward(x.data(), expected.data(), rows, cols, scale, use_mask ? mask.data() : nullptr, cols);
    INFO("rows=" << rows << " cols=" << cols);
    REQUIRE(test::max_abs_error(fast.data(), expected.data(), fast.size()) <= 2e-6);
    for (int k = 0; k < rows * cols; ++k) {
      if (use_mask && mask[k] == neg_inf) REQUIRE(fast[k] == 0.0f);  // exact zeros, not tiny
    }
  }
}

TEST_CASE("softmax rows sum to one and a shared mask row broadcasts", "[kernels]") {
  Rng rng(2);
  const int rows = 5, cols = 33;
  auto x = test::random_vector(rng, rows * cols, -20.0f, 20.0f);
  auto mask = test::random_vector(rng, cols);
  std::vector<float> y(rows * cols), expected(rows * cols);
  kernels::softmax_forward(x.data(), y.data(), rows, cols, 1.0f, mask.data(), 0);
  kernels::ref::softmax_forward(x.data(), expected.data(), rows, cols, 1.0f, mask.data(), 0);
  REQUIRE(test::max_abs_error(y.data(), expected.data(), y.size()) <= 2e-6);
  for (int r = 0; r < rows; ++r) REQUIRE(kernels::sum(&y[r * cols], cols) == Approx(1.0f).epsilon(1e-6));
}

TEST_CASE("causal softmax reads only the visible columns and matches the reference", "[kernels]") {
  Rng rng(21);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int i = 0; i < kCases; ++i) {
    const int rows = pick_row_size(rng), cols = pick_row_size(rng), visible = static_cast<int>(rng.below(4));
    const float scale = rng.uniform(0.1f, 3.0f);
    auto x = test::random_vector(rng, rows * cols, -8.0f, 8.0f);
    auto mask = test::random_vector(rng, cols, -2.0f, 2.0f);  // a shared padding-style row
    for (float& m : mask) {
      if (rng.uniform() < 0.2f) m = -std::numeric_limits<float>::infinity();
    }
    // Past the visible columns x is poison: the kernel must not read it.
    for (int r = 0; r < rows; ++r) {
      for (int c = visible + r; c < cols; ++c) x[r * cols + c] = nan;
    }
    const bool use_mask = i % 3 != 0;
    auto fast = test::poisoned(rows * cols), expected = test::poisoned(rows * cols);
    kernels::softmax_forward(x.data(), fast.data(), rows, cols, scale, use_mask ? mask.data() : nullptr, 0, visible);
    kernels::ref::softmax_forward(x.data(), expected.data(), rows, cols, scale, use_mask ? mask.data() : nullptr, 0,
                                  visible);
    INFO("rows=" << rows << " cols=" << cols << " visible=" << visible);
    REQUIRE(test::max_abs_error(fast.data(), expected.data(), fast.size()) <= 2e-6);
    for (int r = 0; r < rows; ++r) {
      for (int c = visible + r; c < cols; ++c) REQUIRE(fast[r * cols + c] == 0.0f);
    }
    // Backward: dy past the visible columns is poison too; dx there is 0 (or kept when accumulating).
    auto dy = test::random_vector(rng, rows * cols);
    for (int r = 0; r < rows; ++r) {
      for (int c = visible + r; c < cols; ++c) dy[r * cols + c] = nan;
    }
    const bool accumulate = i % 2 == 0;
    auto dx = accumulate ? test::random_vector(rng, rows * cols) : test::poisoned(rows * cols);
    auto dx_ref = dx;
    kernels::softmax_backward(fast.data(), dy.data(), dx.data(), rows, cols, scale, accumulate, visible);
    kernels::ref::softmax_backward(fast.data(), dy.data(), dx_ref.data(), rows, cols, scale, accumulate, visible);
    REQUIRE(test::max_abs_error(dx.data(), dx_ref.data(), dx.size()) <= 1e-6);
    REQUIRE_FALSE(test::any_nan(dx));
  }
}

TEST_CASE("softmax backward matches the reference", "[kernels]") {
  Rng rng(3);
  for (int i = 0; i < kCases; ++i) {
    const int rows = pick_row_size(rng), cols = pick_row_size(rng);
    auto x = test::random_vector(rng, rows * cols, -4.0f, 4.0f);
    std::vector<float> y(rows * cols);
    kernels::ref::softmax_forward(x.data(), y.data(), rows, cols);
    auto dy = test::random_vector(rng, rows * cols);
    const bool accumulate = i % 2 == 0;
    const float scale = rng.uniform(0.2f, 2.0f);
    auto fast = accumulate ? test::random_vector(rng, rows * cols) : test::poisoned(rows * cols);
    auto expected = fast;
    kernels::softmax_backward(y.data(), dy.data(), fast.data(), rows, cols, scale, accumulate);
    kernels::ref::softmax_backward(y.data(), dy.data(), expected.data(), rows, cols, scale, accumulate);
    INFO("rows=" << rows << " cols=" << cols);
    REQUIRE(test::max_abs_error(fast.data(), expected.data(), fast.size()) <= 1e-6);
  }
}

TEST_CASE("layernorm forward and backward match the reference", "[kernels]") {
  Rng rng(4);
  for (int i = 0; i < kCases; ++i) {
    const int rows = pick_row_size(rng), cols = pick_row_size(rng);
    auto x = test::random_vector(rng, rows * cols, -3.0f, 5.0f);
    auto gamma = test::random_vector(rng, cols, 0.5f, 1.5f), beta = test::random_vector(rng, cols);
    auto y = test::poisoned(rows * cols), y_ref = test::poisoned(rows * cols);
    auto mean = test::poisoned(rows), rstd = test::poisoned(rows);
    auto mean_ref = test::poisoned(rows), rstd_ref = test::poisoned(rows);
    kernels::layernorm_forward(x.data(), gamma.data(), beta.data(), y.data(), mean.data(), rstd.data(), rows, cols,
                               1e-5f);
    kernels::ref::layernorm_forward(x.data(), gamma.data(), beta.data(), y_ref.data(), mean_ref.data(), rstd_ref.data(),
                                    rows, cols, 1e-5f);
    INFO("rows=" << rows << " cols=" << cols);
    REQUIRE(test::max_abs_error(y.data(), y_ref.data(), y.size()) <= 1e-5);
    REQUIRE(test::relative_error(rstd, rstd_ref) <= 1e-5);
    REQUIRE(test::max_abs_error(mean.data(), mean_ref.data(), rows) <= 1e-5);

    auto dy = test::random_vector(rng, rows * cols);
    const bool accumulate = i % 2 == 1;
    auto dx = accumulate ? test::random_vector(rng, rows * cols) : test::poisoned(rows * cols);
    auto dx_ref = dx;
    auto dgamma = test::random_vector(rng, cols), dbeta = test::random_vector(rng, cols);
    auto dgamma_ref = dgamma, dbeta_ref = dbeta;
    kernels::layernorm_backward(x.data(), gamma.data(), mean_ref.data(), rstd_ref.data(), dy.data(), dx.data(),
                                dgamma.data(), dbeta.data(), rows, cols, accumulate);
    kernels::ref::layernorm_backward(x.data(), gamma.data(), mean_ref.data(), rstd_ref.data(), dy.data(), dx_ref.data(),
                                     dgamma_ref.data(), dbeta_ref.data(), rows, cols, accumulate);
    REQUIRE(norm_backward_error(dx, dx_ref, dy, gamma, rstd_ref, cols) <= 1e-5);
    REQUIRE(test::relative_error(dgamma, dgamma_ref) <= 1e-5);
    REQUIRE(test::relative_error(dbeta, dbeta_ref) <= 1e-5);
  }
}

TEST_CASE("rmsnorm forward and backward match the reference", "[kernels]") {
  Rng rng(5);
  for (int i = 0; i < kCases; ++i) {
    const int rows = pick_row_size(rng), cols = pick_row_size(rng);
    auto x = test::random_vector(rng, rows * cols, -3.0f, 5.0f);
    auto gamma = test::random_vector(rng, cols, 0.5f, 1.5f);
    auto y = test::poisoned(rows * cols), y_ref = test::poisoned(rows * cols);
    auto rstd = test::poisoned(rows), rstd_ref = test::poisoned(rows);
    kernels::rmsnorm_forward(x.data(), gamma.data(), y.data(), rstd.data(), rows, cols, 1e-6f);
    kernels::ref::rmsnorm_forward(x.data(), gamma.data(), y_ref.data(), rstd_ref.data(), rows, cols, 1e-6f);
    INFO("rows=" << rows << " cols=" << cols);
    REQUIRE(test::relative_error(y, y_ref) <= 1e-5);
    REQUIRE(test::relative_error(rstd, rstd_ref) <= 1e-5);

    auto dy = test::random_vector(rng, rows * cols);
    const bool accumulate = i % 2 == 1;
    auto dx = accumulate ? test::random_vector(rng, rows * cols) : test::poisoned(rows * cols);
    auto dx_ref = dx;
    auto dgamma = test::random_vector(rng, cols), dgamma_ref = dgamma;
    kernels::rmsnorm_backward(x.data(), gamma.data(), rstd_ref.data(), dy.data(), dx.data(), dgamma.data(), rows, cols,
                              accumulate);
    kernels::ref::rmsnorm_backward(x.data(), gamma.data(), rstd_ref.data(), dy.data(), dx_ref.data(), dgamma_ref.data(),
                                   rows, cols, accumulate);
    REQUIRE(norm_backward_error(dx, dx_ref, dy, gamma, rstd_ref, cols) <= 1e-5);
    REQUIRE(test::relative_error(dgamma, dgamma_ref) <= 1e-5);
  }
}

namespace {

using Forward = std::function<void(const float*, float*, int)>;
using Backward = std::function<void(const float*, const float*, float*, int, bool)>;

// Activation check: forward within abs_tol·(1+|y|), backward likewise, over random lengths.
void check_activation(Forward fast_f, Forward ref_f, Backward fast_b, Backward ref_b, double tol, std::uint64_t seed) {
  Rng rng(seed);
  for (int i = 0; i < kCases; ++i) {
    const int n = pick_row_size(rng) * (1 + rng.below(3));
    auto x = test::random_vector(rng, n, -9.0f, 9.0f);
    if (i == 0) x[0] = 0.0f;
    auto y = test::poisoned(n), y_ref = test::poisoned(n);
    fast_f(x.data(), y.data(), n);
    ref_f(x.data(), y_ref.data(), n);
    INFO("n=" << n);
    for (int k = 0; k < n; ++k) REQUIRE(std::fabs(y[k] - y_ref[k]) <= tol * (1.0 + std::fabs(y_ref[k])));
    auto dy = test::random_vector(rng, n);
    const bool accumulate = i % 2 == 0;
    auto dx = accumulate ? test::random_vector(rng, n) : test::poisoned(n);
    auto dx_ref = dx;
    fast_b(x.data(), dy.data(), dx.data(), n, accumulate);
    ref_b(x.data(), dy.data(), dx_ref.data(), n, accumulate);
    for (int k = 0; k < n; ++k) REQUIRE(std::fabs(dx[k] - dx_ref[k]) <= tol * (1.0 + std::fabs(dx_ref[k])));
  }
}

}  // namespace

TEST_CASE("gelu, relu and silu match the reference", "[kernels]") {
  check_activation(kernels::gelu_forward, kernels::ref::gelu_forward, kernels::gelu_backward,
                   kernels::ref::gelu_backward, 2e-6, 6);
  check_activation(kernels::relu_forward, kernels::ref::relu_forward, kernels::relu_backward,
                   kernels::ref::relu_backward, 0.0, 7);
  check_activation(kernels::silu_forward, kernels::ref::silu_forward, kernels::silu_backward,
                   kernels::ref::silu_backward, 2e-6, 8);
}

TEST_CASE("gelu with a saved gate gives gelu's bits and fuses the bias gradient", "[kernels]") {
  Rng rng(22);
  for (int i = 0; i < 60; ++i) {
    const int rows = pick_row_size(rng), cols = pick_row_size(rng), n = rows * cols;
    auto x = test::random_vector(rng, n, -9.0f, 9.0f);
    auto y = test::poisoned(n), gate = test::poisoned(n), y_plain = test::poisoned(n);
    auto y_ref = test::poisoned(n), gate_ref = test::poisoned(n);
    kernels::gelu_forward_gate(x.data(), y.data(), gate.data(), n);
    kernels::gelu_forward(x.data(), y_plain.data(), n);
    kernels::ref::gelu_forward_gate(x.data(), y_ref.data(), gate_ref.data(), n);
    INFO("rows=" << rows << " cols=" << cols);
    REQUIRE(y == y_plain);
    REQUIRE(test::max_abs_error(gate.data(), gate_ref.data(), n) <= 2e-6);
    auto dy = test::random_vector(rng, n);
    auto dx = test::poisoned(n), dx_plain = test::poisoned(n), dx_ref = test::poisoned(n);
    auto db = test::random_vector(rng, cols);
    auto db_plain = db, db_ref = db;
    kernels::gelu_backward_gate(x.data(), gate.data(), dy.data(), dx.data(), rows, cols, db.data());
    kernels::gelu_backward(x.data(), dy.data(), dx_plain.data(), n);
    for (int r = 0; r < rows; ++r) kernels::axpy(1.0f, dx_plain.data() + r * cols, db_plain.data(), cols);
    kernels::ref::gelu_backward_gate(x.data(), gate.data(), dy.data(), dx_ref.data(), rows, cols, db_ref.data());
    REQUIRE(dx == dx_plain);  // the fused kernel changes no bit
    REQUIRE(db == db_plain);
    for (int k = 0; k < n; ++k) REQUIRE(std::fabs(dx[k] - dx_ref[k]) <= 2e-6 * (1.0 + std::fabs(dx_ref[k])));
    REQUIRE(test::max_abs_error(db.data(), db_ref.data(), cols) <= 1e-5 * rows);
  }
}

TEST_CASE("elementwise ops and reductions match the reference", "[kernels]") {
  Rng rng(9);
  for (int i = 0; i < kCases; ++i) {
    const int n = pick_row_size(rng) * (1 + rng.below(4));
    auto a = test::random_vector(rng, n), b = test::random_vector(rng, n);
    INFO("n=" << n);
    auto y = test::poisoned(n), y_ref = test::poisoned(n);
    kernels::add(a.data(), b.data(), y.data(), n);
    kernels::ref::add(a.data(), b.data(), y_ref.data(), n);
    REQUIRE(y == y_ref);
    const float s = rng.uniform(-2.0f, 2.0f);
    kernels::scale(a.data(), s, y.data(), n);
    kernels::ref::scale(a.data(), s, y_ref.data(), n);
    REQUIRE(y == y_ref);
    auto z = b, z_ref = b;
    kernels::axpy(s, a.data(), z.data(), n);
    kernels::ref::axpy(s, a.data(), z_ref.data(), n);
    REQUIRE(test::max_abs_error(z.data(), z_ref.data(), n) <= 1e-6);
    // Sums of n values in [-1, 1]: f32 rounding bounded by n·eps·Σ|a|.
    double abs_sum = 0.0;
    for (float v : a) abs_sum += std::fabs(v);
    REQUIRE(std::fabs(kernels::sum(a.data(), n) - kernels::ref::sum(a.data(), n)) <= 1e-6 * abs_sum + 1e-7);
    REQUIRE(std::fabs(kernels::dot(a.data(), b.data(), n) - kernels::ref::dot(a.data(), b.data(), n)) <=
            1e-6 * n + 1e-7);
    REQUIRE(kernels::max(a.data(), n) == kernels::ref::max(a.data(), n));
  }
  REQUIRE(kernels::sum(nullptr, 0) == 0.0f);
  REQUIRE(kernels::max(nullptr, 0) == -std::numeric_limits<float>::infinity());
}
