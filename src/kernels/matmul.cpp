// The fast matrix product: packing plus a 4x8 register-blocked micro-kernel (BLIS-style loops).
//
// op(A) and op(B) are copied once per cache block into "panels": A into slivers of kMr rows,
// B into slivers of kNr columns, each laid out k-major so the micro-kernel reads both with unit
// stride. The packing is where the transposes happen, so nn, nt and tn all run the same inner
// loop and no caller ever materialises a transposed matrix. Panels are zero-padded at the edges,
// so the micro-kernel always computes a full 4x8 tile and only the store is clipped.
//
// Register budget (the reason for 4x8): 8 accumulators + 2 B vectors + 1 broadcast A = 11 of the
// 16 vector registers x86 and V8's wasm back end have, leaving room for address arithmetic.
#include <algorithm>
#include <cstring>

#include "core/aligned_buffer.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp::kernels {

namespace {

using namespace simd;

constexpr int kMr = 4;     // rows of C per micro-tile
constexpr int kNr = 8;     // columns of C per micro-tile (two vectors)
constexpr int kKc = 256;   // depth of one packed block: a B sliver is kKc*kNr*4 = 8 KB (L1)
constexpr int kMc = 128;   // rows of A per packed block: kMc*kKc*4 = 128 KB (L2)
constexpr int kNc = 1024;  // columns of B per packed block: kKc*kNc*4 = 1 MB (L2)

// Packing buffers grow to their largest size once and are reused by every later call.
AlignedBuffer& a_panel_buffer() {
  static AlignedBuffer buffer(static_cast<std::size_t>(kMc) * kKc);
  return buffer;
}
AlignedBuffer& b_panel_buffer() {
  static AlignedBuffer buffer(static_cast<std::size_t>(kNc) * kKc);
  return buffer;
}

// Packs op(A)[i0:i0+mc, k0:k0+kc] into ceil(mc/kMr) slivers of [kc][kMr].
void pack_a(Trans trans, const float* A, int lda, int i0, int k0, int mc, int kc, float* out) {
  for (int i = 0; i < mc; i += kMr) {
    const int rows = std::min(kMr, mc - i);
    float* sliver = out + i * kc;
    if (trans == Trans::N) {
      for (int r = 0; r < kMr; ++r) {
        const float* src = A + static_cast<long>(i0 + i + r) * lda + k0;
        if (r < rows) {
          for (int k = 0; k < kc; ++k) sliver[k * kMr + r] = src[k];
        } else {
          for (int k = 0; k < kc; ++k) sliver[k * kMr + r] = 0.0f;
        }
      }
    } else {  // A stored [K, M]: each k row already holds consecutive i.
      for (int k = 0; k < kc; ++k) {
        const float* src = A + static_cast<long>(k0 + k) * lda + i0 + i;
        float* dst = sliver + k * kMr;
        if (rows == kMr) {
          store(dst, load(src));
        } else {
          for (int r = 0; r < kMr; ++r) dst[r] = r < rows ? src[r] : 0.0f;
        }
      }
    }
  }
}

// Packs op(B)[k0:k0+kc, j0:j0+nc] into ceil(nc/kNr) slivers of [kc][kNr].
void pack_b(Trans trans, const float* B, int ldb, int k0, int j0, int kc, int nc, float* out) {
  for (int j = 0; j < nc; j += kNr) {
    const int cols = std::min(kNr, nc - j);
    float* sliver = out + j * kc;
    if (trans == Trans::N) {  // B stored [K, N]: rows of 8 consecutive floats.
      for (int k = 0; k < kc; ++k) {
        const float* src = B + static_cast<long>(k0 + k) * ldb + j0 + j;
        float* dst = sliver + k * kNr;
        if (cols == kNr) {
          store(dst, load(src));
          store(dst + 4, load(src + 4));
        } else {
          for (int c = 0; c < kNr; ++c) dst[c] = c < cols ? src[c] : 0.0f;
        }
      }
    } else {  // B stored [N, K]: gather column c of the sliver from row j0+j+c.
      for (int c = 0; c < kNr; ++c) {
        if (c < cols) {
          const float* src = B + static_cast<long>(j0 + j + c) * ldb + k0;
          for (int k = 0; k < kc; ++k) sliver[k * kNr + c] = src[k];
        } else {
          for (int k = 0; k < kc; ++k) sliver[k * kNr + c] = 0.0f;
        }
      }
    }
  }
}

// C tile (mr x nr valid of 4x8) = [C +] a_sliver · b_sliver [+ bias].
void micro_kernel(int kc, const float* a, const float* b, float* C, int ldc, int mr, int nr,
                  bool load_c, const float* bias) {
  f32x4 c00 = zero(), c01 = zero(), c10 = zero(), c11 = zero();
  f32x4 c20 = zero(), c21 = zero(), c30 = zero(), c31 = zero();
  for (int k = 0; k < kc; ++k) {
    const f32x4 b0 = load(b), b1 = load(b + 4);
    f32x4 a_k = splat(a[0]);
    c00 = add(c00, mul(a_k, b0));
    c01 = add(c01, mul(a_k, b1));
    a_k = splat(a[1]);
    c10 = add(c10, mul(a_k, b0));
    c11 = add(c11, mul(a_k, b1));
    a_k = splat(a[2]);
    c20 = add(c20, mul(a_k, b0));
    c21 = add(c21, mul(a_k, b1));
    a_k = splat(a[3]);
    c30 = add(c30, mul(a_k, b0));
    c31 = add(c31, mul(a_k, b1));
    a += kMr;
    b += kNr;
  }
  f32x4 tile[kMr][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  if (bias) {
    float bias_lanes[kNr] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::memcpy(bias_lanes, bias, sizeof(float) * nr);
    const f32x4 bias0 = load(bias_lanes), bias1 = load(bias_lanes + 4);
    for (int r = 0; r < kMr; ++r) {
      tile[r][0] = add(tile[r][0], bias0);
      tile[r][1] = add(tile[r][1], bias1);
    }
  }
  if (mr == kMr && nr == kNr) {
    for (int r = 0; r < kMr; ++r) {
      float* row = C + static_cast<long>(r) * ldc;
      if (load_c) {
        store(row, add(load(row), tile[r][0]));
        store(row + 4, add(load(row + 4), tile[r][1]));
      } else {
        store(row, tile[r][0]);
        store(row + 4, tile[r][1]);
      }
    }
    return;
  }
  // Edge tile: the same additions, clipped to the valid mr x nr corner.
  for (int r = 0; r < mr; ++r) {
    float* row = C + static_cast<long>(r) * ldc;
    float lanes[kNr];
    store(lanes, tile[r][0]);
    store(lanes + 4, tile[r][1]);
    if (load_c) {
      float old[kNr] = {0, 0, 0, 0, 0, 0, 0, 0};
      std::memcpy(old, row, sizeof(float) * nr);
      store(lanes, add(load(old), tile[r][0]));
      store(lanes + 4, add(load(old + 4), tile[r][1]));
    }
    std::memcpy(row, lanes, sizeof(float) * nr);
  }
}

}  // namespace

void matmul(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda,
            const float* B, int ldb, float* C, int ldc, bool accumulate, const float* bias) {
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    for (int i = 0; i < M; ++i) {
      float* row = C + static_cast<long>(i) * ldc;
      for (int j = 0; j < N; ++j) {
        const float base = accumulate ? row[j] : 0.0f;
        row[j] = bias ? base + bias[j] : base;
      }
    }
    return;
  }
  float* a_panel = a_panel_buffer().data();
  float* b_panel = b_panel_buffer().data();
  for (int j0 = 0; j0 < N; j0 += kNc) {
    const int nc = std::min(kNc, N - j0);
    for (int k0 = 0; k0 < K; k0 += kKc) {
      const int kc = std::min(kKc, K - k0);
      pack_b(trans_b, B, ldb, k0, j0, kc, nc, b_panel);
      const bool first_block = k0 == 0;
      for (int i0 = 0; i0 < M; i0 += kMc) {
        const int mc = std::min(kMc, M - i0);
        pack_a(trans_a, A, lda, i0, k0, mc, kc, a_panel);
        for (int j = 0; j < nc; j += kNr) {
          const int nr = std::min(kNr, nc - j);
          const float* b_sliver = b_panel + j * kc;
          const float* tile_bias = (first_block && bias) ? bias + j0 + j : nullptr;
          for (int i = 0; i < mc; i += kMr) {
            const int mr = std::min(kMr, mc - i);
            float* c_tile = C + static_cast<long>(i0 + i) * ldc + j0 + j;
            micro_kernel(kc, a_panel + i * kc, b_sliver, c_tile, ldc, mr, nr,
                         accumulate || !first_block, tile_bias);
          }
        }
      }
    }
  }
}

}  // namespace tp::kernels
