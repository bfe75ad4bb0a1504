// KvCache: the keys and values a decoder has already computed, so each new token costs one
// row of work per layer instead of re-running the whole prefix (llama2.c's layout: per layer,
// [capacity, n_kv_heads·head_dim] arrays).
//
// Self-attention K/V grow by one row per token. A sliding-window layer keeps only what its mask
// can still see — the global tokens plus the last `window` positions — in a ring buffer, so its
// memory stays bounded however long the generation runs. Cross-attention K/V are computed once
// from the encoder output. Rows hold K after RoPE, so cached keys never need re-rotating.
#pragma once

#include <vector>

namespace tp {

struct LayerCache {
  int capacity = 0;            // rows
  int ring_start = 0;          // first ring row (after the global rows); == capacity if no ring
  int used = 0;                // rows holding keys
  std::vector<float> k, v;     // [capacity, kv_dim]
  std::vector<int> positions;  // absolute position of each row
  std::vector<int> tokens;     // token id of each row (<PAD> keys are masked, as in forward())
  std::vector<float> cross_k, cross_v;  // [src_len, kv_dim], encoder-decoder only
};

struct KvCache {
  int kv_dim = 0;
  int src_len = 0;
  int next_position = 0;  // position of the next token to decode
  std::vector<LayerCache> layers;

  // Index of the row where the key of `position` goes in a layer (grows, or wraps in the ring).
  int row_for(LayerCache& layer, int position) const;
  std::size_t bytes() const;
};

}  // namespace tp
