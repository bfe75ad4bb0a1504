// Cross-entropy over rows of logits: the SIMD softmax per row, one log per row, and the gradient
// p − q where q is the (smoothed) target distribution.
#include "nn/loss.h"

#include <algorithm>
#include <vector>

#include "core/det_math.h"
#include "core/error.h"
#include "core/thread_pool.h"
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
  // Rows are independent, so they split across the thread pool; each row's loss is kept and the
  // total summed in row order afterwards, as one thread sums it. Softmax rows go straight into
  // `probs` when the caller keeps them (training always does).
  // (Thread-local storage reused from call to call; taken by reference here, since a name of
  // thread_local storage inside a task would mean the worker's own.)
  static thread_local std::vector<double> row_loss_storage;
  static thread_local std::vector<float> scratch_storage;
  static thread_local std::vector<int> correct_storage;
  std::vector<double>& row_loss = row_loss_storage;
  std::vector<float>& scratch = scratch_storage;
  std::vector<int>& correct = correct_storage;  // per thread slot
  const int slots = threads::count();
  row_loss.assign(static_cast<std::size_t>(rows), 0.0);
  correct.assign(static_cast<std::size_t>(slots), 0);
  if (!probs && scratch.size() < static_cast<std::size_t>(slots) * classes)
    scratch.resize(static_cast<std::size_t>(slots) * classes);
  threads::parallel_split(rows, 1, 40.0 * rows * classes, [&](int r0, int r1, int slot) {
    for (int r = r0; r < r1; ++r) {
      const float* z = logits + static_cast<long>(r) * classes;
      float* p = probs ? probs + static_cast<long>(r) * classes : scratch.data() + static_cast<long>(slot) * classes;
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
      double loss = (1.0 - eps) * (log_sum - z[t]);
      if (eps > 0.0) loss += eps * (log_sum - kernels::sum(z, classes) / static_cast<double>(classes));
      row_loss[r] = loss;
      if (arg == t) ++correct[slot];
      if (dz) {
        const double uniform = eps / classes;
        for (int j = 0; j < classes; ++j) {
          const double q = uniform + (j == t ? 1.0 - eps : 0.0);
          dz[j] = static_cast<float>((p[j] - q) * scale);
        }
      }
    }
  });
  double total = 0.0;
  for (int r = 0; r < rows; ++r) {
    if (targets[r] >= 0) total += row_loss[r];
  }
  for (int c : correct) result.correct += c;
  result.loss = total * scale;
  return result;
}

}  // namespace tp::nn
