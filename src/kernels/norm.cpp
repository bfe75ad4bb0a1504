// LayerNorm and RMSNorm over the last dimension, forward and backward side by side.
//
// Each row is read from memory once: the later passes over it (variance about the mean, then
// y; in backward the row sums, then dx) hit L1. The variance is deliberately two-pass: the
// one-pass E[x²] − E[x]² (even shifted by the row's first value) was measured to double the
// finite-difference error of the [gradcheck] suite through its extra rounding.
//
// Forward saves mean and rstd per row (not the normalised x̂) so backward can rebuild x̂ from x:
// one float per row instead of a whole activation. Parameter gradients accumulate across rows
// into dgamma/dbeta, which the caller zeroes once per step. Rows split across the thread pool;
// the parameter gradients, sums over rows, are then taken by columns, keeping their order.
#include <cmath>

#include "core/thread_pool.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp::kernels {

using namespace simd;

namespace {

// Σ (x − m)² over a row.
float sum_squared_deviation(const float* x, float m, int n) {
  const f32x4 mv = splat(m);
  f32x4 s0 = zero(), s1 = zero();
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    const f32x4 d0 = sub(load(x + i), mv), d1 = sub(load(x + i + 4), mv);
    s0 = simd::add(s0, mul(d0, d0));
    s1 = simd::add(s1, mul(d1, d1));
  }
  for (; i + 4 <= n; i += 4) {
    const f32x4 d = sub(load(x + i), mv);
    s0 = simd::add(s0, mul(d, d));
  }
  if (i < n) {
    // Padding lanes hold m, so their deviation is exactly 0.
    float lanes[4] = {m, m, m, m};
    for (int j = 0; i + j < n; ++j) lanes[j] = x[i + j];
    const f32x4 d = sub(load(lanes), mv);
    s1 = simd::add(s1, mul(d, d));
  }
  return hsum(simd::add(s0, s1));
}

// Operations per element of each pass, for the thread pool's split decision.
constexpr double kForwardFlops = 8.0, kBackwardFlops = 16.0;

// dgamma[c] (+ dbeta[c]) += Σ_r dy ⊙ x̂ (and dy) over every row, for columns [c0, c1): the
// same operations in the same row order as the fused pass, so the sums keep their bits when the
// rows of dx are split across threads and these columns are summed apart (xhat(r, c, v) gives
// x̂ of row r as a vector at c, or as a float for the tail when v is false).
template <typename XHat>
void add_parameter_grads(const float* dy, float* dgamma, float* dbeta, int rows, int cols, int c0, int c1, XHat xhat) {
  for (int r = 0; r < rows; ++r) {
    const float* dyr = dy + static_cast<long>(r) * cols;
    int c = c0;
    for (; c + 4 <= c1; c += 4) {
      const f32x4 g = load(dyr + c);
      store(dgamma + c, simd::add(load(dgamma + c), mul(g, xhat.vector(r, c))));
      if (dbeta) store(dbeta + c, simd::add(load(dbeta + c), g));
    }
    for (; c < c1; ++c) {
      dgamma[c] += dyr[c] * xhat.scalar(r, c);
      if (dbeta) dbeta[c] += dyr[c];
    }
  }
}

// x̂ of LayerNorm and RMSNorm rebuilt from x and the saved row statistics.
struct LayerXHat {
  const float *x, *mean, *rstd;
  int cols;
  f32x4 vector(int r, int c) const {
    return mul(sub(load(x + static_cast<long>(r) * cols + c), splat(mean[r])), splat(rstd[r]));
  }
  float scalar(int r, int c) const { return (x[static_cast<long>(r) * cols + c] - mean[r]) * rstd[r]; }
};
struct RmsXHat {
  const float *x, *rstd;
  int cols;
  f32x4 vector(int r, int c) const { return mul(load(x + static_cast<long>(r) * cols + c), splat(rstd[r])); }
  float scalar(int r, int c) const { return x[static_cast<long>(r) * cols + c] * rstd[r]; }
};

