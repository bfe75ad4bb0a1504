// LayerNorm and RMSNorm over the last dimension, forward and backward side by side.
//
// Each row is read from memory once: the later passes over it (variance about the mean, then
// y; in backward the row sums, then dx) hit L1. The variance is deliberately two-pass: the
// one-pass E[x²] − E[x]² (even shifted by the row's first value) was measured to double the
// finite-difference error of the [gradcheck] suite through its extra rounding.
//
// Forward saves mean and rstd per row (not the normalised x̂) so backward can rebuild x̂ from x:
// one float per row instead of a whole activation. Parameter gradients accumulate across rows
// into dgamma/dbeta, which the caller zeroes once per step.
#include <cmath>

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

}  // namespace

void layernorm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                       float* rstd, int rows, int cols, float eps) {
  for (int r = 0; r < rows; ++r) {
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
}

void layernorm_backward(const float* x, const float* gamma, const float* mean, const float* rstd,
                        const float* dy, float* dx, float* dgamma, float* dbeta, int rows, int cols,
                        bool accumulate_dx) {
  for (int r = 0; r < rows; ++r) {
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
      store(dgamma + c, simd::add(load(dgamma + c), mul(g, xhat)));
      store(dbeta + c, simd::add(load(dbeta + c), g));
    }
    float dnorm_sum = hsum(acc_dnorm), dnorm_xhat_sum = hsum(acc_dnorm_xhat);
    for (int t = c; t < cols; ++t) {
      const float xhat = (xr[t] - mean[r]) * rstd[r];
      const float dnorm = dyr[t] * gamma[t];
      dnorm_sum += dnorm;
      dnorm_xhat_sum += dnorm * xhat;
      dgamma[t] += dyr[t] * xhat;
      dbeta[t] += dyr[t];
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

void rmsnorm_forward(const float* x, const float* gamma, float* y, float* rstd, int rows, int cols,
                     float eps) {
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + static_cast<long>(r) * cols;
    float* yr = y + static_cast<long>(r) * cols;
    const float s = 1.0f / std::sqrt(dot(xr, xr, cols) / cols + eps);
    const f32x4 sv = splat(s);
    int c = 0;
    for (; c + 4 <= cols; c += 4) store(yr + c, mul(mul(load(xr + c), sv), load(gamma + c)));
    for (; c < cols; ++c) yr[c] = xr[c] * s * gamma[c];
    rstd[r] = s;
  }
}

void rmsnorm_backward(const float* x, const float* gamma, const float* rstd, const float* dy,
                      float* dx, float* dgamma, int rows, int cols, bool accumulate_dx) {
  for (int r = 0; r < rows; ++r) {
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
      store(dgamma + c, simd::add(load(dgamma + c), mul(g, xhat)));
    }
    float dnorm_xhat_sum = hsum(acc);
    for (int t = c; t < cols; ++t) {
      const float xhat = xr[t] * rstd[r];
      dnorm_xhat_sum += dyr[t] * gamma[t] * xhat;
      dgamma[t] += dyr[t] * xhat;
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

}  // namespace tp::kernels
