// Every numeric kernel the transformer runs, with the shapes it expects.
//
// Two implementations stand behind each declaration here:
//   tp::kernels      — the fast one: SIMDe 128-bit vectors, the same source for the native build
//                      (SSE) and the wasm build (SIMD128), so native tests test what browsers run;
//   tp::kernels::ref — the truth (reference.h): plain loops accumulating in double.
// All matrices are row-major; `ld*` is the distance in floats between consecutive rows as stored.
// Kernels never allocate in steady state, never throw, and write every output element (tests
// poison outputs with NaN to prove it). "accumulate" means the output is added to, not replaced.
#pragma once

#include "core/dtype.h"

namespace tp::kernels {

enum class Trans : unsigned char { N, T };

// The causal structure of a product, so attention skips the half it does not need (d = offset):
//   Full      every C[i][j] = Σ_k op(A)[i][k]·op(B)[k][j]   (the default)
//   Lower     only C[i][j] with j <= i + d are needed (Q·Kᵀ, dO·Vᵀ): micro-tiles wholly above that
//             line are written as if the product were zero; the rest is computed in full, so C
//             above the line holds zeros or true products (callers must not read it).
//   KUpTo     op(A)[i][k] = 0 for k > i + d (P·V, dS·K): those terms are not computed.
//   KFrom     op(A)[i][k] = 0 for k < i + d (Pᵀ·dO, dSᵀ·Q): those terms are not computed.
// KUpTo and KFrom drop only exact-zero terms, so their results are those of Full.
struct Band {
  enum class Kind : unsigned char { Full, Lower, KUpTo, KFrom };
  Kind kind = Kind::Full;
  int offset = 0;
};

// C[M,N] = op(A)[M,K] · op(B)[K,N]  (+ C when accumulate)  (+ bias[N] broadcast over rows).
//   op(A) = A with A stored [M,K] (lda >= K) for Trans::N, or Aᵀ with A stored [K,M] (lda >= M).
//   op(B) = B with B stored [K,N] (ldb >= N) for Trans::N, or Bᵀ with B stored [N,K] (ldb >= K).
// The three products of a transformer: nn (dX = dY·W), nt (Y = X·Wᵀ, Q·Kᵀ), tn (dW = dYᵀ·X).
// K == 0 gives C = bias (or leaves C + bias when accumulating).
void matmul(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
            float* C, int ldc, bool accumulate = false, const float* bias = nullptr, Band band = {});
// One matmul call's arguments, for matmul_group.
struct MatmulArgs {
  Trans trans_a = Trans::N, trans_b = Trans::N;
  int M = 0, N = 0, K = 0;
  const float* A = nullptr;
  int lda = 0;
  const float* B = nullptr;
  int ldb = 0;
  float* C = nullptr;
  int ldc = 0;
  bool accumulate = false;
  const float* bias = nullptr;
  Band band = {};
};
// calls[0], calls[1], … as if one after the other (the same bits), in one parallel region instead
// of one each: a training step's independent products (a layer's q, k and v; a linear's dX and
// dW) then wake the pool once. Each product is cut into the parts matmul() would cut it into
// alone. A product may not read what another of the group writes; one that writes the C of the
// product before it (dX += dK·Wk after dX = dQ·Wq) runs after it, in the same task where both
// cut alike, else in a region of its own after the rest. Up to kMaxGroup calls share a region.
constexpr int kMaxGroup = 8;
void matmul_group(const MatmulArgs* calls, int count);
// The 128-bit matmul whatever path is selected (the one wasm runs).
void matmul_simd128(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                    float* C, int ldc, bool accumulate = false, const float* bias = nullptr, Band band = {});
// Which matmul runs: "simd128" (the default everywhere, and what wasm runs) or, in a TP_WIDE
// build on a CPU that has them, "avx2" / "avx512" (FMA micro-kernels: same contract, different
// rounding). TP_KERNELS=simd128 in the environment keeps the 128-bit path. The choice is the
// kernel table's (kernels/dispatch.h).
const char* matmul_path();
// Turns the wide path on or off (benchmarks, tests); returns whether it is now on.
bool use_wide_matmul(bool on);
// GFLOP/s of the selected path's micro-kernel alone, on operands that stay in L1 (one tile,
// depth 256, repeated for about `seconds`): the ceiling the blocked matmul is measured against.
double matmul_kernel_peak_gflops(double seconds = 0.2);

// y[r, j] = Σ_k x[r, k] · W[j, k] (+ bias[j]) for r < rows, j < N, W [N, K] (WeightView, its rows
// W.ld apart; 0: K): the matrix-vector products of a generation step (x [rows, K] with ldx, y
// [rows, N] with ldy). Bound by memory bandwidth: each
// weight row is streamed once per input row and widened in registers. Each y element is summed
// in one fixed order (not matmul's), whatever the split; bias may be null.
void matvec(int rows, int N, int K, const float* x, int ldx, WeightView W, const float* bias, float* y, int ldy);
// Several products of the same input in one parallel region (the q/k/v projections, SwiGLU's
// gate and up): outs[p].y [rows, outs[p].N] with ldy = outs[p].ldy. Same results as separate
// matvec() calls.
struct MatvecOut {
  WeightView W;
  int N = 0;
  const float* bias = nullptr;
  float* y = nullptr;
  int ldy = 0;
};
void matvec_fused(int rows, int K, const float* x, int ldx, const MatvecOut* outs, int count);

// y[i] = exp(scale · (x[i] − shift)) for n contiguous floats (y may alias x): unnormalised
// probabilities for sampling. exp(−inf) is exactly 0; the accuracy is simd.h's exp (~2 ulp).
void exp_shifted(const float* x, float* y, int n, float shift, float scale);

// y[r,:] = softmax(scale * x[r,:] + mask[r,:]) for r < rows; x, y: [rows, cols] contiguous.
// mask may be null; row r reads mask + r * mask_stride (mask_stride 0 shares one row).
// -inf in the mask gives exact zeros; a row masked entirely gives all zeros (not NaN).
// visible >= 0 makes the rows causal: row r sees columns [0, visible + r) only (x and mask past
// them are not read) and y is exactly 0 past them — the same as a -inf mask there.
void softmax_forward(const float* x, float* y, int rows, int cols, float scale = 1.0f, const float* mask = nullptr,
                     int mask_stride = 0, int visible = -1);
// dx[r,:] (+)= scale * y[r,:] ⊙ (dy[r,:] − <dy[r,:], y[r,:]>); y is softmax_forward's output.
// visible >= 0: as in forward (dy past the visible columns is not read; dx there is 0 or kept).
void softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols, float scale = 1.0f,
                      bool accumulate = false, int visible = -1);

