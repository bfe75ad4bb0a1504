// One residual sublayer — a function f (self-attention, cross-attention or the feed-forward
// block) wrapped in a residual connection and a norm — forward and backward, written once for
// every stack, every placement and every pass (training, inference, generation steps):
//   pre-norm:  out = in + drop(f(norm(in)))
//   post-norm: out = norm(in + drop(f(in)))
// Internal to src/model.
#pragma once

#include <cstring>
#include <string>

#include "core/arena.h"
#include "core/params.h"
#include "core/profiler.h"
#include "core/rng.h"
#include "core/trace.h"
#include "kernels/kernels.h"
#include "model/transformer.h"
#include "nn/dropout.h"
#include "nn/norm.h"

namespace tp {

struct SublayerContext {
  bool pre = true;
  int N = 0, D = 0;
  float dropout = 0.0f;
  bool train = false;
  const nn::Norm* norm = nullptr;
  ParameterSet* params = nullptr;
  Arena* arena = nullptr;
  Rng* rng = nullptr;
};

// f(f_in, f_out): f_out [N, D] from f_in [N, D].
template <typename F>
inline void sublayer_forward(const SublayerContext& c, const float* in, SublayerActs& a, Trace* trace,
                             const std::string& norm_name, const std::string& add_name, F f) {
  const std::size_t size = static_cast<std::size_t>(c.N) * c.D;
  Arena& arena = *c.arena;
  a.in = in;
  a.mean = arena.alloc(c.N);
  a.rstd = arena.alloc(c.N);
  a.f_out = arena.alloc(size);
  a.out = arena.alloc(size);
  const bool drop = c.train && c.dropout > 0.0f;
  a.drop_mask = drop ? arena.alloc(size) : nullptr;
  if (c.pre) {
    a.normed = arena.alloc(size);
    c.norm->forward(*c.params, in, a.normed, a.mean, a.rstd, c.N);
    if (trace) trace->record(norm_name, {c.N, c.D}, a.normed);  // before f's own entries
    f(a.normed, a.f_out);
    ProfileScope scope(ProfileKind::Residual, false);
    if (drop) nn::dropout_forward(a.f_out, a.drop_mask, static_cast<int>(size), c.dropout, *c.rng);
    kernels::add(in, a.f_out, a.out, static_cast<int>(size));
    if (trace) trace->record(add_name, {c.N, c.D}, a.out);
  } else {
    f(in, a.f_out);
    a.sum = arena.alloc(size);
    {
      ProfileScope scope(ProfileKind::Residual, false);
      if (drop) nn::dropout_forward(a.f_out, a.drop_mask, static_cast<int>(size), c.dropout, *c.rng);
      kernels::add(in, a.f_out, a.sum, static_cast<int>(size));
    }
    c.norm->forward(*c.params, a.sum, a.out, a.mean, a.rstd, c.N);
    if (trace) {
      trace->record(add_name, {c.N, c.D}, a.sum);
      trace->record(norm_name, {c.N, c.D}, a.out);
    }
  }
}

// Returns d_in [N, D] given d_out. fb(f_in, d_f_out, d_f_in, accumulate) is f's backward.
// Pre-norm accumulates d_in into d_out's own buffer (the caller is done with it), and without
// dropout hands d_out to f's backward as it is: the residual path costs no copy.
template <typename FB>
inline float* sublayer_backward(const SublayerContext& c, const SublayerActs& a, float* d_out, FB fb) {
  const int size = c.N * c.D;
  Arena& arena = *c.arena;
  if (c.pre) {
    const float* d_f = d_out;
    if (a.drop_mask) {
      ProfileScope scope(ProfileKind::Residual, true);
      float* masked = arena.alloc(size);
      std::memcpy(masked, d_out, sizeof(float) * size);
      nn::dropout_backward(masked, a.drop_mask, size, c.dropout);
      d_f = masked;
    }
    float* d_normed = arena.alloc(size);
    fb(a.normed, d_f, d_normed, false);
    c.norm->backward(*c.params, a.in, a.mean, a.rstd, d_normed, d_out, c.N, true);  // d_in = d_out + ...
    return d_out;
  }
  float* d_in = arena.alloc(size);
  float* d_f = arena.alloc(size);
  c.norm->backward(*c.params, a.sum, a.mean, a.rstd, d_out, d_in, c.N, false);  // d_in = d_sum
  {
    ProfileScope scope(ProfileKind::Residual, true);
    std::memcpy(d_f, d_in, sizeof(float) * size);
    if (a.drop_mask) nn::dropout_backward(d_f, a.drop_mask, size, c.dropout);
  }
  fb(a.in, d_f, d_in, true);
  return d_in;
}

}  // namespace tp
