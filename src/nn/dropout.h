// Inverted dropout: in training, each value is kept with probability 1 − p and scaled by
// 1/(1 − p), so evaluation needs no rescaling. The mask is saved for backward.
#pragma once

#include "core/rng.h"

namespace tp::nn {

// x *= mask in place, mask[i] ∈ {0, 1/(1−p)} drawn from rng. p == 0 leaves x untouched and
// mask unused (it may be null).
void dropout_forward(float* x, float* mask, int n, float p, Rng& rng);
// dx *= mask in place (p == 0: nothing).
void dropout_backward(float* dx, const float* mask, int n, float p);

}  // namespace tp::nn
