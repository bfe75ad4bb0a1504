// Feed-forward forward/backward over Linear and the activation kernels.
#include "nn/feed_forward.h"

#include "kernels/kernels.h"

namespace tp::nn {

FeedForward FeedForward::create(ParameterSet& params, const std::string& name, const ModelConfig& config) {
  FeedForward f;
  f.kind = config.ffn;
  f.d = config.d_model;
  f.hidden_size = config.d_ff;
  f.up = Linear::create(params, name + ".up", config.d_model, config.d_ff, config.bias);
  if (f.kind == FfnKind::SwiGlu) f.gate = Linear::create(params, name + ".gate", config.d_model, config.d_ff, config.bias);
  f.down = Linear::create(params, name + ".down", config.d_ff, config.d_model, config.bias);
  return f;
}

void FeedForward::forward(const ParameterSet& params, const float* x, float* y, int n, Arena& arena,
                          FeedForwardSaved& saved) const {
  const int size = n * hidden_size;
  saved.up = arena.alloc(size);
  saved.hidden = arena.alloc(size);
  up.forward(params, x, saved.up, n);
  switch (kind) {
    case FfnKind::Relu: kernels::relu_forward(saved.up, saved.hidden, size); break;
    case FfnKind::Gelu: kernels::gelu_forward(saved.up, saved.hidden, size); break;
    case FfnKind::SwiGlu:
      saved.gate = arena.alloc(size);
      gate.forward(params, x, saved.gate, n);
      kernels::silu_forward(saved.gate, saved.hidden, size);
      for (int i = 0; i < size; ++i) saved.hidden[i] *= saved.up[i];
      break;
  }
  down.forward(params, saved.hidden, y, n);
}

void FeedForward::backward(ParameterSet& params, const float* x, const FeedForwardSaved& saved, const float* dy,
                           float* dx, int n, bool accumulate_dx, Arena& arena) const {
  const int size = n * hidden_size;
  float* d_hidden = arena.alloc(size);
  down.backward(params, saved.hidden, dy, d_hidden, n, false);
  float* d_up = arena.alloc(size);
  switch (kind) {
    case FfnKind::Relu: kernels::relu_backward(saved.up, d_hidden, d_up, size); break;
    case FfnKind::Gelu: kernels::gelu_backward(saved.up, d_hidden, d_up, size); break;
    case FfnKind::SwiGlu: {
      // hidden = silu(g) ⊙ u:  du = dh ⊙ silu(g),  dg = silu'(g) ⊙ dh ⊙ u
      float* silu_g = arena.alloc(size);
      kernels::silu_forward(saved.gate, silu_g, size);
      float* dh_times_u = arena.alloc(size);
      for (int i = 0; i < size; ++i) {
        d_up[i] = d_hidden[i] * silu_g[i];
        dh_times_u[i] = d_hidden[i] * saved.up[i];
      }
      float* d_gate = silu_g;  // reuse: silu(g) is no longer needed
      kernels::silu_backward(saved.gate, dh_times_u, d_gate, size);
      gate.backward(params, x, d_gate, dx, n, accumulate_dx);
      accumulate_dx = true;
      break;
    }
  }
  up.backward(params, x, d_up, dx, n, accumulate_dx);
}

}  // namespace tp::nn
