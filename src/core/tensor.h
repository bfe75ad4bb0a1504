// Shape and Tensor: the shape of a parameter or an intermediate (up to 4 dimensions, row-major),
// and a contiguous f32 array with one.
//
// The layers do not take Tensors: like llm.c's, they take raw pointers into the parameter slabs
// and the activation arena with a shape comment on each (src/nn), and their products read
// strided rows in place (kernels::matmul's leading dimensions). A Tensor is what leaves that
// world: an entry of a Trace, or a parameter's copy for the bindings. Sizes are `int` (a
// playground model never has a dimension above 2^31).
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

// A contiguous f32 array with its shape: the entries a Trace records and the copies of
// parameters the bindings hand to JavaScript. It owns its storage (empty(), zeros()) or views
// memory that something else owns and keeps alive (view(): a parameter slab).
class Tensor {
 public:
  Tensor() = default;
  // New owning tensors. empty() leaves contents uninitialised.
  static Tensor empty(const Shape& shape);
  static Tensor zeros(const Shape& shape);
  // A view of memory owned elsewhere; the caller keeps it alive.
  static Tensor view(float* data, const Shape& shape);

  int dim() const { return shape_.ndim; }
  int size(int d) const;
  const Shape& shape() const { return shape_; }
  std::int64_t numel() const { return shape_.numel(); }
  bool defined() const { return shape_.ndim > 0; }

  float* data() { return data_; }
  const float* data() const { return data_; }

  // Element access by index (row-major); every index is bounds-checked with TP_ASSERT.
  float& at(std::initializer_list<int> index) { return data_[offset_of(index)]; }
  float at(std::initializer_list<int> index) const { return data_[offset_of(index)]; }

 private:
  std::shared_ptr<AlignedBuffer> storage_;
  float* data_ = nullptr;
  Shape shape_;

  std::int64_t offset_of(std::initializer_list<int> index) const;
};

}  // namespace tp
