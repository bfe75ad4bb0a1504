// The BLIS-shaped loops around a register-blocked micro-kernel, shared by the 128-bit matmul
// (matmul.cpp) and the wide native ones (wide/avx2.cpp and wide/avx512.cpp, around the tile of
// wide/tile_wide.h).
//
//   for j0 in N by Nc:            op(B)[k0:k0+kc, j0:j0+nc] packed once  (L2/L3)
//     for k0 in K by Kc:
//       for i0 in M by Mc:        op(A)[i0:i0+mc, k0:k0+kc] packed once  (L2)
//         for j in nc by Nr:      one B sliver [kc][Nr]                  (L1)
//           for i in mc by Mr:    micro-kernel: C[i:i+Mr, j:j+Nr] (+)= A sliver · B sliver
//
// The packing is where the transposes happen, so nn, nt and tn run the same inner loop and no
// caller ever materialises a transposed matrix. Panels are zero-padded at the edges, so the
// micro-kernel always computes a full tile and only its store is clipped. Every K block after
// the first accumulates into C, so the summation order over k is fixed by Kc alone: the same on
// every target for a given kernel.
//
// Kernel (a policy type) provides: kMr, kNr, kKc, kMc, kNc, and
//   static void tile(int kc, const float* a, const float* b, float* C, int ldc, int mr, int nr,
//                    bool load_c, const float* bias);
// Everything here is forced inline (TP_GEMM_INLINE), so each caller compiles it for its own
// target — matmul.cpp once for baseline SSE2 and once for AVX (VEX encoding), the wide files for
// AVX2 and AVX-512.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>

#include "core/aligned_buffer.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

#define TP_GEMM_INLINE static inline __attribute__((always_inline))

