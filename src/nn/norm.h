// LayerNorm / RMSNorm as a layer: owns its parameter indices, calls the norm kernels.
#pragma once

#include <string>

#include "core/enum_names.h"
#include "core/params.h"

namespace tp {
enum class NormKind { Layer, Rms };
inline constexpr EnumName<NormKind> kNormKindNames[] = {{NormKind::Layer, "layer"}, {NormKind::Rms, "rms"}};
}  // namespace tp

namespace tp::nn {

struct Norm {
  NormKind kind = NormKind::Layer;
  int d = 0;
  float eps = 1e-5f;
  int weight = -1, bias = -1;  // bias only for LayerNorm

  // Registers "<name>.weight" [d] (and "<name>.bias" for LayerNorm).
  static Norm create(ParameterSet& params, const std::string& name, NormKind kind, int d, float eps);
  void init(ParameterSet& params) const;  // weight 1, bias 0

  // y[n, d] = norm(x); mean[n] (LayerNorm only) and rstd[n] are saved for backward.
  void forward(const ParameterSet& params, const float* x, float* y, float* mean, float* rstd, int n) const;
  // dx (+)= ∂L/∂x; parameter gradients accumulate.
  void backward(ParameterSet& params, const float* x, const float* mean, const float* rstd, const float* dy, float* dx,
                int n, bool accumulate_dx) const;
};

}  // namespace tp::nn
