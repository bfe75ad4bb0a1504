// KvCache: per decoder layer, the keys and values generation has already computed (nn::KvRows,
// a ring buffer for sliding-window layers) and the cross-attention keys and values of the
// encoded source (computed once). Transformer::start_decoding() makes one, laid out as
// kv_layout() says; decode() extends it.
#pragma once

#include <cstddef>
#include <vector>

#include "model/config.h"
#include "nn/kv_rows.h"

namespace tp {

// How one decoder layer's self-attention cache is laid out: every position up to max_len, or
// for a windowed layer its global rows and then a ring of `window` rows whose oldest slot the
// next row overwrites (nn::KvRows::row_for).
struct KvLayerLayout {
  bool ring = false;
  int capacity = 0;    // rows
  int ring_start = 0;  // first ring row; == capacity when there is no ring
};

// The layout of every decoder layer of a model with config `c` (empty without a decoder).
std::vector<KvLayerLayout> kv_layout(const ModelConfig& c);

struct KvCache {
  struct Layer {
    nn::KvRows self;
    std::vector<float> cross_k, cross_v;  // [src_len, kv_dim], encoder-decoder only
  };
  int kv_dim = 0;
  int src_len = 0;
  int next_position = 0;  // position of the next token to decode
  int pad_id = -1;        // keys holding this id are masked (-1: none)
  std::vector<Layer> layers;

  std::size_t bytes() const {
    std::size_t total = 0;
    for (const Layer& l : layers) total += l.self.bytes() + (l.cross_k.size() + l.cross_v.size()) * sizeof(float);
    return total;
  }
};

}  // namespace tp
