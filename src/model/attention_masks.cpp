// The mask rules of the three kinds of attention; see attention_masks.h.
#include "model/attention_masks.h"

#include "core/error.h"

namespace tp {

nn::MaskSpec mask_rule(const ModelConfig& c, AttentionKind kind, int layer) {
  nn::MaskSpec mask;
  if (kind == AttentionKind::Cross) return mask;
  mask.causal = kind == AttentionKind::DecoderSelf;
  if (c.layer_is_local(layer)) {
    mask.window = c.window;
    mask.global_tokens = c.global_tokens;
  }
  return mask;
}

std::vector<float> attention_mask(const ModelConfig& c, AttentionKind kind, int layer, int T,
                                  const std::vector<int>& key_ids, int pad_id) {
  TP_CHECK(layer >= 0 && layer < c.n_layers, "layer ", layer, " is out of range; this model has ", c.n_layers,
           " layers (0 .. ", c.n_layers - 1, ")");
  TP_CHECK(kind != AttentionKind::EncoderSelf || c.has_encoder(), "this ", to_string(c.arch),
           " model has no encoder self-attention");
  TP_CHECK(kind == AttentionKind::EncoderSelf || c.has_decoder(), "this ", to_string(c.arch), " model has no decoder");
  TP_CHECK(kind != AttentionKind::Cross || c.arch == Arch::EncoderDecoder,
           "cross-attention is an encoder-decoder's; this model is ", to_string(c.arch));
  const int S = static_cast<int>(key_ids.size());
  TP_CHECK(T >= 1 && T <= 4096 && S >= 1 && S <= 4096, "a mask needs 1 .. 4096 queries and keys, got ", T,
           " queries and ", S, " keys");
  nn::MaskSpec m = mask_rule(c, kind, layer);
  m.key_ids = key_ids.data();
  m.pad_id = pad_id;
  return nn::mask_matrix(m, T, S);
}

}  // namespace tp
