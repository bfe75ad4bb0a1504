// Row softmax with fused scale, additive mask and causal limit, and its backward.
//
// Forward makes three passes over the visible part of a row held in y: z = scale·x + mask
// (tracking the max), exp(z − max) (tracking the sum), and a multiply by 1/sum; columns past a
// causal row's end are set to 0 without reading x or the mask there. -inf mask entries become
// exact zeros because simd::exp returns 0 below its range; a row with no finite entry becomes
// all zeros. Backward likewise touches only the visible columns of dy. Rows are independent, so
// large calls split them across the thread pool.
#include <algorithm>
#include <limits>

#include "core/thread_pool.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp::kernels {

using namespace simd;

namespace {

// Columns row r reads: all of them, or visible + r for causal rows.
inline int seen_columns(int r, int cols, int visible) { return visible >= 0 ? std::min(cols, visible + r) : cols; }

inline void zero_fill(float* p, int n) {
  int c = 0;
  for (; c + 4 <= n; c += 4) store(p + c, zero());
  for (; c < n; ++c) p[c] = 0.0f;
}

// One row: y[0:n] = softmax(scale·x + mask) over the n visible columns.
void softmax_row(const float* xr, const float* mr, float* yr, int n, float scale) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  const f32x4 sv = splat(scale);
  f32x4 mx = splat(neg_inf);
  int c = 0;
  for (; c + 4 <= n; c += 4) {
    f32x4 z = mul(sv, load(xr + c));
    if (mr) z = add(z, load(mr + c));
    store(yr + c, z);
    mx = max(mx, z);
  }
  float row_max = hmax(mx);
  for (; c < n; ++c) {
    const float z = scale * xr[c] + (mr ? mr[c] : 0.0f);
    yr[c] = z;
    row_max = z > row_max ? z : row_max;
  }
  if (row_max == neg_inf) {
    zero_fill(yr, n);
    return;
  }
  const f32x4 mv = splat(row_max);
  f32x4 total = zero();
  c = 0;
  for (; c + 4 <= n; c += 4) {
    const f32x4 e = exp(sub(load(yr + c), mv));
    store(yr + c, e);
    total = add(total, e);
  }
  if (c < n) {
    const int rest = n - c;
    // Padding lanes hold -inf so they contribute exp(-inf) = 0 to the sum.
    float lanes[4] = {neg_inf, neg_inf, neg_inf, neg_inf};
    for (int i = 0; i < rest; ++i) lanes[i] = yr[c + i];
    const f32x4 e = exp(sub(load(lanes), mv));
    store_partial(yr + c, e, rest);
    total = add(total, e);
  }
  const f32x4 inv = splat(1.0f / hsum(total));
  c = 0;
  for (; c + 4 <= n; c += 4) store(yr + c, mul(load(yr + c), inv));
  if (c < n) store_partial(yr + c, mul(load_partial(yr + c, n - c), inv), n - c);
}

// dx rows [r0, r1) of softmax_backward.
void backward_rows(const float* y, const float* dy, float* dx, int r0, int r1, int cols, float scale, bool accumulate,
                   int visible) {
  const f32x4 sv = splat(scale);
  for (int r = r0; r < r1; ++r) {
    const long offset = static_cast<long>(r) * cols;
    const float* yr = y + offset;
    const float* dyr = dy + offset;
    float* dxr = dx + offset;
    const int n = seen_columns(r, cols, visible);
    const f32x4 inner = splat(dot(dyr, yr, n));
    int c = 0;
    for (; c + 4 <= n; c += 4) {
      f32x4 g = mul(sv, mul(load(yr + c), sub(load(dyr + c), inner)));
      if (accumulate) g = add(g, load(dxr + c));
      store(dxr + c, g);
    }
    if (c < n) {
      const int rest = n - c;
      f32x4 g = mul(sv, mul(load_partial(yr + c, rest), sub(load_partial(dyr + c, rest), inner)));
      if (accumulate) g = add(g, load_partial(dxr + c, rest));
      store_partial(dxr + c, g, rest);
    }
    if (!accumulate) zero_fill(dxr + n, cols - n);
  }
}

// Operations per element, for the thread pool's split decision (exp is a dozen).
constexpr double kForwardFlops = 24.0, kBackwardFlops = 6.0;

}  // namespace

void softmax_forward(const float* x, float* y, int rows, int cols, float scale, const float* mask, int mask_stride,
                     int visible) {
  threads::parallel_split(rows, 1, kForwardFlops * rows * cols, [&](int r0, int r1, int) {
    for (int r = r0; r < r1; ++r) {
      const long offset = static_cast<long>(r) * cols;
      const int n = seen_columns(r, cols, visible);
      softmax_row(x + offset, mask ? mask + static_cast<long>(r) * mask_stride : nullptr, y + offset, n, scale);
      zero_fill(y + offset + n, cols - n);
    }
  });
}

void softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols, float scale, bool accumulate,
                      int visible) {
  threads::parallel_split(rows, 1, kBackwardFlops * rows * cols, [&](int r0, int r1, int) {
    backward_rows(y, dy, dx, r0, r1, cols, scale, accumulate, visible);
  });
}

}  // namespace tp::kernels
