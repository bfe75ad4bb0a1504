// Elementwise kernels and reductions. Reductions keep four vector accumulators so the adds can
// overlap, and combine them in a fixed order so every build sums identically.
#include <limits>

#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp::kernels {

using namespace simd;

void add(const float* a, const float* b, float* y, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) store(y + i, simd::add(load(a + i), load(b + i)));
  for (; i < n; ++i) y[i] = a[i] + b[i];
}

void scale(const float* x, float s, float* y, int n) {
  const f32x4 sv = splat(s);
  int i = 0;
  for (; i + 4 <= n; i += 4) store(y + i, mul(sv, load(x + i)));
  for (; i < n; ++i) y[i] = s * x[i];
}

void axpy(float a, const float* x, float* y, int n) {
  const f32x4 av = splat(a);
  int i = 0;
  for (; i + 4 <= n; i += 4) store(y + i, simd::add(load(y + i), mul(av, load(x + i))));
  for (; i < n; ++i) y[i] = y[i] + a * x[i];
}

float sum(const float* x, int n) {
  f32x4 s0 = zero(), s1 = zero(), s2 = zero(), s3 = zero();
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    s0 = simd::add(s0, load(x + i));
    s1 = simd::add(s1, load(x + i + 4));
    s2 = simd::add(s2, load(x + i + 8));
    s3 = simd::add(s3, load(x + i + 12));
  }
  for (; i + 4 <= n; i += 4) s0 = simd::add(s0, load(x + i));
  if (i < n) s1 = simd::add(s1, load_partial(x + i, n - i));
  return hsum(simd::add(simd::add(s0, s1), simd::add(s2, s3)));
}

float dot(const float* a, const float* b, int n) {
  f32x4 s0 = zero(), s1 = zero(), s2 = zero(), s3 = zero();
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    s0 = simd::add(s0, mul(load(a + i), load(b + i)));
    s1 = simd::add(s1, mul(load(a + i + 4), load(b + i + 4)));
    s2 = simd::add(s2, mul(load(a + i + 8), load(b + i + 8)));
    s3 = simd::add(s3, mul(load(a + i + 12), load(b + i + 12)));
  }
  for (; i + 4 <= n; i += 4) s0 = simd::add(s0, mul(load(a + i), load(b + i)));
  if (i < n) s1 = simd::add(s1, mul(load_partial(a + i, n - i), load_partial(b + i, n - i)));
  return hsum(simd::add(simd::add(s0, s1), simd::add(s2, s3)));
}

float max(const float* x, int n) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  f32x4 m = splat(neg_inf);
  int i = 0;
  for (; i + 4 <= n; i += 4) m = simd::max(m, load(x + i));
  float result = hmax(m);
  for (; i < n; ++i) result = x[i] > result ? x[i] : result;
  return result;
}

}  // namespace tp::kernels
