// The fast matrix product: packing plus a 4x8 register-blocked micro-kernel (BLIS-style loops in
// gemm_driver.h), and an unpacked path for products of one to three rows (generation steps).
//
// Register budget (the reason for 4x8): 8 accumulators + 2 B vectors + 4 broadcast A values =
// 14 vector registers, of the 16 x86 has and the 15 V8's wasm back end allocates. Larger tiles
// (5x8, 6x8, 4x12) make V8 spill accumulators to the stack inside the loop, which costs more than
// the larger tile saves; measured in docs/PERFORMANCE.md. Per k the tile does 6 loads, 8 mul
// and 8 add: mul and add are separate instructions (wasm has no FMA), so on x86 the loop is
// bound by the three ports that execute them, at 12 flops per cycle.
//
// Natively the same source is compiled twice when the CPU has AVX: the VEX encoding gives
// three-operand instructions and a broadcast that is a plain load (SSE2 needs a shuffle), and
// changes no result — the same IEEE operations in the same order, never contracted into FMA.
#include <algorithm>
#include <chrono>

#include "core/thread_pool.h"
#include "kernels/dispatch.h"
#include "kernels/gemm_driver.h"
#include "kernels/kernels.h"
#include "kernels/matmul_split.h"
#include "kernels/simd.h"
#include "kernels/variants.h"

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__) && defined(__GNUC__)
#define TP_MATMUL_VEX 1
#define TP_TARGET_AVX __attribute__((target("avx")))
#else
#define TP_MATMUL_VEX 0
#endif

namespace tp::kernels {

namespace {

using namespace simd;

// C tile (mr x nr valid of 4x8) = [C +] a_sliver · b_sliver [+ bias].
struct Kernel4x8 {
  static constexpr int kMr = 4;    // rows of C per micro-tile
  static constexpr int kNr = 8;    // columns of C per micro-tile (two vectors)
  static constexpr int kKc = 512;  // depth of one packed block: a B sliver is kKc*kNr*4 = 16 KB (L1)
  static constexpr int kMc = 32;   // rows of A per packed block: kMc*kKc*4 = 64 KB (L2)
  static constexpr int kNc = 512;  // columns of B per packed block: kKc*kNc*4 = 1 MB (L2)