// LayerNorm backward over rows [r0, r1): dx, and (kParams) the parameter gradients fused in.
template <bool kParams>
void layernorm_backward_rows(const float* x, const float* gamma, const float* mean, const float* rstd, const float* dy,
                             float* dx, float* dgamma, float* dbeta, int r0, int r1, int cols, bool accumulate_dx) {
  for (int r = r0; r < r1; ++r) {
    const long offset = static_cast<long>(r) * cols;
    const float* xr = x + offset;
    const float* dyr = dy + offset;
    float* dxr = dx + offset;
    const f32x4 mv = splat(mean[r]), sv = splat(rstd[r]);
    // Pass 1: the two row means of the backward formula, and the parameter gradients.
    f32x4 acc_dnorm = zero(), acc_dnorm_xhat = zero();
    int c = 0;
    for (; c + 4 <= cols; c += 4) {
      const f32x4 xhat = mul(sub(load(xr + c), mv), sv);
      const f32x4 g = load(dyr + c);
      const f32x4 dnorm = mul(g, load(gamma + c));
      acc_dnorm = simd::add(acc_dnorm, dnorm);
      acc_dnorm_xhat = simd::add(acc_dnorm_xhat, mul(dnorm, xhat));
      if (kParams) {
        store(dgamma + c, simd::add(load(dgamma + c), mul(g, xhat)));
        store(dbeta + c, simd::add(load(dbeta + c), g));
      }
    }
    float dnorm_sum = hsum(acc_dnorm), dnorm_xhat_sum = hsum(acc_dnorm_xhat);
    for (int t = c; t < cols; ++t) {
      const float xhat = (xr[t] - mean[r]) * rstd[r];
      const float dnorm = dyr[t] * gamma[t];
      dnorm_sum += dnorm;
      dnorm_xhat_sum += dnorm * xhat;
      if (kParams) {
        dgamma[t] += dyr[t] * xhat;
        dbeta[t] += dyr[t];
      }
    }
    const float dnorm_mean = dnorm_sum / cols, dnorm_xhat_mean = dnorm_xhat_sum / cols;
    // Pass 2: dx = (dnorm − mean(dnorm) − x̂ · mean(dnorm · x̂)) · rstd.
    const f32x4 m1 = splat(dnorm_mean), m2 = splat(dnorm_xhat_mean);
    for (c = 0; c + 4 <= cols; c += 4) {
      const f32x4 xhat = mul(sub(load(xr + c), mv), sv);
      const f32x4 dnorm = mul(load(dyr + c), load(gamma + c));
      f32x4 g = mul(sub(sub(dnorm, m1), mul(xhat, m2)), sv);
      if (accumulate_dx) g = simd::add(g, load(dxr + c));
      store(dxr + c, g);
    }
    for (; c < cols; ++c) {
      const float xhat = (xr[c] - mean[r]) * rstd[r];
      const float g = (dyr[c] * gamma[c] - dnorm_mean - xhat * dnorm_xhat_mean) * rstd[r];
      dxr[c] = accumulate_dx ? dxr[c] + g : g;
    }
  }
}

template <bool kParams>
void rmsnorm_backward_rows(const float* x, const float* gamma, const float* rstd, const float* dy, float* dx,
                           float* dgamma, int r0, int r1, int cols, bool accumulate_dx) {
  for (int r = r0; r < r1; ++r) {
    const long offset = static_cast<long>(r) * cols;
    const float* xr = x + offset;
    const float* dyr = dy + offset;
    float* dxr = dx + offset;
    const f32x4 sv = splat(rstd[r]);
    f32x4 acc = zero();
    int c = 0;
    for (; c + 4 <= cols; c += 4) {
      const f32x4 xhat = mul(load(xr + c), sv);
      const f32x4 g = load(dyr + c);
      acc = simd::add(acc, mul(mul(g, load(gamma + c)), xhat));
      if (kParams) store(dgamma + c, simd::add(load(dgamma + c), mul(g, xhat)));
    }
    float dnorm_xhat_sum = hsum(acc);
    for (int t = c; t < cols; ++t) {
      const float xhat = xr[t] * rstd[r];
      dnorm_xhat_sum += dyr[t] * gamma[t] * xhat;
      if (kParams) dgamma[t] += dyr[t] * xhat;
    }
    const float dnorm_xhat_mean = dnorm_xhat_sum / cols;
    const f32x4 m = splat(dnorm_xhat_mean);
    for (c = 0; c + 4 <= cols; c += 4) {
      const f32x4 xhat = mul(load(xr + c), sv);
      f32x4 g = mul(sub(mul(load(dyr + c), load(gamma + c)), mul(xhat, m)), sv);
      if (accumulate_dx) g = simd::add(g, load(dxr + c));
      store(dxr + c, g);
    }
    for (; c < cols; ++c) {
      const float xhat = xr[c] * rstd[r];
      const float g = (dyr[c] * gamma[c] - xhat * dnorm_xhat_mean) * rstd[r];
      dxr[c] = accumulate_dx ? dxr[c] + g : g;
    }
  }
}

}  // namespace

