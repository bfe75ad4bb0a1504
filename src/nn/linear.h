// Linear layer, y = x Wᵀ + b with W stored [out, in] as in PyTorch, forward and backward.
//
// The three matmul forms map onto it directly: forward is A·Bᵀ (nt), the input gradient A·B (nn)
// and the weight gradient Aᵀ·B (tn) — no transposed copy of anything.
#pragma once

#include "core/params.h"
#include "kernels/kernels.h"

namespace tp::nn {

// Products of fewer rows than this — generation steps — take the matrix-vector kernel, which
// streams each weight row once (kernels::matvec); larger ones the blocked matmul.
constexpr int kMatvecRows = 4;

struct Linear {
  int in = 0, out = 0;
  int weight = -1;  // parameter index of W [out, in]
  int bias = -1;    // parameter index of b [out], or -1

  // Registers "<name>.weight" (and "<name>.bias" when with_bias).
  static Linear create(ParameterSet& params, const std::string& name, int in, int out, bool with_bias);

  // y[n, out] = x[n, in] · Wᵀ + b
  void forward(const ParameterSet& params, const float* x, float* y, int n) const;
  // This layer as one output of kernels::matvec_fused (y [rows, out]), to run beside others
  // that read the same input in one pass.
  kernels::MatvecOut matvec_out(const ParameterSet& params, float* y) const;
  // dx[n, in] (+)= dy · W (skipped when dx is null); dW += dyᵀ · x; db += Σ_rows dy unless
  // bias_grad is false (a fused kernel that wrote dy has added it already).
  void backward(ParameterSet& params, const float* x, const float* dy, float* dx, int n, bool accumulate_dx,
                bool bias_grad = true) const;

  // The products of forward() and backward(), for callers that run several layers' products as
  // one kernels::matmul_group (a layer's q, k and v) — the same products, so the same bits.
  kernels::MatmulArgs forward_product(const ParameterSet& params, const float* x, float* y, int n) const;
  kernels::MatmulArgs dx_product(const ParameterSet& params, const float* dy, float* dx, int n,
                                 bool accumulate_dx) const;
  kernels::MatmulArgs dw_product(ParameterSet& params, const float* x, const float* dy, int n) const;
  // db += Σ_rows dy (when there is a bias).
  void bias_backward(ParameterSet& params, const float* dy, int n) const;
};

}  // namespace tp::nn
