// decode_step: the same sublayers as model/stack.cpp, for n new rows against cached keys.
#include "generate/decoder_step.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "kernels/kernels.h"
#include "nn/attention.h"

namespace tp {

KvCache make_kv_cache(Transformer& model, const std::vector<int>& source) {
  const ModelConfig& c = model.config();
  TP_CHECK(c.has_decoder(), "generation needs a model with a decoder; this one is ", to_string(c.arch));
  KvCache cache;
  cache.kv_dim = c.kv_heads() * c.head_dim();
  const auto& layers = model.decoder_layers();
  cache.layers.resize(layers.size());
  for (std::size_t l = 0; l < layers.size(); ++l) {
    LayerCache& lc = cache.layers[l];
    if (layers[l].local) {
      lc.ring_start = std::min(c.global_tokens, c.max_len);
      lc.capacity = std::min(c.max_len, c.global_tokens + c.window);
    } else {
      lc.capacity = c.max_len;
      lc.ring_start = c.max_len;
    }
    lc.k.assign(static_cast<std::size_t>(lc.capacity) * cache.kv_dim, 0.0f);
    lc.v.assign(lc.k.size(), 0.0f);
    lc.positions.assign(lc.capacity, 0);
    lc.tokens.assign(lc.capacity, 0);
  }
  if (c.arch == Arch::EncoderDecoder) {
    TP_CHECK(!source.empty(), "an encoder-decoder model needs a non-empty source to generate from");
    const int S = static_cast<int>(source.size());
    cache.src_len = S;
    std::vector<float> enc(static_cast<std::size_t>(S) * c.d_model);
    model.encode(source.data(), 1, S, enc.data());
    for (std::size_t l = 0; l < layers.size(); ++l) {
      LayerCache& lc = cache.layers[l];
      lc.cross_k.resize(static_cast<std::size_t>(S) * cache.kv_dim);
      lc.cross_v.resize(lc.cross_k.size());
      layers[l].cross_attn.k.forward(model.params(), enc.data(), lc.cross_k.data(), S);
      layers[l].cross_attn.v.forward(model.params(), enc.data(), lc.cross_v.data(), S);
    }
  }
  return cache;
}

namespace {

// out = in + f(norm(in))  or  out = norm(in + f(in)), for n rows (no dropout: inference).
template <typename F>
void sublayer(const ParameterSet& params, bool pre, const nn::Norm& norm, float* x, int n, int D, Arena& arena, F f) {
  const std::size_t size = static_cast<std::size_t>(n) * D;
  float* mean = arena.alloc(n);
  float* rstd = arena.alloc(n);
  float* fx = arena.alloc(size);
  if (pre) {
    float* normed = arena.alloc(size);
    norm.forward(params, x, normed, mean, rstd, n);
    f(normed, fx);
    kernels::add(x, fx, x, static_cast<int>(size));
  } else {
    f(x, fx);
    kernels::add(x, fx, fx, static_cast<int>(size));
    norm.forward(params, fx, x, mean, rstd, n);
  }
}

}  // namespace

void decode_step(Transformer& model, KvCache& cache, const int* tokens, int n, float* logits) {
  const ModelConfig& c = model.config();
  const ParameterSet& params = model.params();
  const int D = c.d_model, H = c.n_heads, G = c.kv_heads(), dh = c.head_dim(), kvd = cache.kv_dim;
  const int pos0 = cache.next_position;
  TP_CHECK(n >= 1, "decode_step needs at least one token");
  // A ring buffer holds only `window` keys: feeding several tokens at once could overwrite a key
  // an earlier token of the same call still needs, so windowed models take them one by one.
  if (n > 1 && c.window > 0) {
    for (int i = 0; i < n; ++i) decode_step(model, cache, tokens + i, 1, logits);
    return;
  }
  TP_CHECK(pos0 + n <= c.max_len, "the sequence would reach ", pos0 + n, " tokens, past this model's max_len = ",
           c.max_len);
  Arena& arena = model.scratch();
  arena.reset();
  float* x = arena.alloc(static_cast<std::size_t>(n) * D);
  model.embedding().forward(params, tokens, 1, n, x, pos0);
  std::vector<int> positions(n);
  for (int i = 0; i < n; ++i) positions[i] = pos0 + i;
  const bool pre = c.norm_placement == NormPlacement::Pre;
  const auto& layers = model.decoder_layers();
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const LayerModules& m = layers[l];
    LayerCache& lc = cache.layers[l];
    sublayer(params, pre, m.norm1, x, n, D, arena, [&](const float* in, float* out) {
      const nn::Attention& a = m.self_attn;
      float* q = arena.alloc(static_cast<std::size_t>(n) * H * dh);
      float* k = arena.alloc(static_cast<std::size_t>(n) * kvd);
      a.q.forward(params, in, q, n);
      a.k.forward(params, in, k, n);
      for (int i = 0; i < n; ++i) {  // append each new key/value row (v straight into the cache)
        const int row = cache.row_for(lc, pos0 + i);
        lc.positions[row] = pos0 + i;
        lc.tokens[row] = tokens[i];
        if (a.rope) nn::rope_forward(k + static_cast<std::size_t>(i) * kvd, 1, G, dh, &positions[i], *a.rope_table);
        std::memcpy(&lc.k[static_cast<std::size_t>(row) * kvd], k + static_cast<std::size_t>(i) * kvd, sizeof(float) * kvd);
        a.v.forward(params, in + static_cast<std::size_t>(i) * D, &lc.v[static_cast<std::size_t>(row) * kvd], 1);
      }
      if (a.rope) nn::rope_forward(q, n, H, dh, positions.data(), *a.rope_table);
      nn::MaskSpec mask;
      mask.causal = true;
      mask.query_pos0 = pos0;
      mask.key_pos = lc.positions.data();
      mask.key_ids = lc.tokens.data();
      if (m.local) {
        mask.window = c.window;
        mask.global_tokens = c.global_tokens;
      }
      if (!a.alibi.empty()) mask.alibi = a.alibi.data();
      const nn::AttentionDims dims{1, n, lc.used, H, G, dh, lc.capacity};
      float* probs = arena.alloc(static_cast<std::size_t>(H) * n * lc.used);
      float* concat = arena.alloc(static_cast<std::size_t>(n) * H * dh);
      nn::attend(q, lc.k.data(), lc.v.data(), dims, mask, probs, concat, arena);
      a.o.forward(params, concat, out, n);
    });
    if (m.has_cross) {
      sublayer(params, pre, m.norm2, x, n, D, arena, [&](const float* in, float* out) {
        const nn::Attention& a = m.cross_attn;
        float* q = arena.alloc(static_cast<std::size_t>(n) * H * dh);
        a.q.forward(params, in, q, n);
        const nn::AttentionDims dims{1, n, cache.src_len, H, G, dh, 0};
        float* probs = arena.alloc(static_cast<std::size_t>(H) * n * cache.src_len);
        float* concat = arena.alloc(static_cast<std::size_t>(n) * H * dh);
        nn::attend(q, lc.cross_k.data(), lc.cross_v.data(), dims, nn::MaskSpec{}, probs, concat, arena);
        a.o.forward(params, concat, out, n);
      });
    }
    sublayer(params, pre, m.has_cross ? m.norm3 : m.norm2, x, n, D, arena, [&](const float* in, float* out) {
      nn::FeedForwardSaved saved;
      m.ffn.forward(params, in, out, n, arena, saved);
    });
  }
  const float* last = x + static_cast<std::size_t>(n - 1) * D;
  if (const nn::Norm* fn = model.decoder_final_norm()) {
    float* normed = arena.alloc(D);
    float* mean = arena.alloc(1);
    float* rstd = arena.alloc(1);
    fn->forward(params, last, normed, mean, rstd, 1);
    last = normed;
  }
  model.output_logits(last, 1, logits);
  cache.next_position = pos0 + n;
}

}  // namespace tp
