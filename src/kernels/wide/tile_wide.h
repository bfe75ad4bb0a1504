// The wide matmul micro-tile, written once for both instruction sets (included by avx2.cpp and
// avx512.cpp, each compiled for its own): kMr rows x two V-lane vectors of FMA accumulators,
// the same packed loops as the 128-bit path (kernels/gemm_driver.h) around it.
//
// V provides: vec, kWidth, load, store, splat, zero, add, fmadd(a, b, acc) = a·b + acc.
#pragma once

#include <cstring>

namespace tp::kernels::wide {

template <class V, int Mr, int Kc, int Mc, int Nc>
struct WideTile {
  using vec = typename V::vec;
  static constexpr int kMr = Mr;
  static constexpr int kNr = 2 * V::kWidth;
  static constexpr int kKc = Kc;
  static constexpr int kMc = Mc;
  static constexpr int kNc = Nc;

  // C tile (mr x nr valid) = [C +] a_sliver · b_sliver [+ bias].
  static inline void tile(int kc, const float* a, const float* b, float* C, int ldc, int mr, int nr, bool load_c,
                          const float* bias) {
    constexpr int W = V::kWidth;
    vec c[kMr][2];
    for (int r = 0; r < kMr; ++r) c[r][0] = c[r][1] = V::zero();
    for (int k = 0; k < kc; ++k) {
      const vec b0 = V::load(b), b1 = V::load(b + W);
      for (int r = 0; r < kMr; ++r) {
        const vec a_k = V::splat(a[r]);
        c[r][0] = V::fmadd(a_k, b0, c[r][0]);
        c[r][1] = V::fmadd(a_k, b1, c[r][1]);
      }
      a += kMr;
      b += kNr;
    }
    if (bias) {
      float lanes[kNr] = {};
      std::memcpy(lanes, bias, sizeof(float) * nr);
      const vec bias0 = V::load(lanes), bias1 = V::load(lanes + W);
      for (int r = 0; r < kMr; ++r) {
        c[r][0] = V::add(c[r][0], bias0);
        c[r][1] = V::add(c[r][1], bias1);
      }
    }
    for (int r = 0; r < mr; ++r) {
      float* row = C + static_cast<long>(r) * ldc;
      if (nr == kNr) {
        if (load_c) {
          c[r][0] = V::add(V::load(row), c[r][0]);
          c[r][1] = V::add(V::load(row + W), c[r][1]);
        }
        V::store(row, c[r][0]);
        V::store(row + W, c[r][1]);
        continue;
      }
      float lanes[kNr];
      if (load_c) {  // edge tile: clipped to nr columns
        float old[kNr] = {};
        std::memcpy(old, row, sizeof(float) * nr);
        c[r][0] = V::add(V::load(old), c[r][0]);
        c[r][1] = V::add(V::load(old + W), c[r][1]);
      }
      V::store(lanes, c[r][0]);
      V::store(lanes + W, c[r][1]);
      std::memcpy(row, lanes, sizeof(float) * nr);
    }
  }
};

}  // namespace tp::kernels::wide
