// Softmax cross-entropy with ignored targets and optional label smoothing, fused with its
// gradient (the backward of softmax + cross-entropy is one subtraction, so computing both at once
// is both faster and more accurate than chaining the two layers).
#pragma once

namespace tp::nn {

struct LossResult {
  double loss = 0.0;  // mean over counted targets (0 when none)
  int counted = 0;    // targets != -1
  int correct = 0;    // counted targets whose argmax logit is the target
};

// logits [rows, classes]; targets [rows] with −1 = ignore. When dlogits is non-null it receives
// ∂loss/∂logits (zeros on ignored rows), already divided by the number of counted targets.
// probs (optional, [rows, classes]) receives the softmax. Throws tp::Error on a target outside
// [−1, classes).
LossResult cross_entropy(const float* logits, const int* targets, int rows, int classes, float label_smoothing,
                         float* dlogits, float* probs = nullptr);

}  // namespace tp::nn
