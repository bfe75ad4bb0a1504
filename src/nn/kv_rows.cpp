// Row placement in the cache, including the ring buffer of sliding-window layers.
#include "nn/kv_rows.h"

#include "core/error.h"

namespace tp::nn {

KvRows KvRows::create(int capacity, int ring_start, int kv_dim) {
  KvRows r;
  r.capacity = capacity;
  r.ring_start = ring_start;
  r.k.assign(static_cast<std::size_t>(capacity) * kv_dim, 0.0f);
  r.v.assign(r.k.size(), 0.0f);
  r.positions.assign(capacity, 0);
  r.tokens.assign(capacity, 0);
  return r;
}

int KvRows::row_for(int position) {
  if (used < capacity) return used++;
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
