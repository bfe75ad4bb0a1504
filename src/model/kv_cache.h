// KvCache: per decoder layer, the keys and values generation has already computed (nn::KvRows,
// a ring buffer for sliding-window layers) and the cross-attention keys and values of the
// encoded source (computed once). Transformer::start_decoding() makes one; decode() extends it.
#pragma once

#include <cstddef>
#include <vector>

#include "nn/kv_rows.h"

namespace tp {

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
