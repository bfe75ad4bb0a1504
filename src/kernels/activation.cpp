// Activation kernels: GELU (tanh form), ReLU and SiLU, forward and backward side by side.
// Tails run through the vector code on a padded lane buffer so every element sees the same
// arithmetic.
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

}  // namespace

void gelu_forward(const float* x, float* y, int n) {
  const f32x4 c = splat(kGeluC), a = splat(kGeluA);
  map1(x, y, n, [&](f32x4 v) {
    const f32x4 z = mul(c, simd::add(v, mul(a, mul(v, mul(v, v)))));
    return mul(v, sigmoid(z));
  });
}

void gelu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate) {
  const f32x4 c = splat(kGeluC), a3 = splat(3.0f * kGeluA), a = splat(kGeluA), one = splat(1.0f);
  map2(x, dy, dx, n, accumulate, [&](f32x4 v, f32x4 g) {
    const f32x4 v2 = mul(v, v);
    const f32x4 s = sigmoid(mul(c, simd::add(v, mul(a, mul(v, v2)))));
    const f32x4 dz = mul(c, simd::add(one, mul(a3, v2)));
    // d/dx [x σ(z)] = σ + x σ (1 − σ) z'
    return mul(g, simd::add(s, mul(mul(v, mul(s, sub(one, s))), dz)));
  });
}

void relu_forward(const float* x, float* y, int n) {
  map1(x, y, n, [](f32x4 v) { return simd::max(v, zero()); });
}

void relu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate) {
  map2(x, dy, dx, n, accumulate, [](f32x4 v, f32x4 g) { return bit_and(g, greater(v, zero())); });
}

void silu_forward(const float* x, float* y, int n) {
  map1(x, y, n, [](f32x4 v) { return mul(v, sigmoid(v)); });
}

void silu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate) {
  const f32x4 one = splat(1.0f);
  map2(x, dy, dx, n, accumulate, [&](f32x4 v, f32x4 g) {
    const f32x4 s = sigmoid(v);
    return mul(g, mul(s, simd::add(one, mul(v, sub(one, s)))));
  });
}

}  // namespace tp::kernels
