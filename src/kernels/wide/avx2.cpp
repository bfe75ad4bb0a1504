// The AVX2 kernels (TP_WIDE builds; compiled with -mavx2 -mfma) through SIMDe's 256-bit
// vocabulary: the matmul, a 6x16 micro-tile of FMAs inside the same packed loops as the 128-bit
// path, and GELU with its gate (gelu_wide.h) eight lanes at a time.
//
// Register budget: 12 accumulators (6 rows x two 8-float vectors) + 2 B vectors + 1 broadcast =
// 15 of AVX2's 16. Per k: 12 FMAs against 8 loads.
#include <simde/x86/avx2.h>
#include <simde/x86/fma.h>

#include <cstring>

#include "core/thread_pool.h"
#include "kernels/gemm_driver.h"
#include "kernels/wide/gelu_wide.h"
#include "kernels/wide/tile_wide.h"
#include "kernels/wide/wide.h"

namespace tp::kernels::wide {

namespace {

using v8 = simde__m256;

struct FusedMulAdd {
  static inline simd::f32x4 apply(simd::f32x4 acc, simd::f32x4 a, simd::f32x4 b) {
    return simde_mm_fmadd_ps(a, b, acc);
  }
};

// The 256-bit vocabulary of gelu_wide.h and tile_wide.h.
struct Lanes8 {
  using vec = v8;
  static constexpr int kWidth = 8;
  static vec fmadd(vec a, vec b, vec acc) { return simde_mm256_fmadd_ps(a, b, acc); }
  static vec load(const float* p) { return simde_mm256_loadu_ps(p); }
  static void store(float* p, vec v) { simde_mm256_storeu_ps(p, v); }
  static vec splat(float f) { return simde_mm256_set1_ps(f); }
  static vec zero() { return simde_mm256_setzero_ps(); }
  static vec add(vec a, vec b) { return simde_mm256_add_ps(a, b); }
  static vec sub(vec a, vec b) { return simde_mm256_sub_ps(a, b); }
  static vec mul(vec a, vec b) { return simde_mm256_mul_ps(a, b); }
  static vec div(vec a, vec b) { return simde_mm256_div_ps(a, b); }
  static vec min(vec a, vec b) { return simde_mm256_min_ps(a, b); }
  static vec max(vec a, vec b) { return simde_mm256_max_ps(a, b); }
  static vec greater_equal(vec a, vec b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }  // all-ones lanes
  static vec keep(vec v, vec mask) { return simde_mm256_and_ps(v, mask); }
  static vec pow2(vec shifted, vec magic) {
    const simde__m256i n = simde_mm256_sub_epi32(simde_mm256_castps_si256(shifted), simde_mm256_castps_si256(magic));
    return simde_mm256_castsi256_ps(simde_mm256_slli_epi32(simde_mm256_add_epi32(n, simde_mm256_set1_epi32(127)), 23));
  }
};

// Depth 256 (a B sliver of 16 KB stays in L1), A panels of 48 rows (48 KB) and B panels of 1024
// columns (1 MB) in L2.
using Kernel6x16 = WideTile<Lanes8, kAvx2Mr, 256, 48, 1024>;
static_assert(Kernel6x16::kNr == kAvx2Nr, "wide.h's tile shape is this kernel's");

// Packing buffers per thread (a product split across the pool packs its own panels), made when
// the thread starts (core/thread_pool.h).
thread_local AlignedBuffer a_panel(gemm::a_panel_floats<Kernel6x16>());
thread_local AlignedBuffer b_panel(gemm::b_panel_floats<Kernel6x16>());
const bool panels_at_start = (threads::at_thread_start([] {
                                a_panel.data();
                                b_panel.data();
                              }),
                              true);

}  // namespace

void gelu_forward_gate_avx2(const float* x, float* y, float* gate, int n) { WideGelu<Lanes8>::forward(x, y, gate, n); }

void gelu_backward_gate_avx2(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                             float* dbias) {
  WideGelu<Lanes8>::backward(x, gate, dy, dx, rows, cols, dbias);
}

double kernel_peak_gflops_avx2(double seconds) {
  return gemm::tile_peak_gflops<Kernel6x16, std::chrono::steady_clock>(seconds);
}

void matmul_avx2(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                 float* C, int ldc, bool accumulate, const float* bias, Band band) {
  if (gemm::trivial(M, N, K, C, ldc, accumulate, bias)) return;
  if (M < 4) {
    gemm::small_m<Kernel6x16::kKc, FusedMulAdd>(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias);
    return;
  }
  gemm::blocked<Kernel6x16>(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band, a_panel.data(),
                            b_panel.data());
}

}  // namespace tp::kernels::wide
