// Learning-rate schedules: constant (after an optional linear warm-up), warm-up + cosine decay,
// and the original Transformer's "Noam" schedule.
#pragma once

#include "model/train_options.h"

namespace tp {

struct Schedule {
  ScheduleKind kind = ScheduleKind::Cosine;
  float lr = 1e-3f;        // peak learning rate (Noam: a multiplier on d_model^-0.5)
  int warmup = 0;          // steps of linear warm-up
  int total_steps = 1000;  // cosine: decays over this many steps, then stays at the floor
  float min_ratio = 0.1f;  // cosine floor as a fraction of lr
  int d_model = 64;        // Noam only

  // The learning rate for step `step` (1-based: the first update is step 1).
  float at(int step) const;
};

}  // namespace tp
