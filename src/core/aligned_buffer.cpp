// AlignedBuffer storage: aligned operator new, so memory comes from the normal heap in wasm too.
#include "core/aligned_buffer.h"

#include <algorithm>
#include <new>
#include <utility>

namespace tp {

AlignedBuffer::AlignedBuffer(std::size_t count) : size_(count) {
  if (count > 0) {
    data_ = static_cast<float*>(::operator new(count * sizeof(float), std::align_val_t(kAlignment)));
  }
}

AlignedBuffer::~AlignedBuffer() {
  if (data_) ::operator delete(data_, std::align_val_t(kAlignment));
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    if (data_) ::operator delete(data_, std::align_val_t(kAlignment));
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void AlignedBuffer::fill(float value) { std::fill(data_, data_ + size_, value); }

}  // namespace tp
