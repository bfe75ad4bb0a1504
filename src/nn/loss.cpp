// Cross-entropy over rows of logits: the SIMD softmax per row, one log per row, and the gradient
// p − q where q is the (smoothed) target distribution.
#include "nn/loss.h"

#include <algorithm>
#include <vector>

#include "core/det_math.h"
#include "core/error.h"
#include "kernels/kernels.h"

namespace tp::nn {

LossResult cross_entropy(const float* logits, const int* targets, int rows, int classes, float label_smoothing,
                         float* dlogits, float* probs) {
  LossResult result;
  for (int r = 0; r < rows; ++r) {
    const int t = targets[r];
    TP_CHECK(t >= -1 && t < classes, "target ", t, " at row ", r, " is out of range; allowed: 0..", classes - 1,
             " or -1 (ignored)");
    if (t >= 0) ++result.counted;
  }
  const double scale = result.counted > 0 ? 1.0 / result.counted : 0.0;
  const double eps = label_smoothing;
  // Softmax rows go straight into `probs` when the caller keeps them (training always does).
  std::vector<float> scratch(probs ? 0 : classes);
  double total = 0.0;
  for (int r = 0; r < rows; ++r) {
    const float* z = logits + static_cast<long>(r) * classes;
    float* p = probs ? probs + static_cast<long>(r) * classes : scratch.data();
    kernels::softmax_forward(z, p, 1, classes);
    const int t = targets[r];
    float* dz = dlogits ? dlogits + static_cast<long>(r) * classes : nullptr;
    if (t < 0) {
      if (dz) std::fill(dz, dz + classes, 0.0f);
      continue;
    }
    // log Σ exp(z) = max + log(1 / p_max): p_max ≥ 1/classes never underflows, and the sum the
    // softmax already formed is not recomputed.
    const int arg = static_cast<int>(std::max_element(z, z + classes) - z);
    const double log_sum = static_cast<double>(z[arg]) - det::log(p[arg]);
    double row_loss = (1.0 - eps) * (log_sum - z[t]);
    if (eps > 0.0) row_loss += eps * (log_sum - kernels::sum(z, classes) / static_cast<double>(classes));
    total += row_loss;
    if (arg == t) ++result.correct;
    if (dz) {
      const double uniform = eps / classes;
      for (int j = 0; j < classes; ++j) {
        const double q = uniform + (j == t ? 1.0 - eps : 0.0);
        dz[j] = static_cast<float>((p[j] - q) * scale);
      }
    }
  }
  result.loss = total * scale;
  return result;
}

}  // namespace tp::nn
