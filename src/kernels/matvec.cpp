// The decode path's matrix-vector products: y = W x for a weight matrix W [N, K] kept in its
// checkpoint's dtype (F32, F16 or BF16) and one to a few input rows x [K].
//
// Generating a token reads every weight once and does two flops with each: the work is bound by
// memory bandwidth, not arithmetic, so the kernel's one job is to stream the weights once, in
// the order they lie in memory: row after row, each a dot product with the input over 16
// columns per step (four vector accumulators, so the adds overlap), 16-bit weights widened to
// f32 in registers — half the bytes of an f32 copy, the same values, since both 16-bit formats
// widen exactly. The input row stays in L1. (Interleaving four rows, to load the input once for
// all four, ran at a third of the speed: four short streams defeat the hardware prefetcher that
// one long one keeps busy.)
//
// Each row's sum has one fixed order, so splitting rows across threads never changes a bit, and
// the SIMDe operations are the same natively and in wasm. The order differs from the blocked
// matmul's (a dot product combines lanes at the end, matmul sums each output in one lane), so a
// cached generation step agrees with a full forward pass to rounding, not bit for bit
// (docs/ARCHITECTURE.md, "Generation").
#include <algorithm>

#include "core/thread_pool.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace tp::kernels {

namespace {

using namespace simd;

// Weights of one row from column k, widened to f32: eight (load8), four (load4) or the last
// n < 4 (load_tail, zeros past them).
template <DType D>
struct Row;

template <>
struct Row<DType::F32> {
  static inline __attribute__((always_inline)) void load8(const void* w, int k, f32x4& lo, f32x4& hi) {
    const float* p = static_cast<const float*>(w) + k;
    lo = load(p);
    hi = load(p + 4);
  }
  static inline __attribute__((always_inline)) f32x4 load4(const void* w, int k) {
    return load(static_cast<const float*>(w) + k);
  }
  static inline f32x4 load_tail(const void* w, int k, int n) {
    return load_partial(static_cast<const float*>(w) + k, n);
  }
};

// bfloat16 is the top half of an f32: put each value in the high 16 bits of a lane. (A tail is
// widened one value at a time: clang 14's wasm back end dropped the bytes of a partial memcpy
// into a local array that was then loaded as a vector.)
template <>
struct Row<DType::BF16> {
  static inline __attribute__((always_inline)) void load8(const void* w, int k, f32x4& lo, f32x4& hi) {
    const simde__m128i v =
        simde_mm_loadu_si128(reinterpret_cast<const simde__m128i*>(static_cast<const std::uint16_t*>(w) + k));
    const simde__m128i z = simde_mm_setzero_si128();
    lo = simde_mm_castsi128_ps(simde_mm_unpacklo_epi16(z, v));
    hi = simde_mm_castsi128_ps(simde_mm_unpackhi_epi16(z, v));
  }
  static inline __attribute__((always_inline)) f32x4 load4(const void* w, int k) {
    const simde__m128i v =
        simde_mm_loadl_epi64(reinterpret_cast<const simde__m128i*>(static_cast<const std::uint16_t*>(w) + k));
    return simde_mm_castsi128_ps(simde_mm_unpacklo_epi16(simde_mm_setzero_si128(), v));
  }
  static inline f32x4 load_tail(const void* w, int k, int n) {
    float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < n; ++i) lanes[i] = bf16_to_float(static_cast<const std::uint16_t*>(w)[k + i]);
    return load(lanes);
  }
};

// IEEE half, from lanes holding the 16 bits in their upper half (as BF16 arrives): an arithmetic
// shift by 3 puts exponent and mantissa in f32's fields and copies the sign into the three bits
// above them, which the mask clears but for bit 31; a multiply by 2^112 rebiases the exponent
// and turns subnormals into normals exactly. An all-ones exponent (infinity, NaN) becomes f32's
// all-ones instead.
inline __attribute__((always_inline)) f32x4 widen_f16(simde__m128i high) {
  const simde__m128i bits =
      simde_mm_and_si128(simde_mm_srai_epi32(high, 3), simde_mm_set1_epi32(static_cast<int>(0x8fffe000u)));
  const f32x4 scaled = mul(simde_mm_castsi128_ps(bits), simde_mm_castsi128_ps(simde_mm_set1_epi32(0x77800000)));
  const simde__m128i exponent = simde_mm_and_si128(bits, simde_mm_set1_epi32(0x0f800000));
  const simde__m128i special = simde_mm_cmpeq_epi32(exponent, simde_mm_set1_epi32(0x0f800000));
  return simde_mm_or_ps(scaled, simde_mm_castsi128_ps(simde_mm_and_si128(special, simde_mm_set1_epi32(0x7f800000))));
}

