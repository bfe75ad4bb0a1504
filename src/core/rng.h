// Rng: the one seeded random number generator (PCG32).
//
// Everything random — weight init, dropout masks, batch order, sampling — draws from an Rng, so a
// seed reproduces a run exactly. PCG32 uses only 64-bit integer arithmetic and the float
// conversions are exact, and normal() uses det_math, so the native and wasm builds produce
// bit-identical streams.
#pragma once

#include <cstdint>

namespace tp {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0, std::uint64_t stream = 0);

  std::uint32_t next_u32();
  float uniform();                    // [0, 1), 24 random bits
  float uniform(float lo, float hi);  // [lo, hi)
  int below(int n);                   // [0, n), unbiased; n > 0
  float normal(float mean = 0.0f, float stddev = 1.0f);
  // An independent generator derived from this one's seed (e.g. one per layer's dropout).
  Rng split(std::uint64_t stream) const;

 private:
  std::uint64_t state_ = 0;
  std::uint64_t increment_ = 0;
  std::uint64_t seed_ = 0;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace tp