  static inline __attribute__((always_inline)) void tile(int kc, const float* a, const float* b, float* C, int ldc,
                                                         int mr, int nr, bool load_c, const float* bias) {
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
    if (bias) {
      float bias_lanes[kNr] = {0, 0, 0, 0, 0, 0, 0, 0};
      copy_lanes(bias_lanes, bias, nr);
      const f32x4 bias0 = load(bias_lanes), bias1 = load(bias_lanes + 4);
      c00 = add(c00, bias0);
      c01 = add(c01, bias1);
      c10 = add(c10, bias0);
      c11 = add(c11, bias1);
      c20 = add(c20, bias0);
      c21 = add(c21, bias1);
      c30 = add(c30, bias0);
      c31 = add(c31, bias1);
    }
    if (mr == kMr && nr == kNr) {
      store_row(C, c00, c01, load_c);
      store_row(C + ldc, c10, c11, load_c);
      store_row(C + 2 * static_cast<long>(ldc), c20, c21, load_c);
      store_row(C + 3 * static_cast<long>(ldc), c30, c31, load_c);
      return;
    }
    // Edge tile: the same additions, clipped to the valid mr x nr corner.
    const f32x4 rows[kMr][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
    for (int r = 0; r < mr; ++r) store_clipped(C + static_cast<long>(r) * ldc, rows[r][0], rows[r][1], nr, load_c);
  }

  static inline __attribute__((always_inline)) void store_row(float* row, f32x4 v0, f32x4 v1, bool load_c) {
    if (load_c) {
      v0 = add(load(row), v0);
      v1 = add(load(row + 4), v1);
    }
    store(row, v0);
    store(row + 4, v1);
  }

  static inline void store_clipped(float* row, f32x4 v0, f32x4 v1, int nr, bool load_c) {
    float lanes[kNr];
    if (load_c) {
      float old[kNr] = {0, 0, 0, 0, 0, 0, 0, 0};
      copy_lanes(old, row, nr);
      v0 = add(load(old), v0);
      v1 = add(load(old + 4), v1);
    }
    store(lanes, v0);
    store(lanes + 4, v1);
    copy_lanes(row, lanes, nr);
  }

  // The first n (<= kNr) floats of src into dst, lane by lane. Not std::memcpy: a call while the
  // accumulators are live (this clipped store after the k loop) makes Firefox's wasm compiler
  // (SpiderMonkey's Ion) keep all eight of them in stack slots through the whole k loop — a load
  // and a store per accumulator per k, the matmul at half its speed (docs/PERFORMANCE.md,
  // "Firefox") — where V8 keeps them in registers.
  static inline __attribute__((always_inline)) void copy_lanes(float* dst, const float* src, int n) {
    if (n > 0) dst[0] = src[0];
    if (n > 1) dst[1] = src[1];
    if (n > 2) dst[2] = src[2];
    if (n > 3) dst[3] = src[3];
    if (n > 4) dst[4] = src[4];
    if (n > 5) dst[5] = src[5];
    if (n > 6) dst[6] = src[6];
    if (n > 7) dst[7] = src[7];
  }
};

static_assert(Kernel4x8::kMr == variants::kSimd128Mr && Kernel4x8::kNr == variants::kSimd128Nr,
              "variants.h's tile shape is this kernel's");

// Packing buffers, one pair per thread (a product split across the pool packs its own panels),
// made when the thread starts and reused by every later call on that thread.
thread_local AlignedBuffer a_buffer(gemm::a_panel_floats<Kernel4x8>());
thread_local AlignedBuffer b_buffer(gemm::b_panel_floats<Kernel4x8>());
float* a_panel() { return a_buffer.data(); }
float* b_panel() { return b_buffer.data(); }
const bool panels_at_start = (threads::at_thread_start([] {
                                a_panel();
                                b_panel();
                              }),
                              true);

// a·b + acc as two IEEE operations (what wasm can do, and what both builds must agree on).
struct MulAdd {
  static inline __attribute__((always_inline)) f32x4 apply(f32x4 acc, f32x4 a, f32x4 b) { return add(acc, mul(a, b)); }
};

inline __attribute__((always_inline)) void matmul_impl(Trans trans_a, Trans trans_b, int M, int N, int K,
                                                       const float* A, int lda, const float* B, int ldb, float* C,
                                                       int ldc, bool accumulate, const float* bias, Band band) {
  if (M < Kernel4x8::kMr) {  // (computing the full product is valid for every band)
    gemm::small_m<Kernel4x8::kKc, MulAdd>(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias);
    return;
  }
  gemm::blocked<Kernel4x8>(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band, a_panel(),
                           b_panel());
}

}  // namespace

namespace variants {

void matmul_sse(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                float* C, int ldc, bool accumulate, const float* bias, Band band) {
  if (gemm::trivial(M, N, K, C, ldc, accumulate, bias)) return;
  matmul_impl(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band);
}

double matmul_peak_sse(double seconds) { return gemm::tile_peak_gflops<Kernel4x8, std::chrono::steady_clock>(seconds); }

#if TP_MATMUL_VEX
bool has_vex() {
  __builtin_cpu_init();  // needed when this first runs from a static initializer
  return __builtin_cpu_supports("avx") != 0;
}

TP_TARGET_AVX void matmul_vex(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda,
                              const float* B, int ldb, float* C, int ldc, bool accumulate, const float* bias,
                              Band band) {
  if (gemm::trivial(M, N, K, C, ldc, accumulate, bias)) return;
  matmul_impl(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band);
}

TP_TARGET_AVX double matmul_peak_vex(double seconds) {
  return gemm::tile_peak_gflops<Kernel4x8, std::chrono::steady_clock>(seconds);
}
#else
bool has_vex() { return false; }
void matmul_vex(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                float* C, int ldc, bool accumulate, const float* bias, Band band) {
  matmul_sse(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band);
}
double matmul_peak_vex(double seconds) { return matmul_peak_sse(seconds); }
#endif

}  // namespace variants

void matmul(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
            float* C, int ldc, bool accumulate, const float* bias, Band band) {
  const KernelTable& table = kernel_table();
  split_matmul(table.matmul, {table.mr, table.nr},
               {trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band});
}

void matmul_group(const MatmulArgs* calls, int count) {
  const KernelTable& table = kernel_table();
  for (int first = 0; first < count; first += kMaxGroup)  // (in order: a region a kMaxGroup)
    split_matmuls(table.matmul, {table.mr, table.nr}, calls + first, std::min(kMaxGroup, count - first));
}

void matmul_simd128(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                    float* C, int ldc, bool accumulate, const float* bias, Band band) {
  split_matmul(kernel_table().matmul_simd128, {variants::kSimd128Mr, variants::kSimd128Nr},
               {trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band});
}

double matmul_kernel_peak_gflops(double seconds) { return kernel_table().matmul_peak_gflops(seconds); }

const char* matmul_path() { return kernel_table().name; }

}  // namespace tp::kernels
