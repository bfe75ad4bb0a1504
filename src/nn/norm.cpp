// Norm layer over kernels::layernorm_* / rmsnorm_*.
#include "nn/norm.h"

#include <algorithm>

#include "core/profiler.h"
#include "kernels/kernels.h"

namespace tp::nn {

Norm Norm::create(ParameterSet& params, const std::string& name, NormKind kind, int d, float eps) {
  Norm n;
  n.kind = kind;
  n.d = d;
  n.eps = eps;
  n.weight = params.add(name + ".weight", {d}, false);
  if (kind == NormKind::Layer) n.bias = params.add(name + ".bias", {d}, false);
  return n;
}

void Norm::init(ParameterSet& params) const {
  std::fill(params.value(weight), params.value(weight) + d, 1.0f);
  if (bias >= 0) std::fill(params.value(bias), params.value(bias) + d, 0.0f);
}

void Norm::forward(const ParameterSet& params, const float* x, float* y, float* mean, float* rstd, int n) const {
  ProfileScope scope(ProfileKind::Norm, false);
  if (kind == NormKind::Layer) {
    kernels::layernorm_forward(x, params.value(weight), params.value(bias), y, mean, rstd, n, d, eps);
  } else {
    kernels::rmsnorm_forward(x, params.value(weight), y, rstd, n, d, eps);
  }
}

void Norm::backward(ParameterSet& params, const float* x, const float* mean, const float* rstd, const float* dy,
                    float* dx, int n, bool accumulate_dx) const {
  ProfileScope scope(ProfileKind::Norm, true);
  if (kind == NormKind::Layer) {
    kernels::layernorm_backward(x, params.value(weight), mean, rstd, dy, dx, params.grad(weight), params.grad(bias), n,
                                d, accumulate_dx);
  } else {
    kernels::rmsnorm_backward(x, params.value(weight), rstd, dy, dx, params.grad(weight), n, d, accumulate_dx);
  }
}

}  // namespace tp::nn
