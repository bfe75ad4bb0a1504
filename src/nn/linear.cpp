// Linear forward/backward through kernels::matmul (and kernels::matvec for generation steps).
#include "nn/linear.h"

namespace tp::nn {

using kernels::Trans;

Linear Linear::create(ParameterSet& params, const std::string& name, int in, int out, bool with_bias) {
  Linear l;
  l.in = in;
  l.out = out;
  l.weight = params.add(name + ".weight", {out, in}, true);
  if (with_bias) l.bias = params.add(name + ".bias", {out}, false);
  return l;
}

void Linear::forward(const ParameterSet& params, const float* x, float* y, int n) const {
  if (n < kMatvecRows) {
    const kernels::MatvecOut o = matvec_out(params, y);
    kernels::matvec_fused(n, in, x, in, &o, 1);
    return;
  }
  kernels::matmul(Trans::N, Trans::T, n, out, in, x, in, params.value(weight), in, y, out, false,
                  bias >= 0 ? params.value(bias) : nullptr);
}

kernels::MatvecOut Linear::matvec_out(const ParameterSet& params, float* y) const {
  return {params.weights(weight), out, bias >= 0 ? params.value(bias) : nullptr, y, out};
}

void Linear::backward(ParameterSet& params, const float* x, const float* dy, float* dx, int n, bool accumulate_dx,
                      bool bias_grad) const {
  if (dx) kernels::matmul(Trans::N, Trans::N, n, in, out, dy, out, params.value(weight), in, dx, in, accumulate_dx);
  kernels::matmul(Trans::T, Trans::N, out, in, n, dy, out, x, in, params.grad(weight), in, true);
  if (bias >= 0 && bias_grad) kernels::add_column_sums(dy, params.grad(bias), n, out);
}

}  // namespace tp::nn
