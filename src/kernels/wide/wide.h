// The wide native path (TP_WIDE builds): AVX2 and AVX-512 kernels behind the same kernels::
// entry points, put in the kernel table (kernels/dispatch.h) when the CPU has them.
//   matmul  FMA micro-kernels — not bit-identical to the 128-bit path (FMA rounds once where
//           mul + add round twice): tested against the scalar reference like every kernel;
//   GELU    (with its saved gate, forward and backward) the 128-bit operations lane for lane,
//           so bit-identical to the 128-bit kernels, just wider.
// Not for wasm; off in the test suite, which tests the path both targets share.
#pragma once

#include "kernels/kernels.h"

namespace tp::kernels::wide {

#ifdef TP_WIDE
// The micro-tiles (rows x columns of C) of avx2.cpp's Kernel6x16 and avx512.cpp's Kernel12x32.
constexpr int kAvx2Mr = 6, kAvx2Nr = 16, kAvx512Mr = 12, kAvx512Nr = 32;
// "avx512", "avx2", or nullptr when this CPU has neither (AVX2 + FMA at least).
const char* best_available();
// The kernels per instruction set (each requires its CPU features); kernels/dispatch.cpp puts the
// best in the kernel table.
void matmul_avx2(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                 float* C, int ldc, bool accumulate, const float* bias, Band band = {});
void matmul_avx512(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                   float* C, int ldc, bool accumulate, const float* bias, Band band = {});
double kernel_peak_gflops_avx2(double seconds);
double kernel_peak_gflops_avx512(double seconds);
void gelu_forward_gate_avx2(const float* x, float* y, float* gate, int n);
void gelu_backward_gate_avx2(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                             float* dbias);
void gelu_forward_gate_avx512(const float* x, float* y, float* gate, int n);
void gelu_backward_gate_avx512(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                               float* dbias);
#else
inline const char* best_available() { return nullptr; }
#endif

}  // namespace tp::kernels::wide
