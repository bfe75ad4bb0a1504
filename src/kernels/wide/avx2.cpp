// The AVX2 kernels (TP_WIDE builds; compiled with -mavx2 -mfma) through SIMDe's 256-bit
// vocabulary: the matmul, a 6x16 micro-tile of FMAs inside the same packed loops as the 128-bit
// path, and GELU with its gate (gelu_wide.h) eight lanes at a time.
//
// Register budget: 12 accumulators (6 rows x two 8-float vectors) + 2 B vectors + 1 broadcast =
// 15 of AVX2's 16. Per k: 12 FMAs against 8 loads.
#include <simde/x86/avx2.h>
#include <simde/x86/fma.h>

#include <cstring>

#include "kernels/gemm_driver.h"
#include "kernels/wide/gelu_wide.h"
#include "kernels/wide/wide.h"

namespace tp::kernels::wide {

namespace {

using v8 = simde__m256;

struct Kernel6x16 {
  static constexpr int kMr = 6;
  static constexpr int kNr = 16;
  static constexpr int kKc = 256;   // B sliver 16 KB (L1)
  static constexpr int kMc = 48;    // A panel 48 KB (L2)
  static constexpr int kNc = 1024;  // B panel 1 MB (L2)

  static inline void tile(int kc, const float* a, const float* b, float* C, int ldc, int mr, int nr, bool load_c,
                          const float* bias) {
    v8 c[kMr][2];
    for (int r = 0; r < kMr; ++r) c[r][0] = c[r][1] = simde_mm256_setzero_ps();
    for (int k = 0; k < kc; ++k) {
      const v8 b0 = simde_mm256_loadu_ps(b), b1 = simde_mm256_loadu_ps(b + 8);
      for (int r = 0; r < kMr; ++r) {
        const v8 a_k = simde_mm256_set1_ps(a[r]);
        c[r][0] = simde_mm256_fmadd_ps(a_k, b0, c[r][0]);
        c[r][1] = simde_mm256_fmadd_ps(a_k, b1, c[r][1]);
      }
      a += kMr;
      b += kNr;
    }
    if (bias) {
      float lanes[kNr] = {};
      std::memcpy(lanes, bias, sizeof(float) * nr);
      const v8 bias0 = simde_mm256_loadu_ps(lanes), bias1 = simde_mm256_loadu_ps(lanes + 8);
      for (int r = 0; r < kMr; ++r) {
        c[r][0] = simde_mm256_add_ps(c[r][0], bias0);
        c[r][1] = simde_mm256_add_ps(c[r][1], bias1);
      }
    }
    for (int r = 0; r < mr; ++r) {
      float* row = C + static_cast<long>(r) * ldc;
      if (nr == kNr) {
        if (load_c) {
          c[r][0] = simde_mm256_add_ps(simde_mm256_loadu_ps(row), c[r][0]);
          c[r][1] = simde_mm256_add_ps(simde_mm256_loadu_ps(row + 8), c[r][1]);
        }
        simde_mm256_storeu_ps(row, c[r][0]);
        simde_mm256_storeu_ps(row + 8, c[r][1]);
        continue;
      }
      float lanes[kNr];
      if (load_c) {  // edge tile: clipped to nr columns
        float old[kNr] = {};
        std::memcpy(old, row, sizeof(float) * nr);
        c[r][0] = simde_mm256_add_ps(simde_mm256_loadu_ps(old), c[r][0]);
        c[r][1] = simde_mm256_add_ps(simde_mm256_loadu_ps(old + 8), c[r][1]);
      }
      simde_mm256_storeu_ps(lanes, c[r][0]);
      simde_mm256_storeu_ps(lanes + 8, c[r][1]);
      std::memcpy(row, lanes, sizeof(float) * nr);
    }
  }
};

struct FusedMulAdd {
  static inline simd::f32x4 apply(simd::f32x4 acc, simd::f32x4 a, simd::f32x4 b) {
    return simde_mm_fmadd_ps(a, b, acc);
  }
};

// The 256-bit vocabulary of gelu_wide.h.
struct Lanes8 {
  using vec = v8;
  static constexpr int kWidth = 8;
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
  static AlignedBuffer a_panel(gemm::a_panel_floats<Kernel6x16>());
  static AlignedBuffer b_panel(gemm::b_panel_floats<Kernel6x16>());
  gemm::blocked<Kernel6x16>(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band, a_panel.data(),
                            b_panel.data());
}

}  // namespace tp::kernels::wide
