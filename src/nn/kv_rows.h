// KvRows: the keys and values one attention layer has already computed, kept for generation so
// each new token costs one row of work instead of re-running the whole prefix (llama2.c's
// layout: plain [capacity, n_kv_heads·head_dim] arrays).
//
// Rows grow by one per token. A sliding-window layer keeps only what its mask can still see — the
// global tokens plus the last `window` positions — in a ring buffer, so its memory stays bounded
// however long generation runs. Keys are stored after RoPE, so cached keys never need rotating
// again.
#pragma once

#include <cstddef>
#include <vector>

namespace tp::nn {

struct KvRows {
  int capacity = 0;            // rows
  int ring_start = 0;          // first ring row (after the global rows); == capacity: no ring
  int used = 0;                // rows holding keys
  std::vector<float> k, v;     // [capacity, kv_dim]
  std::vector<int> positions;  // absolute position of each row
  std::vector<int> tokens;     // token id of each row (<PAD> keys are masked, as in a full pass)

  // Storage for `capacity` rows of `kv_dim` floats; rows from `ring_start` on form the ring.
  static KvRows create(int capacity, int ring_start, int kv_dim);
  // The row where the key of `position` goes: the next free one, or the ring's oldest.
  int row_for(int position);
  std::size_t bytes() const;
};

}  // namespace tp::nn
