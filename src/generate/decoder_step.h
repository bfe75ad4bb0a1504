// Incremental decoding with a KV cache: the decoder's forward pass for a few new tokens at the
// end of a sequence, reusing the keys and values of everything before them.
#pragma once

#include <vector>

#include "generate/kv_cache.h"
#include "model/transformer.h"

namespace tp {

// A cache sized for this model (and, for encoder-decoder models, filled with the cross-attention
// K/V of `source`, which is encoded once here).
KvCache make_kv_cache(Transformer& model, const std::vector<int>& source);

// Runs tokens[0..n) at positions cache.next_position.. through the decoder, appending their K/V,
// and writes the logits of the last token to `logits` [vocab]. With a trace, records the
// attention of this step (the page's live view while generating).
void decode_step(Transformer& model, KvCache& cache, const int* tokens, int n, float* logits);

}  // namespace tp
