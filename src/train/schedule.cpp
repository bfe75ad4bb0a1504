// Learning-rate schedule formulas.
#include "train/schedule.h"

#include <algorithm>
#include <cmath>

#include "core/det_math.h"
#include "core/error.h"

namespace tp {

float Schedule::at(int step) const {
  step = std::max(step, 1);
  switch (kind) {
    case ScheduleKind::Noam: {
      // lr · d^-0.5 · min(step^-0.5, step · warmup^-1.5)   (Vaswani et al. 2017, eq. 3)
      const double w = std::max(warmup, 1);
      return static_cast<float>(lr / std::sqrt(static_cast<double>(d_model)) *
                                std::min(1.0 / std::sqrt(static_cast<double>(step)), step / (w * std::sqrt(w))));
    }
    case ScheduleKind::Constant:
      return step <= warmup ? lr * step / warmup : lr;
    case ScheduleKind::Cosine: {
      if (step <= warmup) return lr * step / warmup;
      const double span = std::max(1, total_steps - warmup);
      const double progress = std::min(1.0, (step - warmup) / span);
      const double pi = 3.14159265358979323846;
      return static_cast<float>(lr * (min_ratio + (1.0 - min_ratio) * 0.5 * (1.0 + det::cos(pi * progress))));
    }
  }
  return lr;
}

}  // namespace tp