namespace tp::kernels::gemm {

// 4x4 transpose of rows r0..r3 (4 floats each) into columns c0..c3.
TP_GEMM_INLINE void transpose4(simd::f32x4& r0, simd::f32x4& r1, simd::f32x4& r2, simd::f32x4& r3) {
  const simd::f32x4 t0 = simde_mm_unpacklo_ps(r0, r1), t1 = simde_mm_unpackhi_ps(r0, r1);
  const simd::f32x4 t2 = simde_mm_unpacklo_ps(r2, r3), t3 = simde_mm_unpackhi_ps(r2, r3);
  r0 = simde_mm_movelh_ps(t0, t2);
  r1 = simde_mm_movehl_ps(t2, t0);
  r2 = simde_mm_movelh_ps(t1, t3);
  r3 = simde_mm_movehl_ps(t3, t1);
}

// Packs `width` strided vectors into a k-major sliver: for c < count,
// sliver[k * width + c] = src[c * stride + k] for k < kc; columns c >= count are zero.
// This is the transposing case of both packers (rows of A for nn/nt, rows of Bᵀ for nt).
TP_GEMM_INLINE void pack_transposed(const float* src, long stride, int count, int kc, int width, float* sliver) {
  using namespace simd;
  for (int c0 = 0; c0 < width; c0 += 4) {
    const int n = std::min(4, count - c0), w = std::min(4, width - c0);  // w < 4 only for Mr = 6
    if (n == 4 && w == 4) {
      const float* s0 = src + c0 * stride;
      const float* s1 = s0 + stride;
      const float* s2 = s1 + stride;
      const float* s3 = s2 + stride;
      int k = 0;
      for (; k + 4 <= kc; k += 4) {
        f32x4 r0 = load(s0 + k), r1 = load(s1 + k), r2 = load(s2 + k), r3 = load(s3 + k);
        transpose4(r0, r1, r2, r3);
        float* d = sliver + static_cast<long>(k) * width + c0;
        store(d, r0);
        store(d + width, r1);
        store(d + 2 * width, r2);
        store(d + 3 * width, r3);
      }
      for (; k < kc; ++k) {
        float* d = sliver + static_cast<long>(k) * width + c0;
        d[0] = s0[k];
        d[1] = s1[k];
        d[2] = s2[k];
        d[3] = s3[k];
      }
    } else {
      for (int k = 0; k < kc; ++k) {
        float* d = sliver + static_cast<long>(k) * width + c0;
        for (int c = 0; c < w; ++c) d[c] = c < n ? src[(c0 + c) * stride + k] : 0.0f;
      }
    }
  }
}

// Packs `count` contiguous floats per k (rows of a k-major source, `stride` apart) into
// ceil(count/width) slivers of [kc][width], zero-padded past count. k is the outer loop, so every
// source row is read once, front to back, whatever the sliver width.
TP_GEMM_INLINE void pack_direct(const float* src, long stride, int count, int kc, int width, float* out) {
  using namespace simd;
  const int full = count / width, rest = count - full * width;
  const long sliver_floats = static_cast<long>(kc) * width;
  for (int k = 0; k < kc; ++k) {
    const float* s = src + k * stride;
    float* d = out + static_cast<long>(k) * width;
    for (int sl = 0; sl < full; ++sl, s += width, d += sliver_floats) {
      int c = 0;
      for (; c + 4 <= width; c += 4) store(d + c, load(s + c));
      for (; c < width; ++c) d[c] = s[c];
    }
    if (rest > 0) {
      for (int c = 0; c < width; ++c) d[c] = c < rest ? s[c] : 0.0f;
    }
  }
}

// op(A)[i0:i0+mc, k0:k0+kc] into ceil(mc/Mr) slivers of [kc][Mr].
template <int Mr>
TP_GEMM_INLINE void pack_a(Trans trans, const float* A, int lda, int i0, int k0, int mc, int kc, float* out) {
  if (trans == Trans::T) {  // A stored [K, M]: each k row already holds consecutive i.
    pack_direct(A + static_cast<long>(k0) * lda + i0, lda, mc, kc, Mr, out);
    return;
  }
  for (int i = 0; i < mc; i += Mr) {  // A stored [M, K]: row i0+i+r holds op(A)'s row.
    pack_transposed(A + static_cast<long>(i0 + i) * lda + k0, lda, std::min(Mr, mc - i), kc, Mr,
                    out + static_cast<long>(i) * kc);
  }
}

// op(B)[k0:k0+kc, j0:j0+nc] into ceil(nc/Nr) slivers of [kc][Nr].
template <int Nr>
TP_GEMM_INLINE void pack_b(Trans trans, const float* B, int ldb, int k0, int j0, int kc, int nc, float* out) {
  if (trans == Trans::N) {  // B stored [K, N]: rows of consecutive j.
    pack_direct(B + static_cast<long>(k0) * ldb + j0, ldb, nc, kc, Nr, out);
    return;
  }
  for (int j = 0; j < nc; j += Nr) {  // B stored [N, K]: column c of the sliver is row j0+j+c.
    pack_transposed(B + static_cast<long>(j0 + j) * ldb + k0, ldb, std::min(Nr, nc - j), kc, Nr,
                    out + static_cast<long>(j) * kc);
  }
}

// C = bias (or C + bias) when there is nothing to multiply.
TP_GEMM_INLINE void empty_product(int M, int N, float* C, int ldc, bool accumulate, const float* bias) {
  for (int i = 0; i < M; ++i) {
    float* row = C + static_cast<long>(i) * ldc;
    for (int j = 0; j < N; ++j) {
      const float base = accumulate ? row[j] : 0.0f;
      row[j] = bias ? base + bias[j] : base;
    }
  }
}

// Handles the products with nothing to compute (M or N = 0: nothing; K = 0: C = [C +] bias);
// returns whether it did.
TP_GEMM_INLINE bool trivial(int M, int N, int K, float* C, int ldc, bool accumulate, const float* bias) {
  if (M <= 0 || N <= 0) return true;
  if (K > 0) return false;
  empty_product(M, N, C, ldc, accumulate, bias);
  return true;
}

// The k range [lo, hi) of a K block [k0, k0 + kc) that a micro-tile with rows [row, row + rows)
// and first column col needs under `band` (kernels.h). An empty range computes a zero product.
TP_GEMM_INLINE void band_range(Band band, int row, int rows, int col, int k0, int kc, int* lo, int* hi) {
  *lo = 0;
  *hi = kc;
  const int last = row + rows - 1 + band.offset;  // the last row's diagonal
  switch (band.kind) {
    case Band::Kind::Full:
      break;
    case Band::Kind::Lower:
      if (col > last) *hi = 0;
      break;
    case Band::Kind::KUpTo:
      *hi = std::max(0, std::min(kc, last + 1 - k0));
      break;
    case Band::Kind::KFrom:
      *lo = std::max(0, std::min(kc, row + band.offset - k0));
      break;
  }
  if (*lo >= *hi) *lo = *hi = 0;
}

// The blocked product. a_panel holds Mc·Kc floats, b_panel Kc·(Nc rounded up to Nr).
template <typename Kernel>
TP_GEMM_INLINE void blocked(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B,
                            int ldb, float* C, int ldc, bool accumulate, const float* bias, Band band, float* a_panel,
                            float* b_panel) {
  constexpr int Mr = Kernel::kMr, Nr = Kernel::kNr;
  for (int j0 = 0; j0 < N; j0 += Kernel::kNc) {
    const int nc = std::min(Kernel::kNc, N - j0);
    for (int k0 = 0; k0 < K; k0 += Kernel::kKc) {
      const int kc = std::min(Kernel::kKc, K - k0);
      pack_b<Nr>(trans_b, B, ldb, k0, j0, kc, nc, b_panel);
      const bool first_block = k0 == 0;
      const bool load_c = accumulate || !first_block;
      for (int i0 = 0; i0 < M; i0 += Kernel::kMc) {
        const int mc = std::min(Kernel::kMc, M - i0);
        pack_a<Mr>(trans_a, A, lda, i0, k0, mc, kc, a_panel);
        for (int j = 0; j < nc; j += Nr) {
          const int nr = std::min(Nr, nc - j);
          const float* b_sliver = b_panel + static_cast<long>(j) * kc;
          const float* tile_bias = (first_block && bias) ? bias + j0 + j : nullptr;
          float* c_col = C + static_cast<long>(i0) * ldc + j0 + j;
          for (int i = 0; i < mc; i += Mr) {
            const int mr = std::min(Mr, mc - i);
            int lo = 0, hi = kc;
            if (band.kind != Band::Kind::Full) band_range(band, i0 + i, mr, j0 + j, k0, kc, &lo, &hi);
            Kernel::tile(hi - lo, a_panel + static_cast<long>(i) * kc + static_cast<long>(lo) * Mr,
                         b_sliver + static_cast<long>(lo) * Nr, c_col + static_cast<long>(i) * ldc, ldc, mr, nr, load_c,
                         tile_bias);
          }
        }
      }
    }
  }
}

// Finishes one K block of a row segment exactly as a micro-tile does: + bias on the first
// block, then C = [C +] acc.
TP_GEMM_INLINE void finish_row(float* c, simd::f32x4 acc, const float* bias, int n, bool load_c) {
  using namespace simd;
  if (bias) acc = add(acc, n == 4 ? load(bias) : load_partial(bias, n));
  if (n == 4) {
    store(c, load_c ? add(load(c), acc) : acc);
  } else {
    if (load_c) acc = add(load_partial(c, n), acc);
    store_partial(c, acc, n);
  }
}

// Products with fewer rows than a micro-tile (a generation step is one row), without packing:
// op(B) is read where it lies. Each output lane still sums a[k]·b[k] in k order from zero per
// Kc block (MulAdd::apply(acc, a, b) = acc + a·b the way the micro-kernel does it), then adds
// bias and C as the tile does, so the result is bit-identical to the packed path's: a cached
// generation step computes exactly what a full forward pass computes. Outputs go G vectors at a
// time (G = 4, then 1 for the rest) so G accumulation chains overlap instead of waiting on one.
template <int G, typename MulAdd>
TP_GEMM_INLINE void small_m_group(Trans trans_a, Trans trans_b, const float* A, int lda, int i, const float* B, int ldb,
                                  int j, int n, int k0, int kc, simd::f32x4* acc) {
  using namespace simd;
  const auto a_at = [&](int k) {
    return splat(trans_a == Trans::N ? A[static_cast<long>(i) * lda + k] : A[static_cast<long>(k) * lda + i]);
  };
  for (int g = 0; g < G; ++g) acc[g] = zero();
  if (trans_b == Trans::N) {  // B [K, N]: 4·G consecutive columns per k.
    const float* b = B + static_cast<long>(k0) * ldb + j;
    for (int k = 0; k < kc; ++k, b += ldb) {
      const f32x4 a = a_at(k0 + k);
      for (int g = 0; g < G; ++g) {
        const int m = std::min(4, n - 4 * g);
        acc[g] = MulAdd::apply(acc[g], a, m == 4 ? load(b + 4 * g) : load_partial(b + 4 * g, m));
      }
    }
    return;
  }
  // B [N, K]: 4·G rows, transposed four k at a time.
  const float* rows[4 * G];
  for (int r = 0; r < 4 * G; ++r) rows[r] = B + static_cast<long>(j + std::min(r, n - 1)) * ldb + k0;
  int k = 0;
  for (; n == 4 * G && k + 4 <= kc; k += 4) {
    const f32x4 a0 = a_at(k0 + k), a1 = a_at(k0 + k + 1), a2 = a_at(k0 + k + 2), a3 = a_at(k0 + k + 3);
    for (int g = 0; g < G; ++g) {
      const float* const* q = rows + 4 * g;
      f32x4 r0 = load(q[0] + k), r1 = load(q[1] + k), r2 = load(q[2] + k), r3 = load(q[3] + k);
      transpose4(r0, r1, r2, r3);
      acc[g] = MulAdd::apply(acc[g], a0, r0);
      acc[g] = MulAdd::apply(acc[g], a1, r1);
      acc[g] = MulAdd::apply(acc[g], a2, r2);
      acc[g] = MulAdd::apply(acc[g], a3, r3);
    }
  }
  for (; k < kc; ++k) {
    const f32x4 a = a_at(k0 + k);
    for (int g = 0; g < G; ++g) {
      float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int r = 0; r < 4 && 4 * g + r < n; ++r) lanes[r] = rows[4 * g + r][k];
      acc[g] = MulAdd::apply(acc[g], a, load(lanes));
    }
  }
}

