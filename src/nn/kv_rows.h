// KvRows: the keys and values one attention layer has already computed, kept for generation so
// each new token costs one row of work instead of re-running the whole prefix (llama2.c's
// layout: plain [capacity, n_kv_heads·head_dim] arrays).
//
// Rows grow by one per token, and so does the storage (geometrically, up to `capacity`): a cache
// costs the memory of the tokens it holds, not of the whole context. A sliding-window layer keeps only what its mask
// can still see — the global tokens plus the last `window` positions — in a ring buffer, so its memory stays bounded
// however long generation runs. Keys are stored after RoPE, so cached keys never need rotating
// again.
#pragma once

#include <cstddef>
#include <vector>

namespace tp::nn {

struct KvRows {
  int capacity = 0;            // rows it may hold
  int ring_start = 0;          // first ring row (after the global rows); == capacity: no ring
  int used = 0;                // rows holding keys
  int kv_dim = 0;              // floats per row
  std::vector<float> k, v;     // [rows allocated, kv_dim], rows allocated <= capacity
  std::vector<int> positions;  // absolute position of each row
  std::vector<int> tokens;     // token id of each row (<PAD> keys are masked, as in a full pass)

  // An empty cache of up to `capacity` rows of `kv_dim` floats; rows from `ring_start` on form
  // the ring. Nothing is allocated until rows come.
  static KvRows create(int capacity, int ring_start, int kv_dim);
  // The row where the key of `position` goes — the next free one (storage grows to hold it), or
  // the ring's oldest.
  int row_for(int position);
  std::size_t bytes() const;
};

}  // namespace tp::nn
