// The wide native path (TP_WIDE builds): AVX2 and AVX-512 kernels behind the same kernels::
// entry points, chosen at run time from the CPU.
//   matmul  FMA micro-kernels — not bit-identical to the 128-bit path (FMA rounds once where
//           mul + add round twice): tested against the scalar reference like every kernel;
//   GELU    (with its saved gate, forward and backward) the 128-bit operations lane for lane,
//           so bit-identical to the 128-bit kernels, just wider.
// Not for wasm; off in the test suite, which tests the path both targets share.
#pragma once

#include "kernels/kernels.h"

namespace tp::kernels::wide {

#ifdef TP_WIDE
// Whether kernels::matmul currently routes here.
bool active();
// "avx512", "avx2", or nullptr when this CPU has neither (AVX2 + FMA at least).
const char* best_available();
// Turns routing on or off; returns whether it is on (never, without a capable CPU).
bool set_active(bool on);
// The product with the best kernel this CPU has (same contract as kernels::matmul).
void matmul(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
            float* C, int ldc, bool accumulate, const float* bias, Band band = {});
// The two kernels, for tests (each requires its CPU features).
void matmul_avx2(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                 float* C, int ldc, bool accumulate, const float* bias, Band band = {});
void matmul_avx512(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B,
                   int ldb, float* C, int ldc, bool accumulate, const float* bias, Band band = {});
// The active wide micro-kernel's GFLOP/s on L1-resident operands (kernels::matmul_kernel_peak_gflops).
double kernel_peak_gflops(double seconds);
double kernel_peak_gflops_avx2(double seconds);
double kernel_peak_gflops_avx512(double seconds);
// GELU with its gate (kernels.h) with the best kernel this CPU has, and per instruction set.
void gelu_forward_gate(const float* x, float* y, float* gate, int n);
void gelu_backward_gate(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                        float* dbias);
void gelu_forward_gate_avx2(const float* x, float* y, float* gate, int n);
void gelu_backward_gate_avx2(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                             float* dbias);
void gelu_forward_gate_avx512(const float* x, float* y, float* gate, int n);
void gelu_backward_gate_avx512(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                               float* dbias);
#else
inline bool active() { return false; }
inline const char* best_available() { return nullptr; }
inline bool set_active(bool) { return false; }
inline void matmul(Trans, Trans, int, int, int, const float*, int, const float*, int, float*, int, bool, const float*,
                   Band = {}) {}
inline void gelu_forward_gate(const float*, float*, float*, int) {}
inline double kernel_peak_gflops(double) { return 0.0; }
inline void gelu_backward_gate(const float*, const float*, const float*, float*, int, int, float*) {}
#endif

}  // namespace tp::kernels::wide