template <int Kc, typename MulAdd>
TP_GEMM_INLINE void small_m(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B,
                            int ldb, float* C, int ldc, bool accumulate, const float* bias) {
  using namespace simd;
  for (int i = 0; i < M; ++i) {
    float* c_row = C + static_cast<long>(i) * ldc;
    for (int k0 = 0; k0 < K; k0 += Kc) {
      const int kc = std::min(Kc, K - k0);
      const bool first = k0 == 0, load_c = accumulate || !first;
      int j = 0;
      for (; j + 16 <= N; j += 16) {
        f32x4 acc[4];
        small_m_group<4, MulAdd>(trans_a, trans_b, A, lda, i, B, ldb, j, 16, k0, kc, acc);
        for (int g = 0; g < 4; ++g)
          finish_row(c_row + j + 4 * g, acc[g], first && bias ? bias + j + 4 * g : nullptr, 4, load_c);
      }
      for (; j < N; j += 4) {
        const int n = std::min(4, N - j);
        f32x4 acc[1];
        small_m_group<1, MulAdd>(trans_a, trans_b, A, lda, i, B, ldb, j, n, k0, kc, acc);
        finish_row(c_row + j, acc[0], first && bias ? bias + j : nullptr, n, load_c);
      }
    }
  }
}

// GFLOP/s of Kernel::tile alone: one Mr x Nr tile of depth 256 from L1-resident slivers,
// repeated for about `seconds` (best of a few timings).
template <typename Kernel, typename Clock>
TP_GEMM_INLINE double tile_peak_gflops(double seconds) {
  constexpr int kc = 256, Mr = Kernel::kMr, Nr = Kernel::kNr;
  alignas(64) static float a[kc * Mr], b[kc * Nr], c[Mr * Nr];
  for (int i = 0; i < kc * Mr; ++i) a[i] = 1.0f + 1e-3f * (i % 7);
  for (int i = 0; i < kc * Nr; ++i) b[i] = 1.0f - 1e-3f * (i % 5);
  double best = 0.0;
  for (int rep = 0; rep < 5; ++rep) {
    const auto start = Clock::now();
    long tiles = 0;
    double elapsed = 0.0;
    do {
      for (int i = 0; i < 256; ++i) Kernel::tile(kc, a, b, c, Nr, Mr, Nr, i > 0, nullptr);
      tiles += 256;
      elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds / 5);
    best = std::max(best, 2.0 * Mr * Nr * kc * tiles / elapsed / 1e9);
  }
  return best;
}

// Panel sizes a kernel's packing buffers need.
template <typename Kernel>
constexpr std::size_t a_panel_floats() {
  return static_cast<std::size_t>(Kernel::kMc) * Kernel::kKc;
}
template <typename Kernel>
constexpr std::size_t b_panel_floats() {
  return static_cast<std::size_t>((Kernel::kNc + Kernel::kNr - 1) / Kernel::kNr * Kernel::kNr) * Kernel::kKc;
}

}  // namespace tp::kernels::gemm
