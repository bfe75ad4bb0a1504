// Arena: a bump allocator for activations that are rebuilt every step.
//
// A training step allocates the same sequence of buffers every time. The arena hands them out
// from 64-byte-aligned chunks and reset() rewinds to the start, so after the first step of a
// given batch shape no memory is allocated at all. Chunks never move, so pointers stay valid
// until the next reset(). When a pass needed more than the chunks held, reset() replaces them
// with one chunk 1.5x that pass's total, so a pass of the same shape then fits in one chunk, and
// passes that keep growing (generation without a cache) reallocate only O(log n) times.
#pragma once

#include <cstddef>
#include <vector>

#include "core/aligned_buffer.h"

namespace tp {

class Arena {
 public:
  explicit Arena(std::size_t chunk_floats = 1 << 18) : chunk_floats_(chunk_floats) {}

  // n floats, uninitialised, 64-byte aligned.
  float* alloc(std::size_t n);
  // n floats set to zero.
  float* zeros(std::size_t n);
  // Integers share the float storage (same size and alignment).
  int* alloc_ints(std::size_t n) { return reinterpret_cast<int*>(alloc(n)); }
  void reset();
  std::size_t capacity() const;  // floats held across all chunks

 private:
  std::size_t chunk_floats_;
  std::vector<AlignedBuffer> chunks_;
  std::size_t chunk_ = 0;      // chunk being filled
  std::size_t used_ = 0;       // floats used in it
  std::size_t requested_ = 0;  // floats handed out since the last reset
  bool spilled_ = false;       // this pass opened a new chunk
};

}  // namespace tp
