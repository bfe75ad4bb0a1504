// AlignedBuffer: a fixed-size, 64-byte-aligned float array.
//
// 64 bytes is a cache line and the width of an AVX-512 register, so every tensor, slab and
// packing buffer starts on a boundary any kernel can load from without a split. The buffer
// never reallocates behind the caller's back: views taken into it stay valid for its lifetime.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tp {

constexpr std::size_t kAlignment = 64;

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(std::size_t count);  // uninitialised contents
  ~AlignedBuffer();
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  float* data() { return data_; }
  const float* data() const { return data_; }
  std::size_t size() const { return size_; }
  void fill(float value);

 private:
  float* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace tp
