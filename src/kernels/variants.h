// The per-instruction-set implementations behind kernel_table() (kernels/dispatch.h): for the
// dispatcher and the tests that compare variants, not for callers of kernels.h.
#pragma once

#include "kernels/kernels.h"

namespace tp::kernels::variants {

// The 128-bit matmul's micro-tile (matmul.cpp's Kernel4x8).
constexpr int kSimd128Mr = 4, kSimd128Nr = 8;

// The 4x8 128-bit matmul, SSE (or wasm SIMD128) encoding, and its micro-kernel's peak.
void matmul_sse(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                float* C, int ldc, bool accumulate, const float* bias, Band band);
double matmul_peak_sse(double seconds);

// The same source compiled for AVX's VEX encoding (x86 natively; false/unused elsewhere).
bool has_vex();
void matmul_vex(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                float* C, int ldc, bool accumulate, const float* bias, Band band);
double matmul_peak_vex(double seconds);

}  // namespace tp::kernels::variants
