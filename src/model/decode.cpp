// Generation steps: the decoder's forward pass for a few new tokens at the end of a sequence,
// reusing the keys and values of everything before them. The layers, the sublayer wiring
// (model/sublayer.h) and the masks are the ones forward() uses; only where K and V rows live
// differs (nn::Attention::forward_cached).
#include <algorithm>

#include "core/error.h"
#include "model/sublayer.h"
#include "model/transformer.h"

namespace tp {

std::vector<KvLayerLayout> kv_layout(const ModelConfig& c) {
  std::vector<KvLayerLayout> out;
  if (!c.has_decoder()) return out;
  for (int l = 0; l < c.n_layers; ++l) {
    KvLayerLayout k;
    // A windowed layer needs only the global rows and the last `window` rows: the rest is a ring.
    k.ring = c.layer_is_local(l);
    k.capacity = k.ring ? std::min(c.max_len, c.global_tokens + c.window) : c.max_len;
    k.ring_start = k.ring ? std::min(c.global_tokens, c.max_len) : c.max_len;
    out.push_back(k);
  }
  return out;
}

KvCache Transformer::start_decoding(const std::vector<int>& source, int pad_id) {
  const ModelConfig& c = config_;
  TP_CHECK(c.has_decoder(), "generation needs a model with a decoder; this one is ", to_string(c.arch));
  KvCache cache;
  cache.kv_dim = c.kv_heads() * c.head_dim();
  cache.pad_id = pad_id;
  const std::vector<KvLayerLayout> layout = kv_layout(c);
  cache.layers.resize(layout.size());
  for (std::size_t l = 0; l < layout.size(); ++l) {
    cache.layers[l].self = nn::KvRows::create(layout[l].capacity, layout[l].ring_start, cache.kv_dim);
  }
  if (c.arch == Arch::EncoderDecoder) {
    TP_CHECK(!source.empty(), "an encoder-decoder model needs a non-empty source to generate from");
    const int S = static_cast<int>(source.size());
    cache.src_len = S;
    std::vector<float> enc(static_cast<std::size_t>(S) * c.d_model);
    encode(source.data(), 1, S, pad_id, enc.data());
    for (std::size_t l = 0; l < dec_layers_.size(); ++l) {
      KvCache::Layer& lc = cache.layers[l];
      lc.cross_k.resize(static_cast<std::size_t>(S) * cache.kv_dim);
      lc.cross_v.resize(lc.cross_k.size());
      dec_layers_[l].cross_attn.project_kv(params_, enc.data(), S, nullptr, lc.cross_k.data(), lc.cross_v.data());
    }
  }
  return cache;
}

void Transformer::decode(KvCache& cache, const int* tokens, int n, float* logits) {
  const ModelConfig& c = config_;
  const int pos0 = cache.next_position;
  TP_CHECK(n >= 1, "decode() needs at least one token");
  // A ring buffer holds only `window` keys: feeding several tokens at once could overwrite a key
  // an earlier token of the same call still needs, so windowed models take them one by one.
  if (n > 1 && c.window > 0) {
    for (int i = 0; i < n; ++i) decode(cache, tokens + i, 1, logits);
    return;
  }
  TP_CHECK(pos0 + n <= c.max_len, "the sequence would reach ", pos0 + n, " tokens, past this model's ",
           schema::name_of(c, c.max_len), " = ", c.max_len);
  Arena& arena = scratch_;
  arena.reset();
  float* x = arena.alloc(static_cast<std::size_t>(n) * c.d_model);
  embedding_.forward(params_, tokens, 1, n, x, pos0);
  SublayerContext ctx = sublayer_context(n, false, arena);
  SublayerActs acts;  // inference: nothing is kept for a backward pass
  for (std::size_t l = 0; l < dec_layers_.size(); ++l) {
    const LayerModules& m = dec_layers_[l];
    KvCache::Layer& lc = cache.layers[l];
    const nn::MaskSpec mask = self_mask(static_cast<int>(l), false, nullptr, cache.pad_id);
    ctx.norm = &m.norm1;
    sublayer_forward(ctx, x, acts, nullptr, "", "", [&](const float* in, float* out) {
      m.self_attn.forward_cached(params_, in, n, pos0, tokens, lc.self, mask, out, arena);
    });
    x = acts.out;
    if (m.has_cross) {
      ctx.norm = &m.norm2;
      sublayer_forward(ctx, x, acts, nullptr, "", "", [&](const float* in, float* out) {
        m.cross_attn.forward_cross_cached(params_, in, n, lc.cross_k.data(), lc.cross_v.data(), cache.src_len,
                                          nn::MaskSpec{}, out, arena);
      });
      x = acts.out;
    }
    ctx.norm = m.has_cross ? &m.norm3 : &m.norm2;
    sublayer_forward(ctx, x, acts, nullptr, "", "", [&](const float* in, float* out) {
      nn::FeedForwardSaved saved;
      m.ffn.forward(params_, in, out, n, arena, saved);
    });
    x = acts.out;
  }
  const float* last = x + static_cast<std::size_t>(n - 1) * c.d_model;
  if (c.norm_placement == NormPlacement::Pre) {
    float* normed = arena.alloc(c.d_model);
    float* mean = arena.alloc(1);
    float* rstd = arena.alloc(1);
    dec_final_norm_.forward(params_, last, normed, mean, rstd, 1);
    last = normed;
  }
  output_logits(last, 1, logits);
  cache.next_position = pos0 + n;
}

}  // namespace tp
