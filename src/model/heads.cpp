// The output layer: logits over the vocabulary (lm, mlm; optionally tied to the embedding), per
// sequence classes from the <CLS> position or the mean of the positions that are not padding
// (the batch's pad_id), or per-token classes — forward and backward side by side.
#include <cstring>

#include "core/error.h"
#include "core/profiler.h"
#include "kernels/kernels.h"
#include "model/transformer.h"

namespace tp {

using kernels::Trans;

void Transformer::output_logits(const float* hidden, int rows, float* logits) const {
  const ModelConfig& c = config_;
  if (c.head == HeadKind::Lm || c.head == HeadKind::Mlm) {
    const int W = lm_head_ >= 0 ? lm_head_ : embedding_.table;
    if (rows < nn::kMatvecRows) {  // generation: one pass over the [V, D] matrix
      kernels::matvec(rows, c.vocab_size, c.d_model, hidden, c.d_model, params_.weights(W), nullptr, logits,
                      c.vocab_size);
      return;
    }
    kernels::matmul(Trans::N, Trans::T, rows, c.vocab_size, c.d_model, hidden, c.d_model, params_.value(W), c.d_model,
                    logits, c.vocab_size);
  } else {
    class_head_.forward(params_, hidden, logits, rows);
  }
}

void Transformer::head_forward(const float* hidden, int B, int T, const int* ids, int pad_id, Trace* trace) {
  ProfileScope scope(ProfileKind::Head, false);
  const ModelConfig& c = config_;
  const int D = c.d_model, out = c.output_size();
  if (c.head == HeadKind::Cls || c.head == HeadKind::Mean) {
    float* pooled = arena_.alloc(static_cast<std::size_t>(B) * D);
    for (int b = 0; b < B; ++b) {
      float* p = pooled + static_cast<std::size_t>(b) * D;
      const float* h = hidden + static_cast<std::size_t>(b) * T * D;
      if (c.head == HeadKind::Cls) {
        std::memcpy(p, h, sizeof(float) * D);
        continue;
      }
      std::fill(p, p + D, 0.0f);
      int count = 0;
      for (int t = 0; t < T; ++t) {
        if (ids[b * T + t] == pad_id) continue;
        kernels::axpy(1.0f, h + static_cast<std::size_t>(t) * D, p, D);
        ++count;
      }
      if (count > 0) kernels::scale(p, 1.0f / count, p, D);
    }
    head_in_ = pooled;
    logit_rows_ = B;
    if (trace) trace->record("pooled", {1, D}, pooled);
  } else {
    head_in_ = const_cast<float*>(hidden);
    logit_rows_ = B * T;
  }
  logits_ = arena_.alloc(static_cast<std::size_t>(logit_rows_) * out);
  output_logits(head_in_, logit_rows_, logits_);
  if (trace) trace->record("logits", {logit_rows_ / B, out}, logits_);
}

void Transformer::head_backward(const float* hidden, int B, int T, const int* ids, int pad_id, float* dhidden) {
  ProfileScope scope(ProfileKind::Head, true);
  const ModelConfig& c = config_;
  const int D = c.d_model, out = c.output_size();
  if (c.head == HeadKind::Lm || c.head == HeadKind::Mlm) {
    const int W = lm_head_ >= 0 ? lm_head_ : embedding_.table;
    // logits = h Wᵀ:  dW += dlogitsᵀ h,  dh = dlogits W
    kernels::matmul(Trans::T, Trans::N, out, D, logit_rows_, dlogits_, out, hidden, D, params_.grad(W), D, true);
    kernels::matmul(Trans::N, Trans::N, logit_rows_, D, out, dlogits_, out, params_.value(W), D, dhidden, D);
    return;
  }
  if (c.head == HeadKind::Token) {
    class_head_.backward(params_, hidden, dlogits_, dhidden, logit_rows_, false);
    return;
  }
  float* dpooled = arena_.alloc(static_cast<std::size_t>(B) * D);
  class_head_.backward(params_, head_in_, dlogits_, dpooled, B, false);
  std::fill(dhidden, dhidden + static_cast<std::size_t>(B) * T * D, 0.0f);
  for (int b = 0; b < B; ++b) {
    const float* g = dpooled + static_cast<std::size_t>(b) * D;
    float* dh = dhidden + static_cast<std::size_t>(b) * T * D;
    if (c.head == HeadKind::Cls) {
      std::memcpy(dh, g, sizeof(float) * D);
      continue;
    }
    int count = 0;
    for (int t = 0; t < T; ++t) count += ids[b * T + t] != pad_id;
    if (count == 0) continue;
    for (int t = 0; t < T; ++t) {
      if (ids[b * T + t] != pad_id) kernels::scale(g, 1.0f / count, dh + static_cast<std::size_t>(t) * D, D);
    }
  }
}

}  // namespace tp
