// Row placement in the cache, including the ring buffer of sliding-window layers.
#include "nn/kv_rows.h"

#include <algorithm>

#include "core/error.h"

namespace tp::nn {

KvRows KvRows::create(int capacity, int ring_start, int kv_dim) {
  KvRows r;
  r.capacity = capacity;
  r.ring_start = ring_start;
  r.kv_dim = kv_dim;
  return r;
}

int KvRows::row_for(int position) {
  if (used < capacity) {
    if (used >= static_cast<int>(positions.size())) {
      // Doubling keeps the copies to about one per row on average.
      const int rows = std::min(capacity, std::max({used + 1, 2 * used, 16}));
      k.resize(static_cast<std::size_t>(rows) * kv_dim);
      v.resize(k.size());
      positions.resize(static_cast<std::size_t>(rows));
      tokens.resize(static_cast<std::size_t>(rows));
    }
    return used++;
  }
  // Full: only a ring may overwrite, and then the oldest non-global row (which the window can no
  // longer see) is replaced.
  TP_ASSERT(ring_start < capacity);
  const int ring = capacity - ring_start;
  return ring_start + (position - ring_start) % ring;
}

std::size_t KvRows::bytes() const {
  return (k.size() + v.size()) * sizeof(float) + (positions.size() + tokens.size()) * sizeof(int);
}

}  // namespace tp::nn
