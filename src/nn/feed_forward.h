// The position-wise feed-forward block: down(act(up(x))) for ReLU/GELU, down(silu(gate(x)) ⊙
// up(x)) for SwiGLU. Forward and backward side by side.
#pragma once

#include <string>

#include "core/arena.h"
#include "core/enum_names.h"
#include "nn/linear.h"

namespace tp {
enum class FfnKind { Gelu, Relu, SwiGlu };
inline constexpr EnumName<FfnKind> kFfnKindNames[] = {
    {FfnKind::Relu, "relu"}, {FfnKind::Gelu, "gelu"}, {FfnKind::SwiGlu, "swiglu"}};
}  // namespace tp

namespace tp::nn {

// What forward keeps for backward (pointers into the activation arena).
struct FeedForwardSaved {
  float* up = nullptr;         // [n, F] pre-activation (or the "up" half of SwiGLU)
  float* gate = nullptr;       // [n, F] SwiGLU gate pre-activation
  float* hidden = nullptr;     // [n, F] input of `down`
  float* gelu_gate = nullptr;  // [n, F] GELU: σ(z(up)), kept so backward needs no exp
};

struct FeedForward {
  FfnKind kind = FfnKind::Gelu;
  int d = 0, hidden_size = 0;
  Linear up, gate, down;

  // Registers "<name>.up" [hidden, d], "<name>.gate" (SwiGLU) and "<name>.down" [d, hidden].
  static FeedForward create(ParameterSet& params, const std::string& name, FfnKind kind, int d, int hidden, bool bias);

  // y[n, d] = ffn(x[n, d]); buffers for `saved` come from the arena.
  void forward(const ParameterSet& params, const float* x, float* y, int n, Arena& arena,
               FeedForwardSaved& saved) const;
  // dx (+)= ∂L/∂x given dy; scratch comes from the arena.
  void backward(ParameterSet& params, const float* x, const FeedForwardSaved& saved, const float* dy, float* dx, int n,
                bool accumulate_dx, Arena& arena) const;
};

}  // namespace tp::nn
