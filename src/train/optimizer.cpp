// AdamW update (vectorised with the same 128-bit helpers as the kernels) and clipping.
#include "train/optimizer.h"

#include <cmath>

#include "core/det_math.h"
#include "core/profiler.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp {

using namespace kernels::simd;

void AdamW::step(ParameterSet& params, float lr) {
  ProfileScope scope(ProfileKind::Optimizer, false);
  ++step_;
  const AdamWOptions& o = options_;
  // Bias corrections folded into the step size and epsilon: identical to dividing m and v.
  const double bc1 = 1.0 - det::pow(o.beta1, step_);
  const double bc2 = 1.0 - det::pow(o.beta2, step_);
  const float step_size = static_cast<float>(lr / bc1);
  const float inv_sqrt_bc2 = static_cast<float>(1.0 / std::sqrt(bc2));
  const f32x4 b1 = splat(o.beta1), one_minus_b1 = splat(1.0f - o.beta1);
  const f32x4 b2 = splat(o.beta2), one_minus_b2 = splat(1.0f - o.beta2);
  const f32x4 eps = splat(o.eps), inv_bc2 = splat(inv_sqrt_bc2), neg_step = splat(-step_size);
  float* values = params.values_slab();
  float* grads = params.grads_slab();
  float* m = params.adam_m_slab();
  float* v = params.adam_v_slab();
  for (const ParamInfo& info : params.infos()) {
    const std::size_t begin = info.offset;
    // Slab tensors are padded to 16 floats, so whole vectors never touch a neighbour.
    const std::size_t end = begin + (info.size + 3) / 4 * 4;
    const f32x4 decay = splat(info.decay ? 1.0f - lr * o.weight_decay : 1.0f);
    for (std::size_t i = begin; i < end; i += 4) {
      const f32x4 g = load(grads + i);
      const f32x4 mi = add(mul(b1, load(m + i)), mul(one_minus_b1, g));
      const f32x4 vi = add(mul(b2, load(v + i)), mul(one_minus_b2, mul(g, g)));
      store(m + i, mi);
      store(v + i, vi);
      // p ← p·(1 − lr·wd) − lr/bc1 · m / (√v/√bc2 + eps)
      const f32x4 denom = add(mul(sqrt(vi), inv_bc2), eps);
      store(values + i, add(mul(load(values + i), decay), mul(neg_step, div(mi, denom))));
    }
  }
}

float global_grad_norm(ParameterSet& params) {
  double total = 0.0;
  for (const ParamInfo& info : params.infos()) {
    const float* g = params.grads_slab() + info.offset;
    total += kernels::dot(g, g, static_cast<int>(info.size));
  }
  return static_cast<float>(std::sqrt(total));
}

float clip_grad_norm(ParameterSet& params, float max_norm) {
  ProfileScope scope(ProfileKind::Optimizer, false);
  const float norm = global_grad_norm(params);
  if (max_norm > 0.0f && norm > max_norm) {
    const float s = max_norm / (norm + 1e-6f);
    for (const ParamInfo& info : params.infos()) {
      float* g = params.grads_slab() + info.offset;
      kernels::scale(g, s, g, static_cast<int>(info.size));
    }
  }
  return norm;
}

}  // namespace tp
