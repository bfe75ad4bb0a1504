// ParameterSet registration and slabs; see params.h.
#include "core/params.h"

#include <algorithm>
#include <limits>

#include "core/error.h"
#include "core/thread_pool.h"

namespace tp {

int ParameterSet::add(const std::string& name, const Shape& shape, bool decay) {
  TP_ASSERT(!finalized_);
  TP_ASSERT(find(name) < 0);
  const std::size_t size = static_cast<std::size_t>(shape.numel());
  infos_.push_back({name, shape, slab_size_, size, decay});
  slab_size_ += (size + 15) / 16 * 16;  // next tensor on a 64-byte boundary
  return static_cast<int>(infos_.size()) - 1;
}

void ParameterSet::finalize(bool zero) {
  TP_ASSERT(!finalized_);
  values_ = AlignedBuffer(slab_size_);
  finalized_ = true;
  if (zero) {
    values_.fill(0.0f);
    return;
  }
#ifdef TP_POISON_UNSET_PARAMETERS
  values_.fill(std::numeric_limits<float>::quiet_NaN());
#endif
  // The padding is read by whole-slab loops (an optimizer step, a checksum) but no loader writes it.
  for (const ParamInfo& info : infos_) {
    const std::size_t end = info.offset + info.size, next = info.offset + (info.size + 15) / 16 * 16;
    std::fill(values_.data() + end, values_.data() + next, 0.0f);
  }
}

int ParameterSet::find(const std::string& name) const {
  for (std::size_t i = 0; i < infos_.size(); ++i) {
    if (infos_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int ParameterSet::index_of(const std::string& name) const {
  const int i = find(name);
  TP_CHECK(i >= 0, "this model has no parameter named '", name, "'");
  return i;
}

std::size_t ParameterSet::numel() const {
  std::size_t n = 0;
  for (const auto& info : infos_) n += info.size;
  return n;
}

void ParameterSet::ensure_training_state() {
  TP_ASSERT(finalized_);
  if (has_training_state() || slab_size_ == 0) return;
  grads_ = AlignedBuffer(slab_size_);
  adam_m_ = AlignedBuffer(slab_size_);
  adam_v_ = AlignedBuffer(slab_size_);
  grads_.fill(0.0f);
  reset_optimizer_state();
}

void ParameterSet::zero_grad() {
  if (!has_training_state()) return;
  // Once per training step over the whole slab: split across the thread pool when it is large.
  float* g = grads_.data();
  threads::parallel_split(static_cast<int>(grads_.size()), 1024, 0.5 * static_cast<double>(grads_.size()),
                          [&](int begin, int end, int) { std::fill(g + begin, g + end, 0.0f); });
}

void ParameterSet::reset_optimizer_state() {
  if (!has_training_state()) return;
  adam_m_.fill(0.0f);
  adam_v_.fill(0.0f);
}

}  // namespace tp
