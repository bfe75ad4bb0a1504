// Feed-forward forward/backward over Linear and the activation kernels.
#include "nn/feed_forward.h"

#include "core/profiler.h"
#include "kernels/kernels.h"

namespace tp::nn {

FeedForward FeedForward::create(ParameterSet& params, const std::string& name, FfnKind kind, int d, int hidden,
                                bool bias) {
  FeedForward f;
  f.kind = kind;
  f.d = d;
  f.hidden_size = hidden;
  f.up = Linear::create(params, name + ".up", d, hidden, bias);
  if (kind == FfnKind::SwiGlu) f.gate = Linear::create(params, name + ".gate", d, hidden, bias);
  f.down = Linear::create(params, name + ".down", hidden, d, bias);
  return f;
}

void FeedForward::forward(const ParameterSet& params, const float* x, float* y, int n, Arena& arena,
                          FeedForwardSaved& saved) const {
  const int size = n * hidden_size;
  saved.up = arena.alloc(size);
  saved.hidden = arena.alloc(size);
  {
    ProfileScope scope(ProfileKind::FfnMatmul, false);
    if (kind == FfnKind::SwiGlu) {
      saved.gate = arena.alloc(size);
      if (n < kMatvecRows) {  // a generation step: gate and up in one pass (one parallel region)
        const kernels::MatvecOut outs[2] = {gate.matvec_out(params, saved.gate), up.matvec_out(params, saved.up)};
        kernels::matvec_fused(n, d, x, d, outs, 2);
      } else {
        up.forward(params, x, saved.up, n);
        gate.forward(params, x, saved.gate, n);
      }
    } else {
      up.forward(params, x, saved.up, n);
    }
  }
  {
    ProfileScope scope(ProfileKind::FfnActivation, false);
    switch (kind) {
      case FfnKind::Relu:
        kernels::relu_forward(saved.up, saved.hidden, size);
        break;
      case FfnKind::Gelu:
        saved.gelu_gate = arena.alloc(size);
        kernels::gelu_forward_gate(saved.up, saved.hidden, saved.gelu_gate, size);
        break;
      case FfnKind::SwiGlu:
        kernels::silu_forward(saved.gate, saved.hidden, size);
        kernels::multiply(saved.hidden, saved.up, saved.hidden, size);
        break;
    }
  }
  ProfileScope scope(ProfileKind::FfnMatmul, false);
  down.forward(params, saved.hidden, y, n);
}

void FeedForward::backward(ParameterSet& params, const float* x, const FeedForwardSaved& saved, const float* dy,
                           float* dx, int n, bool accumulate_dx, Arena& arena) const {
  const int size = n * hidden_size;
  float* d_hidden = arena.alloc(size);
  {
    ProfileScope scope(ProfileKind::FfnMatmul, true);
    down.backward(params, saved.hidden, dy, d_hidden, n, false);
  }
  float* d_up = arena.alloc(size);
  float* d_gate = nullptr;
  bool up_bias_done = false;
  {
    ProfileScope scope(ProfileKind::FfnActivation, true);
    switch (kind) {
      case FfnKind::Relu:
        kernels::relu_backward(saved.up, d_hidden, d_up, size);
        break;
      case FfnKind::Gelu:  // with up's bias gradient fused in
        kernels::gelu_backward_gate(saved.up, saved.gelu_gate, d_hidden, d_up, n, hidden_size,
                                    up.bias >= 0 ? params.grad(up.bias) : nullptr);
        up_bias_done = true;
        break;
      case FfnKind::SwiGlu: {
        // hidden = silu(g) ⊙ u:  du = dh ⊙ silu(g),  dg = silu'(g) ⊙ dh ⊙ u
        float* silu_g = arena.alloc(size);
        kernels::silu_forward(saved.gate, silu_g, size);
        float* dh_times_u = arena.alloc(size);
        kernels::multiply(d_hidden, silu_g, d_up, size);
        kernels::multiply(d_hidden, saved.up, dh_times_u, size);
        d_gate = silu_g;  // reuse: silu(g) is no longer needed
        kernels::silu_backward(saved.gate, dh_times_u, d_gate, size);
        break;
      }
    }
  }
  ProfileScope scope(ProfileKind::FfnMatmul, true);
  if (d_gate) {
    gate.backward(params, x, d_gate, dx, n, accumulate_dx);
    accumulate_dx = true;
  }
  up.backward(params, x, d_up, dx, n, accumulate_dx, !up_bias_done);
}

}  // namespace tp::nn
