// Activation kernels: GELU (tanh form), ReLU and SiLU, forward and backward side by side.
// Tails run through the vector code on a padded lane buffer so every element sees the same
// arithmetic. Elements are independent, so large calls split across the thread pool in chunks
// of whole vectors; GELU's fused bias gradient, a sum over rows, is then taken by columns.
#include "core/thread_pool.h"
#include "kernels/dispatch.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp::kernels {

using namespace simd;

namespace {

// Runs fn(vector) -> vector over n elements of x into y.
template <typename Fn>
inline void map1(const float* x, float* y, int n, Fn fn) {
  int i = 0;
  for (; i + 4 <= n; i += 4) store(y + i, fn(load(x + i)));
  if (i < n) store_partial(y + i, fn(load_partial(x + i, n - i)), n - i);
}

// dx (+)= fn(x, dy) over n elements.
template <typename Fn>
inline void map2(const float* x, const float* dy, float* dx, int n, bool accumulate, Fn fn) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    f32x4 g = fn(load(x + i), load(dy + i));
    if (accumulate) g = simd::add(g, load(dx + i));
    store(dx + i, g);
  }
  if (i < n) {
    const int rest = n - i;
    f32x4 g = fn(load_partial(x + i, rest), load_partial(dy + i, rest));
    if (accumulate) g = simd::add(g, load_partial(dx + i, rest));
    store_partial(dx + i, g, rest);
  }
}

const float kGeluC = 1.5957691216057308f;  // sqrt(8 / pi)
const float kGeluA = 0.044715f;

// Operations per element (a sigmoid is an exp and a division), for the split decision; chunks
// are whole groups of four vectors (gelu_forward_gate_simd128's step).
constexpr double kSigmoidFlops = 30.0, kCheapFlops = 2.0;
constexpr int kChunk = 16;

// fn(begin, end) over [0, n), split across the thread pool when the work pays for it.
template <typename Fn>
inline void split(int n, double flops_per_element, Fn fn) {
  threads::parallel_split(n, kChunk, flops_per_element * n, [&](int begin, int end, int) { fn(begin, end); });
}

}  // namespace

void gelu_forward(const float* x, float* y, int n) {
  const f32x4 c = splat(kGeluC), a = splat(kGeluA);
  split(n, kSigmoidFlops, [&](int i0, int i1) {
    map1(x + i0, y + i0, i1 - i0, [&](f32x4 v) {
      const f32x4 z = mul(c, simd::add(v, mul(a, mul(v, mul(v, v)))));
      return mul(v, sigmoid(z));
    });
  });
}

void gelu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate) {
  const f32x4 c = splat(kGeluC), a3 = splat(3.0f * kGeluA), a = splat(kGeluA), one = splat(1.0f);
  split(n, kSigmoidFlops, [&](int i0, int i1) {
    map2(x + i0, dy + i0, dx + i0, i1 - i0, accumulate, [&](f32x4 v, f32x4 g) {
      const f32x4 v2 = mul(v, v);
      const f32x4 s = sigmoid(mul(c, simd::add(v, mul(a, mul(v, v2)))));
      const f32x4 dz = mul(c, simd::add(one, mul(a3, v2)));
      // d/dx [x σ(z)] = σ + x σ (1 − σ) z'
      return mul(g, simd::add(s, mul(mul(v, mul(s, sub(one, s))), dz)));
    });
  });
}

void gelu_forward_gate(const float* x, float* y, float* gate, int n) {
  const auto fn = kernel_table().gelu_forward_gate;
  split(n, kSigmoidFlops, [&](int i0, int i1) { fn(x + i0, y + i0, gate + i0, i1 - i0); });
}

