// Trace: named intermediates of one forward pass, recorded only when asked for.
//
// The page shows every matrix of the model (per layer and head: Q, K, V, raw scores, scaled,
// masked, probabilities, head outputs; concat, W_O output, residuals, norms, FFN hidden, logits).
// Forward takes a Trace* that is null in training, so recording costs one pointer test per
// layer when off. Names are dotted paths ("dec.0.self_attn.probs"); the trace records the first
// sequence of the batch. Entries keep the order they were recorded in (the order of the
// forward pass), which is the order the walk-through presents them.
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"

namespace tp {

class Trace {
 public:
  // Copies `data` (contiguous, `shape`) under `name`, replacing an earlier entry of that name.
  void record(const std::string& name, const Shape& shape, const float* data);
  // Writable storage for `name` with `shape`, created (zero-filled) on first use; later calls
  // with the same name return the same storage. For values filled piece by piece (per head).
  float* slot(const std::string& name, const Shape& shape);

  bool has(const std::string& name) const;
  const Tensor& get(const std::string& name) const;  // tp::Error naming what exists
  const std::vector<std::string>& names() const { return names_; }
  std::size_t size() const { return names_.size(); }
  void clear();

 private:
  std::vector<std::string> names_;
  std::vector<Tensor> tensors_;
  int index_of(const std::string& name) const;
};

}  // namespace tp