// LayerNorm over the last dimension. x, y: [rows, cols]; gamma, beta: [cols];
// mean, rstd: [rows] saved for backward (rstd = 1 / sqrt(var + eps), biased variance).
void layernorm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                       int rows, int cols, float eps);
// dx (+)= ∂L/∂x; dgamma += Σ_rows dy ⊙ x̂; dbeta += Σ_rows dy.
void layernorm_backward(const float* x, const float* gamma, const float* mean, const float* rstd, const float* dy,
                        float* dx, float* dgamma, float* dbeta, int rows, int cols, bool accumulate_dx = false);

// RMSNorm: y = x / sqrt(mean(x²) + eps) ⊙ gamma. x, y: [rows, cols]; gamma: [cols]; rstd: [rows].
void rmsnorm_forward(const float* x, const float* gamma, float* y, float* rstd, int rows, int cols, float eps);
void rmsnorm_backward(const float* x, const float* gamma, const float* rstd, const float* dy, float* dx, float* dgamma,
                      int rows, int cols, bool accumulate_dx = false);

// Activations on n contiguous floats; backward takes the forward's input x.
// GELU is the tanh form, gelu(x) = x · σ(√(8/π) (x + 0.044715 x³)), which equals
// 0.5 x (1 + tanh(√(2/π)(x + 0.044715 x³))) exactly (PyTorch's approximate='tanh').
void gelu_forward(const float* x, float* y, int n);
void gelu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate = false);
// GELU keeping its gate for the backward: y = x · g and gate = g = σ(√(8/π)(x + 0.044715 x³)).
void gelu_forward_gate(const float* x, float* y, float* gate, int n);
// The backward from that gate, with no exp: dx = dy · (g + x·g·(1 − g)·z'(x)) for x, gate, dy,
// dx: [rows, cols]; dbias (when not null) += Σ_rows dx — the bias gradient of the linear layer
// that produced x, fused here so dx is not read again. Same values as gelu_backward.
void gelu_backward_gate(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                        float* dbias = nullptr);
// The same two on the 128-bit path whatever is selected (the wide ones use them for row tails).
void gelu_forward_gate_simd128(const float* x, float* y, float* gate, int n);
void gelu_backward_gate_simd128(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                                float* dbias);
void relu_forward(const float* x, float* y, int n);
void relu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate = false);
void silu_forward(const float* x, float* y, int n);  // x · σ(x)
void silu_backward(const float* x, const float* dy, float* dx, int n, bool accumulate = false);

// Elementwise and reductions on n contiguous floats (y may alias a or x).
void add(const float* a, const float* b, float* y, int n);       // y = a + b
void multiply(const float* a, const float* b, float* y, int n);  // y = a ⊙ b
void scale(const float* x, float s, float* y, int n);            // y = s · x
void axpy(float a, const float* x, float* y, int n);             // y += a · x
float sum(const float* x, int n);                                // 0 for n == 0
float max(const float* x, int n);                                // -inf for n == 0
float dot(const float* a, const float* b, int n);
// sums[c] += Σ_r x[r, c] for x [rows, cols], adding the rows in order (a bias gradient). Split
// across threads by columns, so each column's order is that of one thread.
void add_column_sums(const float* x, float* sums, int rows, int cols);

}  // namespace tp::kernels
