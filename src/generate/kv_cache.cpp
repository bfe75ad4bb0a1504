// Row placement in the cache, including the ring buffer of sliding-window layers.
#include "generate/kv_cache.h"

#include "core/error.h"

namespace tp {

int KvCache::row_for(LayerCache& layer, int position) const {
  if (layer.used < layer.capacity) return layer.used++;
  // Full: only a ring layer may overwrite, and then the oldest non-global row (which the window
  // can no longer see) is replaced.
  TP_ASSERT(layer.ring_start < layer.capacity);
  const int ring = layer.capacity - layer.ring_start;
  return layer.ring_start + (position - layer.ring_start) % ring;
}

std::size_t KvCache::bytes() const {
  std::size_t total = 0;
  for (const LayerCache& l : layers) {
    total += (l.k.size() + l.v.size() + l.cross_k.size() + l.cross_v.size()) * sizeof(float) +
             (l.positions.size() + l.tokens.size()) * sizeof(int);
  }
  return total;
}

}  // namespace tp
