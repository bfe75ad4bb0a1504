// Row softmax with fused scale and additive mask, and its backward.
//
// Forward makes three passes over a row held in y: z = scale·x + mask (tracking the max),
// exp(z − max) (tracking the sum), and a multiply by 1/sum. -inf mask entries become exact zeros
// because simd::exp returns 0 below its range; a row with no finite entry becomes all zeros.
#include <limits>

#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp::kernels {

using namespace simd;

void softmax_forward(const float* x, float* y, int rows, int cols, float scale, const float* mask,
                     int mask_stride) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  const f32x4 sv = splat(scale);
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + static_cast<long>(r) * cols;
    const float* mr = mask ? mask + static_cast<long>(r) * mask_stride : nullptr;
    float* yr = y + static_cast<long>(r) * cols;
    f32x4 mx = splat(neg_inf);
    int c = 0;
    for (; c + 4 <= cols; c += 4) {
      f32x4 z = mul(sv, load(xr + c));
      if (mr) z = add(z, load(mr + c));
      store(yr + c, z);
      mx = max(mx, z);
    }
    float row_max = hmax(mx);
    for (; c < cols; ++c) {
      const float z = scale * xr[c] + (mr ? mr[c] : 0.0f);
      yr[c] = z;
      row_max = z > row_max ? z : row_max;
    }
    if (row_max == neg_inf) {
      for (c = 0; c < cols; ++c) yr[c] = 0.0f;
      continue;
    }
    const f32x4 mv = splat(row_max);
    f32x4 total = zero();
    c = 0;
    for (; c + 4 <= cols; c += 4) {
      const f32x4 e = exp(sub(load(yr + c), mv));
      store(yr + c, e);
      total = add(total, e);
    }
    if (c < cols) {
      const int rest = cols - c;
      // Padding lanes hold -inf so they contribute exp(-inf) = 0 to the sum.
      float lanes[4] = {neg_inf, neg_inf, neg_inf, neg_inf};
      for (int i = 0; i < rest; ++i) lanes[i] = yr[c + i];
      const f32x4 e = exp(sub(load(lanes), mv));
      store_partial(yr + c, e, rest);
      total = add(total, e);
    }
    const f32x4 inv = splat(1.0f / hsum(total));
    c = 0;
    for (; c + 4 <= cols; c += 4) store(yr + c, mul(load(yr + c), inv));
    if (c < cols) store_partial(yr + c, mul(load_partial(yr + c, cols - c), inv), cols - c);
  }
}

void softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols, float scale,
                      bool accumulate) {
  for (int r = 0; r < rows; ++r) {
    const long offset = static_cast<long>(r) * cols;
    const float* yr = y + offset;
    const float* dyr = dy + offset;
    float* dxr = dx + offset;
    const f32x4 inner = splat(dot(dyr, yr, cols));
    const f32x4 sv = splat(scale);
    int c = 0;
    for (; c + 4 <= cols; c += 4) {
      f32x4 g = mul(sv, mul(load(yr + c), sub(load(dyr + c), inner)));
      if (accumulate) g = add(g, load(dxr + c));
      store(dxr + c, g);
    }
    if (c < cols) {
      const int rest = cols - c;
      f32x4 g = mul(sv, mul(load_partial(yr + c, rest), sub(load_partial(dyr + c, rest), inner)));
      if (accumulate) g = add(g, load_partial(dxr + c, rest));
      store_partial(dxr + c, g, rest);
    }
  }
}

}  // namespace tp::kernels
