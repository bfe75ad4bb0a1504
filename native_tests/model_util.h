// Helpers for the model suites: small configurations and random padded batches.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "core/rng.h"
#include "model/batch.h"
#include "model/config.h"
#include "model/transformer.h"

namespace tp::test {

constexpr int kPad = 2;

// A small model of the given architecture; tests change fields from here.
inline ModelConfig small_config(Arch arch) {
  ModelConfig c = model_shape(arch, 13, 8, 1, 12, 8);
  c.n_heads = 2;
  if (arch == Arch::EncoderOnly) c.head = HeadKind::Mlm;
  return c;
}

// Random ids in [6, vocab) with trailing <PAD>s on some rows (the first row is never padded, so
// a trace of row 0 sees real tokens); targets are −1 where the input is <PAD>.
inline Batch random_batch(const ModelConfig& c, int B, int T, Rng& rng, bool pad = true) {
  Batch batch;
  batch.size = B;
  batch.pad_id = kPad;
  auto fill = [&](std::vector<int>& ids, int len) {
    ids.assign(static_cast<std::size_t>(B) * len, kPad);
    for (int b = 0; b < B; ++b) {
      const int real = (pad && b > 0) ? std::max(1, len - 1 - rng.below(len / 2 + 1)) : len;
      for (int t = 0; t < real; ++t) ids[b * len + t] = 6 + rng.below(c.vocab_size - 6);
    }
  };
  const bool pooled = c.head == HeadKind::Cls || c.head == HeadKind::Mean;
  if (c.has_encoder()) {
    batch.src_len = T;
    fill(batch.src, T);
    if (c.head == HeadKind::Cls) {
      for (int b = 0; b < B; ++b) batch.src[b * T] = 4;  // <CLS>
    }
  }
  if (c.has_decoder()) {
    batch.tgt_len = c.arch == Arch::EncoderDecoder ? std::max(1, T - 1) : T;
    fill(batch.tgt_in, batch.tgt_len);
  }
  if (pooled) {
    for (int b = 0; b < B; ++b) batch.targets.push_back(rng.below(c.n_classes));
    return batch;
  }
  const std::vector<int>& in = c.has_decoder() ? batch.tgt_in : batch.src;
  const int classes = c.output_size();
  for (int id : in) batch.targets.push_back(id == kPad ? -1 : rng.below(classes));
  return batch;
}

// The model's logits for `batch` (an evaluation forward pass), copied out:
// [logit_rows × output_size].
inline std::vector<float> logits_of(Transformer& model, const Batch& batch) {
  model.forward(batch, false);
  const std::size_t n = static_cast<std::size_t>(model.logit_rows()) * model.config().output_size();
  return std::vector<float>(model.logits(), model.logits() + n);
}

// A small model of every option (architectures, positions, norms and placements, MHA/GQA/MQA,
// windows with global tokens, FFN kinds, tying, biases, every head, dropout, label smoothing):
// the [gradcheck] and [threads] suites run each.
struct OptionCase {
  std::string name;
  ModelConfig config;
  float label_smoothing = 0.0f;
};

inline std::vector<OptionCase> option_cases() {
  std::vector<OptionCase> out;
  auto add = [&](std::string name, Arch arch, const std::function<void(ModelConfig&)>& edit, float ls = 0.0f) {
    ModelConfig c = small_config(arch);
    edit(c);
    out.push_back({std::move(name), c, ls});
  };
  add("decoder learned layer pre gelu mha bias", Arch::DecoderOnly, [](ModelConfig&) {});
  add("decoder rope rms post swiglu gqa no-bias", Arch::DecoderOnly, [](ModelConfig& c) {
    c.pos = PosKind::Rope;
    c.norm = NormKind::Rms;
    c.norm_placement = NormPlacement::Post;
    c.ffn = FfnKind::SwiGlu;
    c.n_heads = 4;
    c.n_kv_heads = 2;
    c.bias = false;
  });
  add("decoder rope half pairs base 100 (Llama layout) rms pre swiglu gqa", Arch::DecoderOnly, [](ModelConfig& c) {
    c.pos = PosKind::Rope;
    c.rope_pairs = RopePairs::Half;
    c.rope_theta = 100.0f;
    c.norm = NormKind::Rms;
    c.ffn = FfnKind::SwiGlu;
    c.n_heads = 4;
    c.n_kv_heads = 2;
    c.bias = false;
  });
  add("decoder alibi mqa relu tied", Arch::DecoderOnly, [](ModelConfig& c) {
    c.pos = PosKind::Alibi;
    c.n_heads = 4;
    c.n_kv_heads = 1;
    c.ffn = FfnKind::Relu;
    c.tie_embeddings = true;
  });
  add("decoder sinusoidal window+global pattern LG", Arch::DecoderOnly, [](ModelConfig& c) {
    c.pos = PosKind::Sinusoidal;
    c.window = 2;
    c.global_tokens = 1;
    c.layer_pattern = "LG";
    c.n_layers = 2;
  });
  add(
      "decoder no positions, dropout, label smoothing", Arch::DecoderOnly,
      [](ModelConfig& c) {
        c.pos = PosKind::None;
        c.dropout = 0.2f;
      },
      0.1f);
  add("encoder mlm learned tied", Arch::EncoderOnly, [](ModelConfig& c) { c.tie_embeddings = true; });
  add("encoder cls rms", Arch::EncoderOnly, [](ModelConfig& c) {
    c.head = HeadKind::Cls;
    c.norm = NormKind::Rms;
    c.n_classes = 3;
  });
  add("encoder mean post", Arch::EncoderOnly, [](ModelConfig& c) {
    c.head = HeadKind::Mean;
    c.norm_placement = NormPlacement::Post;
  });
  add("encoder token rope window", Arch::EncoderOnly, [](ModelConfig& c) {
    c.head = HeadKind::Token;
    c.n_classes = 4;
    c.pos = PosKind::Rope;
    c.window = 3;
  });
  add("encoder-decoder sinusoidal post relu", Arch::EncoderDecoder, [](ModelConfig& c) {
    c.pos = PosKind::Sinusoidal;
    c.norm_placement = NormPlacement::Post;
    c.ffn = FfnKind::Relu;
  });
  add(
      "encoder-decoder rope pre swiglu gqa window, smoothing", Arch::EncoderDecoder,
      [](ModelConfig& c) {
        c.pos = PosKind::Rope;
        c.ffn = FfnKind::SwiGlu;
        c.n_heads = 4;
        c.n_kv_heads = 2;
        c.window = 2;
        c.n_layers = 2;
      },
      0.2f);
  add("encoder-decoder alibi rms dropout", Arch::EncoderDecoder, [](ModelConfig& c) {
    c.pos = PosKind::Alibi;
    c.norm = NormKind::Rms;
    c.dropout = 0.1f;
    c.tie_embeddings = true;
  });
  return out;
}

}  // namespace tp::test
