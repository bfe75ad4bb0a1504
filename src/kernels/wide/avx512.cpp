// The AVX-512 kernels (TP_WIDE builds; compiled with -mavx512f -mavx2 -mfma) through SIMDe's
// 512-bit vocabulary: the matmul, a 12x32 micro-tile of FMAs inside the same packed loops as
// the 128-bit path, and GELU with its gate (gelu_wide.h) sixteen lanes at a time.
//
// Register budget: 24 accumulators (12 rows x two 16-float vectors) + 2 B vectors + 1 broadcast
// = 27 of AVX-512's 32. Per k the tile does 24 FMAs against 14 loads, so two FMA ports (16
// floats each) are the bound, not the loads.
#include <simde/x86/avx512.h>

#include <cstring>

#include "core/thread_pool.h"
#include "kernels/gemm_driver.h"
#include "kernels/wide/gelu_wide.h"
#include "kernels/wide/tile_wide.h"
#include "kernels/wide/wide.h"

namespace tp::kernels::wide {

namespace {

using v16 = simde__m512;

struct FusedMulAdd {
  static inline simd::f32x4 apply(simd::f32x4 acc, simd::f32x4 a, simd::f32x4 b) {
    return simde_mm_fmadd_ps(a, b, acc);
  }
};

// The 512-bit vocabulary of gelu_wide.h and tile_wide.h.
struct Lanes16 {
  using vec = v16;
  static constexpr int kWidth = 16;
  static vec fmadd(vec a, vec b, vec acc) { return simde_mm512_fmadd_ps(a, b, acc); }
  static vec load(const float* p) { return simde_mm512_loadu_ps(p); }
  static void store(float* p, vec v) { simde_mm512_storeu_ps(p, v); }
  static vec splat(float f) { return simde_mm512_set1_ps(f); }
  static vec zero() { return simde_mm512_setzero_ps(); }
  static vec add(vec a, vec b) { return simde_mm512_add_ps(a, b); }
  static vec sub(vec a, vec b) { return simde_mm512_sub_ps(a, b); }
  static vec mul(vec a, vec b) { return simde_mm512_mul_ps(a, b); }
  static vec div(vec a, vec b) { return simde_mm512_div_ps(a, b); }
  static vec min(vec a, vec b) { return simde_mm512_min_ps(a, b); }
  static vec max(vec a, vec b) { return simde_mm512_max_ps(a, b); }
  static simde__mmask16 greater_equal(vec a, vec b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GE_OQ); }
  static vec keep(vec v, simde__mmask16 mask) { return simde_mm512_maskz_mov_ps(mask, v); }  // 0 elsewhere
  static vec pow2(vec shifted, vec magic) {  // 2^n from the integer in `shifted`'s low mantissa bits
    const simde__m512i n = simde_mm512_sub_epi32(simde_mm512_castps_si512(shifted), simde_mm512_castps_si512(magic));
    return simde_mm512_castsi512_ps(simde_mm512_slli_epi32(simde_mm512_add_epi32(n, simde_mm512_set1_epi32(127)), 23));
  }
};

// Depth 256 (a B sliver of 256·32·4 = 32 KB in L1, an A sliver of 12 KB), A panels of 48 rows
// (48 KB) and B panels of 1024 columns (1 MB) in L2.
using Kernel12x32 = WideTile<Lanes16, kAvx512Mr, 256, 48, 1024>;
static_assert(Kernel12x32::kNr == kAvx512Nr, "wide.h's tile shape is this kernel's");

// Packing buffers per thread (a product split across the pool packs its own panels), made when
// the thread starts (core/thread_pool.h).
thread_local AlignedBuffer a_panel(gemm::a_panel_floats<Kernel12x32>());
thread_local AlignedBuffer b_panel(gemm::b_panel_floats<Kernel12x32>());
const bool panels_at_start = (threads::at_thread_start([] {
                                a_panel.data();
                                b_panel.data();
                              }),
                              true);

}  // namespace

void gelu_forward_gate_avx512(const float* x, float* y, float* gate, int n) {
  WideGelu<Lanes16>::forward(x, y, gate, n);
}

void gelu_backward_gate_avx512(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                               float* dbias) {
  WideGelu<Lanes16>::backward(x, gate, dy, dx, rows, cols, dbias);
}

double kernel_peak_gflops_avx512(double seconds) {
  return gemm::tile_peak_gflops<Kernel12x32, std::chrono::steady_clock>(seconds);
}

void matmul_avx512(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                   float* C, int ldc, bool accumulate, const float* bias, Band band) {
  if (gemm::trivial(M, N, K, C, ldc, accumulate, bias)) return;
  if (M < 4) {
    gemm::small_m<Kernel12x32::kKc, FusedMulAdd>(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias);
    return;
  }
  gemm::blocked<Kernel12x32>(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band, a_panel.data(),
                             b_panel.data());
}

}  // namespace tp::kernels::wide
