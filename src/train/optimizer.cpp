// AdamW update (vectorised with the same 128-bit helpers as the kernels) and clipping.
// Both are elementwise over the slabs, so they run across the thread pool in chunks; the global
// norm sums one dot product per tensor, each whole, in tensor order, as one thread does.
#include "train/optimizer.h"

#include <cmath>
#include <vector>

#include "core/det_math.h"
#include "core/profiler.h"
#include "core/thread_pool.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp {

using namespace kernels::simd;

namespace {

// A piece of one tensor's slab range: [begin, end) in floats, a multiple of 4 long (slab tensors
// are padded to 16 floats, so whole vectors never touch a neighbour).
struct Chunk {
  std::size_t begin, end;
  int tensor;
};

constexpr std::size_t kChunkFloats = 8192;

// Every tensor's padded range, cut into chunks (built again per call: reusing the vector's
// storage, so a training step allocates nothing).
const std::vector<Chunk>& chunks_of(const ParameterSet& params) {
  static thread_local std::vector<Chunk> chunks;
  chunks.clear();
  for (int t = 0; t < params.count(); ++t) {
    const ParamInfo& info = params.info(t);
    const std::size_t end = info.offset + (info.size + 3) / 4 * 4;
    for (std::size_t b = info.offset; b < end; b += kChunkFloats)
      chunks.push_back({b, std::min(end, b + kChunkFloats), t});
  }
  return chunks;
}

// fn(chunk) for every chunk of the slabs, across the pool when the slab is large enough.
template <typename Fn>
void for_each_chunk(const ParameterSet& params, double flops_per_float, Fn fn) {
  const std::vector<Chunk>& chunks = chunks_of(params);
  const int parts = threads::parts_for(flops_per_float * static_cast<double>(params.slab_size()));
  if (parts == 1) {
    for (const Chunk& c : chunks) fn(c);
    return;
  }
  threads::parallel_for(static_cast<int>(chunks.size()), [&](int i, int) { fn(chunks[i]); });
}

}  // namespace

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
  const f32x4 decay_on = splat(1.0f - lr * o.weight_decay), decay_off = splat(1.0f);
  for_each_chunk(params, 12.0, [&](const Chunk& chunk) {
    const f32x4 decay = params.info(chunk.tensor).decay ? decay_on : decay_off;
    for (std::size_t i = chunk.begin; i < chunk.end; i += 4) {
      const f32x4 g = load(grads + i);
      const f32x4 mi = add(mul(b1, load(m + i)), mul(one_minus_b1, g));
      const f32x4 vi = add(mul(b2, load(v + i)), mul(one_minus_b2, mul(g, g)));
      store(m + i, mi);
      store(v + i, vi);
      // p ← p·(1 − lr·wd) − lr/bc1 · m / (√v/√bc2 + eps)
      const f32x4 denom = add(mul(sqrt(vi), inv_bc2), eps);
      store(values + i, add(mul(load(values + i), decay), mul(neg_step, div(mi, denom))));
    }
  });
}

float global_grad_norm(ParameterSet& params) {
  // One dot product per tensor (in parallel when the slab is large), summed in tensor order.
  static thread_local std::vector<double> storage;
  std::vector<double>& dots = storage;  // by reference: inside a task the name would mean the worker's own
  dots.assign(static_cast<std::size_t>(params.count()), 0.0);
  const float* grads = params.grads_slab();
  const auto dot_of = [&](int t, int) {
    const ParamInfo& info = params.info(t);
    dots[t] = kernels::dot(grads + info.offset, grads + info.offset, static_cast<int>(info.size));
  };
  if (threads::parts_for(2.0 * static_cast<double>(params.slab_size())) > 1) {
    threads::parallel_for(params.count(), dot_of);
  } else {
    for (int t = 0; t < params.count(); ++t) dot_of(t, 0);
  }
  double total = 0.0;
  for (double d : dots) total += d;
  return static_cast<float>(std::sqrt(total));
}

float clip_grad_norm(ParameterSet& params, float max_norm) {
  ProfileScope scope(ProfileKind::Optimizer, false);
  const float norm = global_grad_norm(params);
  if (max_norm > 0.0f && norm > max_norm) {
    const float s = max_norm / (norm + 1e-6f);
    float* grads = params.grads_slab();
    // Each tensor's unpadded floats, as kernels::scale over the tensor would do them.
    for_each_chunk(params, 1.0, [&](const Chunk& chunk) {
      const ParamInfo& info = params.info(chunk.tensor);
      const std::size_t end = std::min(chunk.end, info.offset + info.size);
      if (end > chunk.begin)
        kernels::scale(grads + chunk.begin, s, grads + chunk.begin, static_cast<int>(end - chunk.begin));
    });
  }
  return norm;
}

}  // namespace tp
