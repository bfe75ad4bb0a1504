// Which keys each query of an attention layer may see, from the config alone: the rule the
// forward pass, the generation steps and the page's mask view all take from here.
//
//   encoder self-attention: every key (a window on local layers);
//   decoder self-attention: keys at or before the query (and a window on local layers);
//   cross-attention:        every encoder position.
// Every kind also ignores <PAD> keys; the pass that runs it adds the key ids and the pad id.
#pragma once

#include <vector>

#include "model/config.h"
#include "nn/attention.h"

namespace tp {

enum class AttentionKind { EncoderSelf, DecoderSelf, Cross };

// The mask rule of `kind` attention in layer `layer` (a window where layer_is_local(layer)).
nn::MaskSpec mask_rule(const ModelConfig& c, AttentionKind kind, int layer);

// The additive mask [T, S] (0 where a query may attend, −inf where not) of `kind` attention in
// `layer` for T queries at positions 0..T-1 over keys with ids `key_ids` (S of them; keys equal
// to `pad_id` are masked; pad_id −1: none). What the model masks with, before any ALiBi bias.
std::vector<float> attention_mask(const ModelConfig& c, AttentionKind kind, int layer, int T,
                                  const std::vector<int>& key_ids, int pad_id);

}  // namespace tp