template <>
struct Row<DType::F16> {
  static inline __attribute__((always_inline)) void load8(const void* w, int k, f32x4& lo, f32x4& hi) {
    const simde__m128i v =
        simde_mm_loadu_si128(reinterpret_cast<const simde__m128i*>(static_cast<const std::uint16_t*>(w) + k));
    const simde__m128i z = simde_mm_setzero_si128();
    lo = widen_f16(simde_mm_unpacklo_epi16(z, v));
    hi = widen_f16(simde_mm_unpackhi_epi16(z, v));
  }
  static inline __attribute__((always_inline)) f32x4 load4(const void* w, int k) {
    const simde__m128i v =
        simde_mm_loadl_epi64(reinterpret_cast<const simde__m128i*>(static_cast<const std::uint16_t*>(w) + k));
    return widen_f16(simde_mm_unpacklo_epi16(simde_mm_setzero_si128(), v));
  }
  static inline f32x4 load_tail(const void* w, int k, int n) {
    float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < n; ++i) lanes[i] = f16_to_float(static_cast<const std::uint16_t*>(w)[k + i]);
    return load(lanes);
  }
};

// y[j] = x · W[j] (+ bias[j]). The order of the sum: columns 16 at a time into four accumulators
// (lanes of columns 0-3, 4-7, 8-11, 12-15 of each step), then chunks of four into the first, the
// last k < 4 into the second; the four added pairwise, the lanes summed (simd::hsum), the bias
// added last.
template <DType D>
inline __attribute__((always_inline)) void row_dot(const void* W, std::size_t ldw, int j, int K, const float* x,
                                                   const float* bias, float* y) {
  const void* w = static_cast<const char*>(W) + static_cast<std::size_t>(j) * ldw * dtype_size(D);
  f32x4 a0 = zero(), a1 = zero(), a2 = zero(), a3 = zero();
  int k = 0;
  for (; k + 16 <= K; k += 16) {
    f32x4 w0, w1, w2, w3;
    Row<D>::load8(w, k, w0, w1);
    Row<D>::load8(w, k + 8, w2, w3);
    a0 = add(a0, mul(w0, load(x + k)));
    a1 = add(a1, mul(w1, load(x + k + 4)));
    a2 = add(a2, mul(w2, load(x + k + 8)));
    a3 = add(a3, mul(w3, load(x + k + 12)));
  }
  for (; k + 4 <= K; k += 4) a0 = add(a0, mul(Row<D>::load4(w, k), load(x + k)));
  if (k < K) a1 = add(a1, mul(Row<D>::load_tail(w, k, K - k), load_partial(x + k, K - k)));
  const float s = hsum(add(add(a0, a1), add(a2, a3)));
  y[j] = bias ? s + bias[j] : s;
}

// Rows [j0, j1) of one product for every input row: each weight row is read from memory once and
// from L1 for the input rows after the first.
template <DType D>
void rows_range(const MatvecOut& o, int rows, int K, const float* x, int ldx, int j0, int j1) {
  const std::size_t ldw = static_cast<std::size_t>(o.W.ld > 0 ? o.W.ld : K);
  for (int j = j0; j < j1; ++j) {
    for (int i = 0; i < rows; ++i) {
      row_dot<D>(o.W.data, ldw, j, K, x + static_cast<std::size_t>(i) * ldx, o.bias,
                 o.y + static_cast<std::size_t>(i) * o.ldy);
    }
  }
}

void run_rows(const MatvecOut& o, int rows, int K, const float* x, int ldx, int j0, int j1) {
  switch (o.W.dtype) {
    case DType::F32:
      return rows_range<DType::F32>(o, rows, K, x, ldx, j0, j1);
    case DType::F16:
      return rows_range<DType::F16>(o, rows, K, x, ldx, j0, j1);
    case DType::BF16:
      return rows_range<DType::BF16>(o, rows, K, x, ldx, j0, j1);
  }
}

// Rows per unit of the split (a cache line of outputs, so parts never share one).
constexpr int kRowAlign = 16;

}  // namespace

void matvec(int rows, int N, int K, const float* x, int ldx, WeightView W, const float* bias, float* y, int ldy) {
  const MatvecOut out{W, N, bias, y, ldy};
  matvec_fused(rows, K, x, ldx, &out, 1);
}

void matvec_fused(int rows, int K, const float* x, int ldx, const MatvecOut* outs, int count) {
  if (rows <= 0 || count <= 0) return;
  // Every product's rows, one after another: a part of the split is a range of that list.
  int total = 0;
  for (int p = 0; p < count; ++p) total += (outs[p].N + kRowAlign - 1) / kRowAlign * kRowAlign;
  if (K == 0) {  // an empty sum: the bias, or zeros
    for (int p = 0; p < count; ++p) {
      for (int i = 0; i < rows; ++i) {
        float* yi = outs[p].y + static_cast<std::size_t>(i) * outs[p].ldy;
        for (int j = 0; j < outs[p].N; ++j) yi[j] = outs[p].bias ? outs[p].bias[j] : 0.0f;
      }
    }
    return;
  }
  const double flops = 2.0 * rows * static_cast<double>(total) * K;
  threads::parallel_split(total, kRowAlign, flops, [&](int begin, int end, int) {
    int base = 0;
    for (int p = 0; p < count; ++p) {
      const int span = (outs[p].N + kRowAlign - 1) / kRowAlign * kRowAlign;
      const int j0 = std::max(begin - base, 0), j1 = std::min(end - base, outs[p].N);
      if (j0 < j1) run_rows(outs[p], rows, K, x, ldx, j0, j1);
      base += span;
    }
  });
}

}  // namespace tp::kernels