void layernorm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                       int rows, int cols, float eps) {
  threads::parallel_split(rows, 1, kForwardFlops * rows * cols, [&](int r0, int r1, int) {
    for (int r = r0; r < r1; ++r) {
      const float* xr = x + static_cast<long>(r) * cols;
      float* yr = y + static_cast<long>(r) * cols;
      const float m = sum(xr, cols) / cols;
      const float s = 1.0f / std::sqrt(sum_squared_deviation(xr, m, cols) / cols + eps);
      const f32x4 mv = splat(m), sv = splat(s);
      int c = 0;
      for (; c + 4 <= cols; c += 4) {
        const f32x4 xhat = mul(sub(load(xr + c), mv), sv);
        store(yr + c, simd::add(mul(xhat, load(gamma + c)), load(beta + c)));
      }
      for (; c < cols; ++c) yr[c] = (xr[c] - m) * s * gamma[c] + beta[c];
      mean[r] = m;
      rstd[r] = s;
    }
  });
}

// One thread: one fused pass. Several: dx by rows, then dgamma and dbeta by columns (each
// column summed over the rows in order, as the fused pass does).
void layernorm_backward(const float* x, const float* gamma, const float* mean, const float* rstd, const float* dy,
                        float* dx, float* dgamma, float* dbeta, int rows, int cols, bool accumulate_dx) {
  const int parts = threads::parts_for(kBackwardFlops * rows * cols);
  if (parts == 1) {
    layernorm_backward_rows<true>(x, gamma, mean, rstd, dy, dx, dgamma, dbeta, 0, rows, cols, accumulate_dx);
    return;
  }
  threads::parallel_ranges(rows, 1, parts, [&](int r0, int r1, int) {
    layernorm_backward_rows<false>(x, gamma, mean, rstd, dy, dx, nullptr, nullptr, r0, r1, cols, accumulate_dx);
  });
  threads::parallel_ranges(cols, 4, parts, [&](int c0, int c1, int) {
    add_parameter_grads(dy, dgamma, dbeta, rows, cols, c0, c1, LayerXHat{x, mean, rstd, cols});
  });
}

void rmsnorm_forward(const float* x, const float* gamma, float* y, float* rstd, int rows, int cols, float eps) {
  threads::parallel_split(rows, 1, kForwardFlops * rows * cols, [&](int r0, int r1, int) {
    for (int r = r0; r < r1; ++r) {
      const float* xr = x + static_cast<long>(r) * cols;
      float* yr = y + static_cast<long>(r) * cols;
      const float s = 1.0f / std::sqrt(dot(xr, xr, cols) / cols + eps);
      const f32x4 sv = splat(s);
      int c = 0;
      for (; c + 4 <= cols; c += 4) store(yr + c, mul(mul(load(xr + c), sv), load(gamma + c)));
      for (; c < cols; ++c) yr[c] = xr[c] * s * gamma[c];
      rstd[r] = s;
    }
  });
}

void rmsnorm_backward(const float* x, const float* gamma, const float* rstd, const float* dy, float* dx, float* dgamma,
                      int rows, int cols, bool accumulate_dx) {
  const int parts = threads::parts_for(kBackwardFlops * rows * cols);
  if (parts == 1) {
    rmsnorm_backward_rows<true>(x, gamma, rstd, dy, dx, dgamma, 0, rows, cols, accumulate_dx);
    return;
  }
  threads::parallel_ranges(rows, 1, parts, [&](int r0, int r1, int) {
    rmsnorm_backward_rows<false>(x, gamma, rstd, dy, dx, nullptr, r0, r1, cols, accumulate_dx);
  });
  threads::parallel_ranges(cols, 4, parts, [&](int c0, int c1, int) {
    add_parameter_grads(dy, dgamma, nullptr, rows, cols, c0, c1, RmsXHat{x, rstd, cols});
  });
}

}  // namespace tp::kernels
