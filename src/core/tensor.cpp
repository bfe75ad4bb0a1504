// Tensor views and copies; see tensor.h for the ownership rules.
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
  t.set_contiguous_strides();
  return t;
}

Tensor Tensor::zeros(const Shape& shape) { return full(shape, 0.0f); }

Tensor Tensor::full(const Shape& shape, float value) {
  Tensor t = empty(shape);
  t.fill(value);
  return t;
}

Tensor Tensor::view(float* data, const Shape& shape) {
  Tensor t;
  t.shape_ = shape;
  t.data_ = data;
  t.set_contiguous_strides();
  return t;
}

void Tensor::set_contiguous_strides() {
  std::int64_t s = 1;
  for (int d = shape_.ndim - 1; d >= 0; --d) {
    strides_[d] = s;
    s *= shape_.dims[d];
  }
}

int Tensor::size(int d) const {
  TP_ASSERT(d >= 0 && d < shape_.ndim);
  return shape_.dims[d];
}

std::int64_t Tensor::stride(int d) const {
  TP_ASSERT(d >= 0 && d < shape_.ndim);
  return strides_[d];
}

bool Tensor::is_contiguous() const {
  std::int64_t s = 1;
  for (int d = shape_.ndim - 1; d >= 0; --d) {
    if (shape_.dims[d] != 1 && strides_[d] != s) return false;
    s *= shape_.dims[d];
  }
  return true;
}

std::int64_t Tensor::offset_of(std::initializer_list<int> index) const {
  TP_ASSERT(static_cast<int>(index.size()) == shape_.ndim);
  std::int64_t offset = 0;
  int d = 0;
  for (int i : index) {
    TP_ASSERT(i >= 0 && i < shape_.dims[d]);
    offset += i * strides_[d];
    ++d;
  }
  return offset;
}

float& Tensor::at(std::initializer_list<int> index) { return data_[offset_of(index)]; }
float Tensor::at(std::initializer_list<int> index) const { return data_[offset_of(index)]; }

Tensor Tensor::slice(int d, int start, int end) const {
  TP_ASSERT(d >= 0 && d < shape_.ndim);
  TP_ASSERT(0 <= start && start <= end && end <= shape_.dims[d]);
  Tensor t = *this;
  t.data_ = data_ + start * strides_[d];
  t.shape_.dims[d] = end - start;
  return t;
}

Tensor Tensor::select(int d, int index) const {
  TP_ASSERT(d >= 0 && d < shape_.ndim);
  TP_ASSERT(index >= 0 && index < shape_.dims[d]);
  Tensor t = *this;
  t.data_ = data_ + index * strides_[d];
  for (int i = d; i + 1 < shape_.ndim; ++i) {
    t.shape_.dims[i] = shape_.dims[i + 1];
    t.strides_[i] = strides_[i + 1];
  }
  t.shape_.ndim = shape_.ndim - 1;
  t.shape_.dims[t.shape_.ndim] = 0;
  t.strides_[t.shape_.ndim] = 0;
  return t;
}

Tensor Tensor::transpose(int d0, int d1) const {
  TP_ASSERT(d0 >= 0 && d0 < shape_.ndim && d1 >= 0 && d1 < shape_.ndim);
  Tensor t = *this;
  std::swap(t.shape_.dims[d0], t.shape_.dims[d1]);
  std::swap(t.strides_[d0], t.strides_[d1]);
  return t;
}

Tensor Tensor::reshape(const Shape& shape) const {
  TP_CHECK(shape.numel() == numel(), "cannot reshape ", shape_.str(), " (", numel(), " elements) to ", shape.str(),
           " (", shape.numel(), " elements)");
  TP_ASSERT(is_contiguous());
  Tensor t = *this;
  t.shape_ = shape;
  t.set_contiguous_strides();
  return t;
}

namespace {
// Calls fn(dst_offset, src_offset) for every element, walking both tensors' strides.
template <typename Fn>
void for_each_index(const Shape& shape, const std::int64_t* a_strides, const std::int64_t* b_strides, Fn fn) {
  if (shape.numel() == 0) return;
  int index[kMaxDims] = {0, 0, 0, 0};
  const int n = shape.ndim;
  while (true) {
    std::int64_t a = 0, b = 0;
    for (int d = 0; d < n; ++d) {
      a += index[d] * a_strides[d];
      b += index[d] * b_strides[d];
    }
    fn(a, b);
    int d = n - 1;
    while (d >= 0 && ++index[d] == shape.dims[d]) index[d--] = 0;
    if (d < 0) return;
  }
}
}  // namespace

Tensor Tensor::clone() const {
  Tensor t = empty(shape_);
  t.copy_from(*this);
  return t;
}

void Tensor::fill(float value) {
  if (is_contiguous()) {
    std::fill(data_, data_ + numel(), value);
    return;
  }
  for_each_index(shape_, strides_, strides_, [&](std::int64_t a, std::int64_t) { data_[a] = value; });
}

void Tensor::copy_from(const Tensor& src) {
  TP_CHECK(src.shape() == shape_, "cannot copy a tensor of shape ", src.shape().str(), " into one of shape ",
           shape_.str());
  if (is_contiguous() && src.is_contiguous()) {
    std::copy(src.data_, src.data_ + numel(), data_);
    return;
  }
  for_each_index(shape_, strides_, src.strides_, [&](std::int64_t a, std::int64_t b) { data_[a] = src.data_[b]; });
}

}  // namespace tp
