// Helpers shared by the Catch2 suites: random tensors, NaN poisoning, error norms.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/rng.h"

namespace tp::test {

// How long a case trains. The sanitizer build (TP_TEST_SHORT_TRAINING, cmake/shared_targets.cmake)
// runs every case under ASan + UBSan, 10 to 40 times slower than Release, so there a training
// run stops after kShortTrainingSteps: every path of the loop (steps, warm-up, evaluation,
// clipping) is taken in its first steps. A case whose assertions need the full run (a
// convergence threshold) is tagged [slow]: at full length, natively and in wasm, it checks
// where the run ends; cut short, that the run it made is sound (docs/TESTING.md).
#ifdef TP_TEST_SHORT_TRAINING
inline constexpr bool kFullTraining = false;
#else
inline constexpr bool kFullTraining = true;
#endif
inline constexpr int kShortTrainingSteps = 30;
inline int training_steps(int steps) { return kFullTraining ? steps : std::min(steps, kShortTrainingSteps); }

inline std::vector<float> random_vector(Rng& rng, std::size_t n, float lo = -1.0f, float hi = 1.0f) {
  std::vector<float> v(n);
  for (float& x : v) x = rng.uniform(lo, hi);
  return v;
}

// Filled with NaN, so any element a kernel forgets to write fails the comparison.
inline std::vector<float> poisoned(std::size_t n) {
  return std::vector<float>(n, std::numeric_limits<float>::quiet_NaN());
}

// ‖a − b‖₂ / max(‖b‖₂, tiny); NaN anywhere gives +inf.
inline double relative_error(const float* a, const float* b, std::size_t n) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i])) return std::numeric_limits<double>::infinity();
    const double d = static_cast<double>(a[i]) - b[i];
    diff += d * d;
    norm += static_cast<double>(b[i]) * b[i];
  }
  return std::sqrt(diff) / std::max(std::sqrt(norm), 1e-30);
}

inline double relative_error(const std::vector<float>& a, const std::vector<float>& b) {
  return relative_error(a.data(), b.data(), a.size());
}

// max_i |a_i − b_i|; NaN anywhere gives +inf.
inline double max_abs_error(const float* a, const float* b, std::size_t n) {
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(a[i]) != std::isnan(b[i])) return std::numeric_limits<double>::infinity();
    if (std::isnan(a[i])) continue;
    worst = std::max(worst, std::fabs(static_cast<double>(a[i]) - b[i]));
  }
  return worst;
}

inline bool any_nan(const std::vector<float>& v) {
  for (float x : v) {
    if (std::isnan(x)) return true;
  }
  return false;
}

}  // namespace tp::test
