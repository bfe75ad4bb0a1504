// GELU with a saved gate on W-lane vectors, for the wide native path (included by avx2.cpp and
// avx512.cpp, each compiled for its instruction set).
//
// Every lane runs exactly the operations of the 128-bit kernels (activation.cpp, simd.h's exp):
// the same IEEE mul, add, sub, div, min, max and bit tricks in the same order, never FMA, so the
// wide results are bit-identical to the 128-bit ones — only W/4 times fewer instructions. Row
// tails narrower than a vector go through the 128-bit kernel itself.
//
// V provides: kWidth, vec, load, store, splat, zero, add, sub, mul, div, min, max, exp_tail(x, p)
// (the 2^n scaling and range mask of simd::exp).
#pragma once

#include "kernels/kernels.h"

namespace tp::kernels::wide {

template <class V>
struct WideGelu {
  using vec = typename V::vec;

  // simd::exp, lane for lane.
  static inline vec exp(vec x) {
    const vec lo = V::splat(-87.33654f), hi = V::splat(88.37626f);
    const auto in_range = V::greater_equal(x, lo);
    x = V::min(V::max(x, lo), hi);
    const vec magic = V::splat(12582912.0f);
    const vec shifted = V::add(V::mul(x, V::splat(1.44269504088896341f)), magic);
    const vec n = V::sub(shifted, magic);
    vec r = V::sub(x, V::mul(n, V::splat(0.693359375f)));
    r = V::sub(r, V::mul(n, V::splat(-2.12194440e-4f)));
    vec p = V::splat(1.9875691500e-4f);
    p = V::add(V::mul(p, r), V::splat(1.3981999507e-3f));
    p = V::add(V::mul(p, r), V::splat(8.3334519073e-3f));
    p = V::add(V::mul(p, r), V::splat(4.1665795894e-2f));
    p = V::add(V::mul(p, r), V::splat(1.6666665459e-1f));
    p = V::add(V::mul(p, r), V::splat(5.0000001201e-1f));
    p = V::add(V::add(V::mul(V::mul(p, r), r), r), V::splat(1.0f));
    return V::keep(V::mul(p, V::pow2(shifted, magic)), in_range);
  }

  static inline vec sigmoid(vec z) {
    const vec one = V::splat(1.0f);
    return V::div(one, V::add(one, exp(V::sub(V::zero(), z))));
  }

  static void forward(const float* x, float* y, float* gate, int n) {
    const vec c = V::splat(1.5957691216057308f), a = V::splat(0.044715f);
    int i = 0;
    for (; i + V::kWidth <= n; i += V::kWidth) {
      const vec v = V::load(x + i);
      const vec g = sigmoid(V::mul(c, V::add(v, V::mul(a, V::mul(v, V::mul(v, v))))));
      V::store(gate + i, g);
      V::store(y + i, V::mul(v, g));
    }
    if (i < n) gelu_forward_gate_simd128(x + i, y + i, gate + i, n - i);
  }

  static void backward(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                       float* dbias) {
    const vec c = V::splat(1.5957691216057308f), a3 = V::splat(3.0f * 0.044715f), one = V::splat(1.0f);
    const int body = cols - cols % V::kWidth;
    for (int r = 0; r < rows; ++r) {
      const long off = static_cast<long>(r) * cols;
      for (int i = 0; i < body; i += V::kWidth) {
        const vec v = V::load(x + off + i), s = V::load(gate + off + i), g = V::load(dy + off + i);
        const vec dz = V::mul(c, V::add(one, V::mul(a3, V::mul(v, v))));
        const vec d = V::mul(g, V::add(s, V::mul(V::mul(v, V::mul(s, V::sub(one, s))), dz)));
        V::store(dx + off + i, d);
        if (dbias) V::store(dbias + i, V::add(V::load(dbias + i), d));
      }
      if (body < cols) {
        gelu_backward_gate_simd128(x + off + body, gate + off + body, dy + off + body, dx + off + body, 1, cols - body,
                                   dbias ? dbias + body : nullptr);
      }
    }
  }
};

}  // namespace tp::kernels::wide
