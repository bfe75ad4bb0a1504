// One stack (encoder or decoder) of residual sublayers (model/sublayer.h), forward and backward
// side by side: the backward is the forward read bottom-up.
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/profiler.h"
#include "kernels/kernels.h"
#include "model/attention_masks.h"
#include "model/sublayer.h"
#include "model/transformer.h"
#include "nn/dropout.h"

namespace tp {

SublayerContext Transformer::sublayer_context(int rows, bool train, Arena& arena) {
  SublayerContext c;
  c.pre = config_.norm_placement == NormPlacement::Pre;
  c.N = rows;
  c.D = config_.d_model;
  c.dropout = config_.dropout;
  c.train = train;
  c.params = &params_;
  c.arena = &arena;
  c.rng = &dropout_rng_;
  return c;
}

nn::MaskSpec Transformer::self_mask(int layer, bool encoder, const int* ids, int pad_id) const {
  nn::MaskSpec mask = mask_rule(config_, encoder ? AttentionKind::EncoderSelf : AttentionKind::DecoderSelf, layer);
  mask.key_ids = ids;
  mask.pad_id = pad_id;
  return mask;
}

void Transformer::run_stack(bool encoder, const int* ids, int B, int T, const float* enc_out, const int* src_ids, int S,
                            int pad_id, bool train, StackActs& acts, Trace* trace) {
  const int D = config_.d_model, N = B * T;
  const std::size_t size = static_cast<std::size_t>(N) * D;
  const std::string stack = encoder ? "enc" : "dec";
  std::vector<LayerModules>& layers = encoder ? enc_layers_ : dec_layers_;
  const bool drop = train && config_.dropout > 0.0f;

  acts.x0 = arena_.alloc(size);
  embedding_.forward(params_, ids, B, T, acts.x0);
  if (trace) {
    // The two addends of the embedding sum, for batch row 0.
    float* tokens = trace->slot(stack + ".embed.tokens", {T, D});
    float* positions = trace->slot(stack + ".embed.positions", {T, D});
    for (int t = 0; t < T; ++t) {
      std::memcpy(tokens + t * D, params_.value(embedding_.table) + static_cast<std::size_t>(ids[t]) * D,
                  sizeof(float) * D);
      embedding_.position_row(params_, t, positions + t * D);
    }
    trace->record(stack + ".embed.sum", {T, D}, acts.x0);
  }
  acts.emb_drop = drop ? arena_.alloc(size) : nullptr;
  if (drop) {
    ProfileScope scope(ProfileKind::Residual, false);
    nn::dropout_forward(acts.x0, acts.emb_drop, static_cast<int>(size), config_.dropout, dropout_rng_);
  }

  SublayerContext c = sublayer_context(N, train, arena_);
  acts.layers.resize(layers.size());
  const float* x = acts.x0;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    LayerModules& m = layers[l];
    LayerActs& la = acts.layers[l];
    // Trace names, built only when tracing (a training step allocates nothing).
    const std::string p = trace ? stack + "." + std::to_string(l) : std::string();
    const auto name = [&](const char* suffix) { return trace ? p + suffix : std::string(); };
    Trace* tr = trace;

    const nn::MaskSpec mask = self_mask(static_cast<int>(l), encoder, ids, pad_id);
    c.norm = &m.norm1;
    sublayer_forward(c, x, la.self, tr, name(".norm1"), name(".add1"), [&](const float* in, float* out) {
      m.self_attn.forward(params_, in, in, B, T, T, mask, out, arena_, la.self_saved, tr, name(".self_attn"));
    });
    x = la.self.out;

    if (m.has_cross) {
      nn::MaskSpec cross_mask = mask_rule(config_, AttentionKind::Cross, static_cast<int>(l));
      cross_mask.key_ids = src_ids;
      cross_mask.pad_id = pad_id;
      c.norm = &m.norm2;
      sublayer_forward(c, x, la.cross, tr, name(".norm2"), name(".add2"), [&](const float* in, float* out) {
        m.cross_attn.forward(params_, in, enc_out, B, T, S, cross_mask, out, arena_, la.cross_saved, tr,
                             name(".cross_attn"));
      });
      x = la.cross.out;
    }

    const char* ffn_norm = m.has_cross ? ".norm3" : ".norm2";
    const char* ffn_add = m.has_cross ? ".add3" : ".add2";
    c.norm = m.has_cross ? &m.norm3 : &m.norm2;
    sublayer_forward(c, x, la.ffn, tr, name(ffn_norm), name(ffn_add), [&](const float* in, float* out) {
      m.ffn.forward(params_, in, out, N, arena_, la.ffn_saved);
      if (tr) {
        tr->record(p + ".ffn.pre", {T, m.ffn.hidden_size},
                   m.ffn.kind == FfnKind::SwiGlu ? la.ffn_saved.gate : la.ffn_saved.up);
        tr->record(p + ".ffn.hidden", {T, m.ffn.hidden_size}, la.ffn_saved.hidden);
        tr->record(p + ".ffn.out", {T, D}, out);
      }
    });
    x = la.ffn.out;
  }

