// AdamW with decoupled weight decay, and gradient clipping by global norm.
//
// The optimizer walks the four parameter slabs (values, gradients, first and second moments)
// tensor by tensor, so it can skip weight decay on norms and biases (ParamInfo::decay) while the
// inner update is one vector loop over contiguous floats.
#pragma once

#include "core/params.h"

namespace tp {

struct AdamWOptions {
  float beta1 = 0.9f;
  float beta2 = 0.98f;
  float eps = 1e-8f;
  float weight_decay = 0.01f;  // decoupled: p -= lr · wd · p, only where ParamInfo::decay
};

class AdamW {
 public:
  explicit AdamW(AdamWOptions options = {}) : options_(options) {}
  const AdamWOptions& options() const { return options_; }
  void set_options(const AdamWOptions& options) { options_ = options; }
  int step_count() const { return step_; }
  void reset() { step_ = 0; }

  // One update of every parameter with learning rate lr, from the gradients in the slab.
  void step(ParameterSet& params, float lr);

 private:
  AdamWOptions options_;
  int step_ = 0;
};

// √(Σ g²) over every gradient.
float global_grad_norm(ParameterSet& params);
// Scales all gradients so the global norm is at most max_norm (max_norm <= 0: no clipping).
// Returns the norm before clipping.
float clip_grad_norm(ParameterSet& params, float max_norm);

}  // namespace tp
