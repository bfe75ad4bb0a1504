// Trace storage; see trace.h.
#include "core/trace.h"

#include <algorithm>

#include "core/error.h"

namespace tp {

int Trace::index_of(const std::string& name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  return it == names_.end() ? -1 : static_cast<int>(it - names_.begin());
}

void Trace::record(const std::string& name, const Shape& shape, const float* data) {
  float* dst = nullptr;
  const int i = index_of(name);
  if (i >= 0 && tensors_[i].shape() == shape) {
    dst = tensors_[i].data();
  } else {
    Tensor t = Tensor::empty(shape);
    dst = t.data();
    if (i >= 0) {
      tensors_[i] = t;
    } else {
      names_.push_back(name);
      tensors_.push_back(t);
    }
  }
  std::copy(data, data + shape.numel(), dst);
}

float* Trace::slot(const std::string& name, const Shape& shape) {
  const int i = index_of(name);
  if (i >= 0 && tensors_[i].shape() == shape) return tensors_[i].data();
  Tensor t = Tensor::zeros(shape);
  if (i >= 0) {
    tensors_[i] = t;
  } else {
    names_.push_back(name);
    tensors_.push_back(t);
  }
  return t.data();
}

bool Trace::has(const std::string& name) const { return index_of(name) >= 0; }

const Tensor& Trace::get(const std::string& name) const {
  const int i = index_of(name);
  if (i < 0) {
    std::string some;
    for (std::size_t k = 0; k < names_.size() && k < 8; ++k) some += str_cat(k ? ", " : "", names_[k]);
    TP_FAIL("the trace has no entry '", name, "'; it has ", names_.size(), " entries (", some,
            names_.size() > 8 ? ", ..." : "", ")");
  }
  return tensors_[i];
}

void Trace::clear() {
  names_.clear();
  tensors_.clear();
}

}  // namespace tp