  acts.final_in = const_cast<float*>(x);
  if (c.pre) {
    const nn::Norm& fn = encoder ? enc_final_norm_ : dec_final_norm_;
    acts.final_mean = arena_.alloc(N);
    acts.final_rstd = arena_.alloc(N);
    acts.out = arena_.alloc(size);
    fn.forward(params_, x, acts.out, acts.final_mean, acts.final_rstd, N);
    if (trace) trace->record(stack + ".final_norm", {T, D}, acts.out);
  } else {
    acts.out = acts.final_in;
  }
}

void Transformer::backward_stack(bool encoder, const int* ids, int B, int T, const float* enc_out, int S,
                                 StackActs& acts, float* dout, float* d_enc_out) {
  const int D = config_.d_model, N = B * T;
  std::vector<LayerModules>& layers = encoder ? enc_layers_ : dec_layers_;
  SublayerContext c = sublayer_context(N, true, arena_);

  float* d = dout;
  if (c.pre) {
    const nn::Norm& fn = encoder ? enc_final_norm_ : dec_final_norm_;
    float* d_last = arena_.alloc(static_cast<std::size_t>(N) * D);
    fn.backward(params_, acts.final_in, acts.final_mean, acts.final_rstd, d, d_last, N, false);
    d = d_last;
  }
  for (int l = static_cast<int>(layers.size()) - 1; l >= 0; --l) {
    LayerModules& m = layers[l];
    LayerActs& la = acts.layers[l];
    c.norm = m.has_cross ? &m.norm3 : &m.norm2;
    d = sublayer_backward(c, la.ffn, d, [&](const float* f_in, const float* d_f, float* d_f_in, bool acc) {
      m.ffn.backward(params_, f_in, la.ffn_saved, d_f, d_f_in, N, acc, arena_);
    });
    if (m.has_cross) {
      c.norm = &m.norm2;
      d = sublayer_backward(c, la.cross, d, [&](const float* f_in, const float* d_f, float* d_f_in, bool acc) {
        m.cross_attn.backward(params_, f_in, enc_out, B, T, S, la.cross_saved, d_f, d_f_in, acc, d_enc_out, true,
                              arena_);
      });
    }
    c.norm = &m.norm1;
    d = sublayer_backward(c, la.self, d, [&](const float* f_in, const float* d_f, float* d_f_in, bool acc) {
      m.self_attn.backward(params_, f_in, f_in, B, T, T, la.self_saved, d_f, d_f_in, acc, d_f_in, acc, arena_);
    });
  }
  if (acts.emb_drop) nn::dropout_backward(d, acts.emb_drop, N * D, config_.dropout);
  embedding_.backward(params_, ids, B, T, d);
}

}  // namespace tp
