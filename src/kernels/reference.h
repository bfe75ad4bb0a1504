// The scalar reference for every kernel in kernels.h: the same signatures, plain loops,
// accumulation in double. Slow on purpose; it is what the fast kernels are tested against and
// what the page's self-check compares with.
#pragma once

#include "kernels/kernels.h"

namespace tp::kernels::ref {

void matmul(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
            float* C, int ldc, bool accumulate = false,
            const float* bias = nullptr);  // always the full product (a valid result for any Band)
void matvec(int rows, int N, int K, const float* x, int ldx, WeightView W, const float* bias, float* y, int ldy);
void exp_shifted(const float* x, float* y, int n, float shift, float scale);
void softmax_forward(const float* x, float* y, int rows, int cols, float scale = 1.0f, const float* mask = nullptr,
                     int mask_stride = 0, int visible = -1);
void softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols, float scale = 1.0f,
                      bool accumulate = false, int visible = -1);
void layernorm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                       int rows, int cols, float eps);
void layernorm_backward(const float* x, const float* gamma, const float* mean, const float* rstd, const float* dy,
                        float* dx, float* dgamma, float* dbeta, int rows, int cols, bool accumulate_dx = false);
void rmsnorm_forward(const float* x, const float* gamma, float* y, float* rstd, int rows, int cols, float eps);
void rmsnorm_backward(const float* x, const float* gamma, const float* rstd, const float* dy, float* dx, float* dgamma,
                      int rows, int cols, bool accumulate_dx = false);
void gelu_forward(const float* x, float* y, int n);
void gelu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate = false);
void gelu_forward_gate(const float* x, float* y, float* gate, int n);
void gelu_backward_gate(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                        float* dbias = nullptr);
void relu_forward(const float* x, float* y, int n);
void relu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate = false);
void silu_forward(const float* x, float* y, int n);
void silu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate = false);
void add(const float* a, const float* b, float* y, int n);
void scale(const float* x, float s, float* y, int n);
void axpy(float a, const float* x, float* y, int n);
float sum(const float* x, int n);
float max(const float* x, int n);
float dot(const float* a, const float* b, int n);

}  // namespace tp::kernels::ref
