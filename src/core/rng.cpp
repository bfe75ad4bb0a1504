// PCG32 (O'Neill, "PCG: A Family of Simple Fast Space-Efficient Statistically Good Algorithms")
// and Marsaglia's polar method for normals.
#include "core/rng.h"

#include <cmath>

#include "core/det_math.h"
#include "core/error.h"

namespace tp {

Rng::Rng(std::uint64_t seed, std::uint64_t stream) : increment_((stream << 1u) | 1u), seed_(seed) {
  next_u32();
  state_ += seed;
  next_u32();
}

std::uint32_t Rng::next_u32() {
  const std::uint64_t old = state_;
  state_ = old * 6364136223846793005ULL + increment_;
  const std::uint32_t xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
  const std::uint32_t rot = static_cast<std::uint32_t>(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

float Rng::uniform() { return static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f); }

float Rng::uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }

int Rng::below(int n) {
  TP_ASSERT(n > 0);
  const std::uint32_t bound = static_cast<std::uint32_t>(n);
  const std::uint32_t threshold = (0u - bound) % bound;  // rejects the biased low range
  while (true) {
    const std::uint32_t r = next_u32();
    if (r >= threshold) return static_cast<int>(r % bound);
  }
}

float Rng::normal(float mean, float stddev) {
  if (has_spare_) {
    has_spare_ = false;
    return static_cast<float>(mean + stddev * spare_);
  }
  double u, v, s;
  do {
    // 53-bit uniforms in (-1, 1) from two draws.
    const std::uint64_t a = (static_cast<std::uint64_t>(next_u32()) << 21) ^ next_u32();
    const std::uint64_t b = (static_cast<std::uint64_t>(next_u32()) << 21) ^ next_u32();
    u = static_cast<double>(a & ((1ULL << 53) - 1)) / 4503599627370496.0 - 1.0;
    v = static_cast<double>(b & ((1ULL << 53) - 1)) / 4503599627370496.0 - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * det::log(s) / s);
  spare_ = v * factor;
  has_spare_ = true;
  return static_cast<float>(mean + stddev * (u * factor));
}

Rng Rng::split(std::uint64_t stream) const { return Rng(seed_ ^ 0x9E3779B97F4A7C15ULL, stream + 1); }

}  // namespace tp
