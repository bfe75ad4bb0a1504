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

kernels::MatmulArgs Linear::forward_product(const ParameterSet& params, const float* x, float* y, int n) const {
  return {Trans::N,
          Trans::T,
          n,
          out,
          in,
          x,
          in,
          params.value(weight),
          in,
          y,
          out,
          false,
          bias >= 0 ? params.value(bias) : nullptr};
}

kernels::MatmulArgs Linear::dx_product(const ParameterSet& params, const float* dy, float* dx, int n,
                                       bool accumulate_dx) const {
  return {Trans::N, Trans::N, n, in, out, dy, out, params.value(weight), in, dx, in, accumulate_dx};
}

kernels::MatmulArgs Linear::dw_product(ParameterSet& params, const float* x, const float* dy, int n) const {
  return {Trans::T, Trans::N, out, in, n, dy, out, x, in, params.grad(weight), in, true};
}

void Linear::bias_backward(ParameterSet& params, const float* dy, int n) const {
  if (bias >= 0) kernels::add_column_sums(dy, params.grad(bias), n, out);
}

void Linear::forward(const ParameterSet& params, const float* x, float* y, int n) const {
  if (n < kMatvecRows) {
    const kernels::MatvecOut o = matvec_out(params, y);
    kernels::matvec_fused(n, in, x, in, &o, 1);
    return;
  }
  const kernels::MatmulArgs p = forward_product(params, x, y, n);
  kernels::matmul_group(&p, 1);
}

kernels::MatvecOut Linear::matvec_out(const ParameterSet& params, float* y) const {
  return {params.weights(weight), out, bias >= 0 ? params.value(bias) : nullptr, y, out};
}

// dX and dW in one region: two independent products.
void Linear::backward(ParameterSet& params, const float* x, const float* dy, float* dx, int n, bool accumulate_dx,
                      bool bias_grad) const {
  kernels::MatmulArgs products[2];
  int count = 0;
  if (dx) products[count++] = dx_product(params, dy, dx, n, accumulate_dx);
  products[count++] = dw_product(params, x, dy, n);
  kernels::matmul_group(products, count);
  if (bias_grad) bias_backward(params, dy, n);
}

}  // namespace tp::nn
