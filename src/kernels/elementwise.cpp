// Elementwise kernels and reductions. Reductions keep four vector accumulators so the adds can
// overlap, and combine them in a fixed order so every build sums identically. The elementwise
// ones split large arrays across the thread pool (elements are independent); the reductions
// over one array never split (their order is their result).
#include <limits>

#include "core/thread_pool.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp::kernels {

using namespace simd;

namespace {

// Memory-bound: an array is worth splitting only when it is large (the cost is the bandwidth,
// counted here as a few operations per element).
constexpr double kElementFlops = 2.0;

template <typename Fn>
inline void split(int n, Fn fn) {
  threads::parallel_split(n, 16, kElementFlops * n, [&](int begin, int end, int) { fn(begin, end); });
}

}  // namespace

void add(const float* a, const float* b, float* y, int n) {
  split(n, [&](int i0, int i1) {
    int i = i0;
    for (; i + 4 <= i1; i += 4) store(y + i, simd::add(load(a + i), load(b + i)));
    for (; i < i1; ++i) y[i] = a[i] + b[i];
  });
}

void multiply(const float* a, const float* b, float* y, int n) {
  split(n, [&](int i0, int i1) {
    int i = i0;
    for (; i + 4 <= i1; i += 4) store(y + i, mul(load(a + i), load(b + i)));
    for (; i < i1; ++i) y[i] = a[i] * b[i];
  });
}

void scale(const float* x, float s, float* y, int n) {
  const f32x4 sv = splat(s);
  split(n, [&](int i0, int i1) {
    int i = i0;
    for (; i + 4 <= i1; i += 4) store(y + i, mul(sv, load(x + i)));
    for (; i < i1; ++i) y[i] = s * x[i];
  });
}

void axpy(float a, const float* x, float* y, int n) {
  const f32x4 av = splat(a);
  split(n, [&](int i0, int i1) {
    int i = i0;
    for (; i + 4 <= i1; i += 4) store(y + i, simd::add(load(y + i), mul(av, load(x + i))));
    for (; i < i1; ++i) y[i] = y[i] + a * x[i];
  });
}

void exp_shifted(const float* x, float* y, int n, float shift, float scale) {
  const f32x4 sv = splat(shift), kv = splat(scale);
  split(n, [&](int i0, int i1) {
    int i = i0;
    for (; i + 4 <= i1; i += 4) store(y + i, simd::exp(mul(sub(load(x + i), sv), kv)));
    if (i < i1) store_partial(y + i, simd::exp(mul(sub(load_partial(x + i, i1 - i), sv), kv)), i1 - i);
  });
}

void add_column_sums(const float* x, float* sums, int rows, int cols) {
  threads::parallel_split(cols, 16, kElementFlops * rows * cols, [&](int c0, int c1, int) {
    for (int r = 0; r < rows; ++r) {
      const float* row = x + static_cast<long>(r) * cols;
      int c = c0;
      for (; c + 4 <= c1; c += 4) store(sums + c, simd::add(load(sums + c), load(row + c)));
      for (; c < c1; ++c) sums[c] += row[c];
    }
  });
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
