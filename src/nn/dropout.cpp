// Dropout masks from the model's RNG.
#include "nn/dropout.h"

namespace tp::nn {

void dropout_forward(float* x, float* mask, int n, float p, Rng& rng) {
  if (p <= 0.0f) return;
  const float keep_scale = 1.0f / (1.0f - p);
  for (int i = 0; i < n; ++i) {
    mask[i] = rng.uniform() < p ? 0.0f : keep_scale;
    x[i] *= mask[i];
  }
}

void dropout_backward(float* dx, const float* mask, int n, float p) {
  if (p <= 0.0f) return;
  for (int i = 0; i < n; ++i) dx[i] *= mask[i];
}

}  // namespace tp::nn
