// Shapes and tensors; see tensor.h.
#include "core/tensor.h"

#include <algorithm>
#include <sstream>

#include "core/error.h"

namespace tp {

Shape::Shape(std::initializer_list<int> sizes) {
  TP_CHECK(sizes.size() <= kMaxDims, "a tensor has at most ", kMaxDims, " dimensions, got ", sizes.size());
  for (int s : sizes) {
    TP_CHECK(s >= 0, "tensor sizes must be >= 0, got ", s);
    dims[ndim++] = s;
  }
}

std::int64_t Shape::numel() const {
  std::int64_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= dims[d];
  return n;
}

bool Shape::operator==(const Shape& other) const {
  if (ndim != other.ndim) return false;
  for (int d = 0; d < ndim; ++d) {
    if (dims[d] != other.dims[d]) return false;
  }
  return true;
}

std::string Shape::str() const {
  std::ostringstream out;
  out << '[';
  for (int d = 0; d < ndim; ++d) out << (d ? ", " : "") << dims[d];
  out << ']';
  return out.str();
}

Tensor Tensor::empty(const Shape& shape) {
  Tensor t;
  t.shape_ = shape;
  t.storage_ = std::make_shared<AlignedBuffer>(static_cast<std::size_t>(shape.numel()));
  t.data_ = t.storage_->data();
  return t;
}

Tensor Tensor::zeros(const Shape& shape) {
  Tensor t = empty(shape);
  std::fill(t.data_, t.data_ + t.numel(), 0.0f);
  return t;
}

Tensor Tensor::view(float* data, const Shape& shape) {
  Tensor t;
  t.shape_ = shape;
  t.data_ = data;
  return t;
}

std::int64_t Tensor::offset_of(std::initializer_list<int> index) const {
  TP_ASSERT(static_cast<int>(index.size()) == shape_.ndim);
  std::int64_t offset = 0;
  int d = 0;
  for (int i : index) {
    TP_ASSERT(i >= 0 && i < shape_.dims[d]);
    offset = offset * shape_.dims[d++] + i;
  }
  return offset;
}

int Tensor::size(int d) const {
  TP_ASSERT(d >= 0 && d < shape_.ndim);
  return shape_.dims[d];
}

}  // namespace tp
