// Tensor: an f32 array of up to 4 dimensions with row-major strides.
//
// A Tensor either owns shared storage (AlignedBuffer) or views memory that something else owns
// (a parameter slab, an activation arena). Slicing, selecting, reshaping and transposing return
// views that share the storage, so no layer ever copies to change how it looks at data. Shapes
// are `int` (a playground model never has a dimension above 2^31) and strides are in elements.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

#include "core/aligned_buffer.h"

namespace tp {

constexpr int kMaxDims = 4;

struct Shape {
  int ndim = 0;
  int dims[kMaxDims] = {0, 0, 0, 0};

  Shape() = default;
  Shape(std::initializer_list<int> sizes);
  int operator[](int d) const { return dims[d]; }
  std::int64_t numel() const;
  bool operator==(const Shape& other) const;
  bool operator!=(const Shape& other) const { return !(*this == other); }
  std::string str() const;  // "[2, 3, 4]"
};

class Tensor {
 public:
  Tensor() = default;
  // New owning tensors. empty() leaves contents uninitialised.
  static Tensor empty(const Shape& shape);
  static Tensor zeros(const Shape& shape);
  static Tensor full(const Shape& shape, float value);
  // A contiguous view of memory owned elsewhere; the caller keeps it alive.
  static Tensor view(float* data, const Shape& shape);

  int dim() const { return shape_.ndim; }
  int size(int d) const;
  const Shape& shape() const { return shape_; }
  std::int64_t stride(int d) const;
  std::int64_t numel() const { return shape_.numel(); }
  bool defined() const { return shape_.ndim > 0; }
  bool is_contiguous() const;

  float* data() { return data_; }
  const float* data() const { return data_; }

  // Element access by index; every index is bounds-checked with TP_ASSERT.
  float& at(std::initializer_list<int> index);
  float at(std::initializer_list<int> index) const;

  // Views (no copy).
  Tensor slice(int d, int start, int end) const;  // [start, end) along d
  Tensor select(int d, int index) const;          // drops dimension d
  Tensor transpose(int d0, int d1) const;
  Tensor reshape(const Shape& shape) const;  // requires contiguity

  Tensor clone() const;  // contiguous owning copy
  void fill(float value);
  void copy_from(const Tensor& src);  // same shape, any strides

 private:
  std::shared_ptr<AlignedBuffer> storage_;
  float* data_ = nullptr;
  Shape shape_;
  std::int64_t strides_[kMaxDims] = {0, 0, 0, 0};

  void set_contiguous_strides();
  std::int64_t offset_of(std::initializer_list<int> index) const;
};

}  // namespace tp
