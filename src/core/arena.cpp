// Arena chunk management; see arena.h.
#include "core/arena.h"

#include <algorithm>

namespace tp {

namespace {
constexpr std::size_t kAlignFloats = 16;  // 64 bytes
std::size_t round_up(std::size_t n) { return (n + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }
}  // namespace

float* Arena::alloc(std::size_t n) {
  n = round_up(std::max<std::size_t>(n, 1));
  requested_ += n;
  while (chunk_ < chunks_.size() && used_ + n > chunks_[chunk_].size()) {
    ++chunk_;
    used_ = 0;
  }
  if (chunk_ == chunks_.size()) {
    chunks_.emplace_back(std::max(n, chunk_floats_));
    used_ = 0;
    spilled_ = true;
  }
  float* p = chunks_[chunk_].data() + used_;
  used_ += n;
  return p;
}

float* Arena::zeros(std::size_t n) {
  float* p = alloc(n);
  std::fill(p, p + n, 0.0f);
  return p;
}

void Arena::reset() {
  if (spilled_ && chunks_.size() > 1) {
    // One chunk for everything the last pass needed, with room to grow.
    const std::size_t size = round_up(std::max(chunk_floats_, requested_ + requested_ / 2));
    chunks_.clear();
    chunks_.emplace_back(size);
  }
  chunk_ = 0;
  used_ = 0;
  requested_ = 0;
  spilled_ = false;
}

std::size_t Arena::capacity() const {
  std::size_t total = 0;
  for (const auto& c : chunks_) total += c.size();
  return total;
}

}  // namespace tp
