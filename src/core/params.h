// ParameterSet: every parameter of a model in one slab, with named views.
//
// Values, gradients and the two AdamW moments are four parallel slabs with the same layout, so
// the optimizer is one loop over flat arrays and JS can look at any tensor without a copy.
// Each tensor starts on a 64-byte boundary. Gradient and Adam slabs are created on the first
// training use, so a model loaded only to generate costs one slab.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/aligned_buffer.h"
#include "core/dtype.h"
#include "core/tensor.h"

namespace tp {

struct ParamInfo {
  std::string name;  // FORMAT.md name, e.g. "dec.0.self_attn.q.weight"
  Shape shape;
  std::size_t offset;  // in floats, into every slab
  std::size_t size;    // numel
  bool decay;          // AdamW weight decay applies (not to norms, biases)
};

class ParameterSet {
 public:
  // Registration, before finalize(): returns the tensor's index.
  int add(const std::string& name, const Shape& shape, bool decay);
  // Allocates the value slab: zeros, or (zero = false) for a loader that writes every value
  // itself, left unset but for the padding between tensors. A build with
  // TP_POISON_UNSET_PARAMETERS (the sanitizer build) fills the unset values with NaN, so a value a
  // loader never wrote is seen by the finite-weight checks and the tests.
  void finalize(bool zero = true);

  int count() const { return static_cast<int>(infos_.size()); }
  const std::vector<ParamInfo>& infos() const { return infos_; }
  const ParamInfo& info(int index) const { return infos_[index]; }
  int find(const std::string& name) const;      // -1 if absent
  int index_of(const std::string& name) const;  // tp::Error if absent
  std::size_t slab_size() const { return slab_size_; }
  std::size_t numel() const;  // parameters (without padding)

  float* value(int index) { return values_.data() + infos_[index].offset; }
  const float* value(int index) const { return values_.data() + infos_[index].offset; }
  // A matrix parameter as the kernels read it (kernels::matvec).
  WeightView weights(int index) const { return {value(index), DType::F32, 0}; }
  float* values_slab() { return values_.data(); }
  const float* values_slab() const { return values_.data(); }

  // Training state (created on first call).
  void ensure_training_state();
  bool has_training_state() const { return grads_.size() > 0; }
  float* grad(int index) { return grads_.data() + infos_[index].offset; }
  float* grads_slab() { return grads_.data(); }
  float* adam_m_slab() { return adam_m_.data(); }
  float* adam_v_slab() { return adam_v_.data(); }
  void zero_grad();
  void reset_optimizer_state();

 private:
  std::vector<ParamInfo> infos_;
  std::size_t slab_size_ = 0;
  bool finalized_ = false;
  AlignedBuffer values_, grads_, adam_m_, adam_v_;
};

}  // namespace tp