void gelu_forward_gate_simd128(const float* x, float* y, float* gate, int n) {
  const f32x4 c = splat(kGeluC), a = splat(kGeluA);
  int i = 0;
  for (; i + 16 <= n; i += 16) {  // four independent vectors per iteration: more in flight
    const f32x4 v0 = load(x + i), v1 = load(x + i + 4), v2 = load(x + i + 8), v3 = load(x + i + 12);
    const f32x4 g0 = sigmoid(mul(c, simd::add(v0, mul(a, mul(v0, mul(v0, v0))))));
    const f32x4 g1 = sigmoid(mul(c, simd::add(v1, mul(a, mul(v1, mul(v1, v1))))));
    const f32x4 g2 = sigmoid(mul(c, simd::add(v2, mul(a, mul(v2, mul(v2, v2))))));
    const f32x4 g3 = sigmoid(mul(c, simd::add(v3, mul(a, mul(v3, mul(v3, v3))))));
    store(gate + i, g0);
    store(y + i, mul(v0, g0));
    store(gate + i + 4, g1);
    store(y + i + 4, mul(v1, g1));
    store(gate + i + 8, g2);
    store(y + i + 8, mul(v2, g2));
    store(gate + i + 12, g3);
    store(y + i + 12, mul(v3, g3));
  }
  for (; i + 4 <= n; i += 4) {
    const f32x4 v = load(x + i);
    const f32x4 g = sigmoid(mul(c, simd::add(v, mul(a, mul(v, mul(v, v))))));
    store(gate + i, g);
    store(y + i, mul(v, g));
  }
  if (i < n) {
    const f32x4 v = load_partial(x + i, n - i);
    const f32x4 g = sigmoid(mul(c, simd::add(v, mul(a, mul(v, mul(v, v))))));
    store_partial(gate + i, g, n - i);
    store_partial(y + i, mul(v, g), n - i);
  }
}

// One thread: dx and dbias in one fused pass. Several: dx by rows, then dbias by columns.
void gelu_backward_gate(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                        float* dbias) {
  const auto fn = kernel_table().gelu_backward_gate;
  const int parts = threads::parts_for(12.0 * rows * cols);
  if (parts == 1) {
    fn(x, gate, dy, dx, rows, cols, dbias);
    return;
  }
  threads::parallel_ranges(rows, 1, parts, [&](int r0, int r1, int) {
    const long off = static_cast<long>(r0) * cols;
    fn(x + off, gate + off, dy + off, dx + off, r1 - r0, cols, nullptr);
  });
  if (dbias) add_column_sums(dx, dbias, rows, cols);
}

void gelu_backward_gate_simd128(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                                float* dbias) {
  const f32x4 c = splat(kGeluC), a3 = splat(3.0f * kGeluA), one = splat(1.0f);
  // The same expression as gelu_backward with the saved σ in place of the recomputed one.
  const auto grad = [&](f32x4 v, f32x4 s, f32x4 g) {
    const f32x4 dz = mul(c, simd::add(one, mul(a3, mul(v, v))));
    return mul(g, simd::add(s, mul(mul(v, mul(s, sub(one, s))), dz)));
  };
  for (int r = 0; r < rows; ++r) {
    const long off = static_cast<long>(r) * cols;
    const float *xr = x + off, *sr = gate + off, *gr = dy + off;
    float* dr = dx + off;
    int i = 0;
    for (; i + 4 <= cols; i += 4) {
      const f32x4 d = grad(load(xr + i), load(sr + i), load(gr + i));
      store(dr + i, d);
      if (dbias) store(dbias + i, simd::add(load(dbias + i), d));  // row by row, as add_column_sums
    }
    if (i < cols) {
      const int rest = cols - i;
      const f32x4 d = grad(load_partial(xr + i, rest), load_partial(sr + i, rest), load_partial(gr + i, rest));
      store_partial(dr + i, d, rest);
      if (dbias) store_partial(dbias + i, simd::add(load_partial(dbias + i, rest), d), rest);
    }
  }
}

void relu_forward(const float* x, float* y, int n) {
  split(n, kCheapFlops,
        [&](int i0, int i1) { map1(x + i0, y + i0, i1 - i0, [](f32x4 v) { return simd::max(v, zero()); }); });
}

void relu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate) {
  split(n, kCheapFlops, [&](int i0, int i1) {
    map2(x + i0, dy + i0, dx + i0, i1 - i0, accumulate,
         [](f32x4 v, f32x4 g) { return bit_and(g, greater(v, zero())); });
  });
}

void silu_forward(const float* x, float* y, int n) {
  split(n, kSigmoidFlops,
        [&](int i0, int i1) { map1(x + i0, y + i0, i1 - i0, [](f32x4 v) { return mul(v, sigmoid(v)); }); });
}

void silu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate) {
  const f32x4 one = splat(1.0f);
  split(n, kSigmoidFlops, [&](int i0, int i1) {
    map2(x + i0, dy + i0, dx + i0, i1 - i0, accumulate, [&](f32x4 v, f32x4 g) {
      const f32x4 s = sigmoid(v);
      return mul(g, mul(s, simd::add(one, mul(v, sub(one, s)))));
    });
  });
}

}  // namespace tp::kernels
