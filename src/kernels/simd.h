// The 128-bit vector vocabulary the fast kernels are written in.
//
// SIMDe turns these SSE intrinsics into SSE instructions natively and into SIMD128 in wasm, so
// one source serves both targets and gives bit-identical results: only IEEE add, sub, mul, div,
// sqrt, min, max and integer bit operations appear, never FMA (wasm has none) and never the
// approximate rcp/rsqrt instructions (their results differ between CPUs).
//
// exp() is the Cephes single-precision polynomial (about 2 ulp on [-87, 88]); it returns exactly
// 0 below -87.3, so an additive -inf mask gives exact zeros after softmax.
#pragma once

#include <simde/x86/sse2.h>

namespace tp::kernels::simd {

using f32x4 = simde__m128;

inline f32x4 zero() { return simde_mm_setzero_ps(); }
inline f32x4 splat(float v) { return simde_mm_set1_ps(v); }
inline f32x4 load(const float* p) { return simde_mm_loadu_ps(p); }
inline void store(float* p, f32x4 v) { simde_mm_storeu_ps(p, v); }
inline f32x4 add(f32x4 a, f32x4 b) { return simde_mm_add_ps(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return simde_mm_sub_ps(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return simde_mm_mul_ps(a, b); }
inline f32x4 div(f32x4 a, f32x4 b) { return simde_mm_div_ps(a, b); }
inline f32x4 min(f32x4 a, f32x4 b) { return simde_mm_min_ps(a, b); }
inline f32x4 max(f32x4 a, f32x4 b) { return simde_mm_max_ps(a, b); }
inline f32x4 sqrt(f32x4 a) { return simde_mm_sqrt_ps(a); }
inline f32x4 bit_and(f32x4 a, f32x4 b) { return simde_mm_and_ps(a, b); }
inline f32x4 greater(f32x4 a, f32x4 b) { return simde_mm_cmpgt_ps(a, b); }        // all-ones lanes
inline f32x4 greater_equal(f32x4 a, f32x4 b) { return simde_mm_cmpge_ps(a, b); }  // all-ones lanes

// Lane sum in a fixed order: (v0 + v2) + (v1 + v3).
inline float hsum(f32x4 v) {
  const f32x4 pairs = simde_mm_add_ps(v, simde_mm_movehl_ps(v, v));
  return simde_mm_cvtss_f32(simde_mm_add_ss(pairs, simde_mm_shuffle_ps(pairs, pairs, 1)));
}

inline float hmax(f32x4 v) {
  const f32x4 pairs = simde_mm_max_ps(v, simde_mm_movehl_ps(v, v));
  return simde_mm_cvtss_f32(simde_mm_max_ss(pairs, simde_mm_shuffle_ps(pairs, pairs, 1)));
}

inline f32x4 exp(f32x4 x) {
  const f32x4 lo = splat(-87.33654f), hi = splat(88.37626f);
  const f32x4 in_range = greater_equal(x, lo);
  x = min(max(x, lo), hi);
  // n = round(x / ln 2) by the 1.5·2^23 trick (no SSE4.1 or wasm-only rounding needed).
  const f32x4 magic = splat(12582912.0f);
  const f32x4 shifted = add(mul(x, splat(1.44269504088896341f)), magic);
  const f32x4 n = sub(shifted, magic);
  // r = x - n ln 2 in two parts (Cody-Waite) to keep r exact.
  f32x4 r = sub(x, mul(n, splat(0.693359375f)));
  r = sub(r, mul(n, splat(-2.12194440e-4f)));
  f32x4 p = splat(1.9875691500e-4f);
  p = add(mul(p, r), splat(1.3981999507e-3f));
  p = add(mul(p, r), splat(8.3334519073e-3f));
  p = add(mul(p, r), splat(4.1665795894e-2f));
  p = add(mul(p, r), splat(1.6666665459e-1f));
  p = add(mul(p, r), splat(5.0000001201e-1f));
  p = add(add(mul(mul(p, r), r), r), splat(1.0f));
  // 2^n from the integer hiding in `shifted`'s low mantissa bits.
  const simde__m128i ni = simde_mm_sub_epi32(simde_mm_castps_si128(shifted), simde_mm_castps_si128(magic));
  const f32x4 two_n = simde_mm_castsi128_ps(simde_mm_slli_epi32(simde_mm_add_epi32(ni, simde_mm_set1_epi32(127)), 23));
  return bit_and(mul(p, two_n), in_range);
}

inline f32x4 sigmoid(f32x4 z) {
  const f32x4 one = splat(1.0f);
  return div(one, add(one, exp(sub(zero(), z))));
}

// Loads the first `count` (< 4) floats of p into a vector, zeros elsewhere. Lane by lane, not
// std::memcpy: in wasm a memcpy is a call, and a call in a loop's neighbourhood makes Firefox's
// compiler keep the loop's vectors in stack slots (kernels/matmul.cpp, copy_lanes).
inline f32x4 load_partial(const float* p, int count) {
  float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if (count > 0) lanes[0] = p[0];
  if (count > 1) lanes[1] = p[1];
  if (count > 2) lanes[2] = p[2];
  return load(lanes);
}

inline void store_partial(float* p, f32x4 v, int count) {
  float lanes[4];
  store(lanes, v);
  if (count > 0) p[0] = lanes[0];
  if (count > 1) p[1] = lanes[1];
  if (count > 2) p[2] = lanes[2];
}

}  // namespace tp::kernels::simd
