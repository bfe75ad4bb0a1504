// [invariant] Properties the math guarantees, checked on whole models: causality, padding,
// window masks, RoPE's relative positions, GQA = MHA with shared heads, softmax rows, and what
// pre-norm and post-norm do to the residual stream.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "model_util.h"
#include "nn/positional.h"
#include "test_util.h"

using namespace tp;
using test::logits_of;

namespace {

Batch one_sequence(const ModelConfig& c, const std::vector<int>& ids) {
  Batch b;
  b.size = 1;
  b.pad_id = test::kPad;
  if (c.has_encoder()) {
    b.src = ids;
    b.src_len = static_cast<int>(ids.size());
  }
  if (c.has_decoder()) {
    b.tgt_in = ids;
    b.tgt_len = static_cast<int>(ids.size());
  }
  return b;
}

}  // namespace

TEST_CASE("causal: outputs at t do not change when later tokens change", "[invariant]") {
  for (PosKind pos : {PosKind::Learned, PosKind::Rope, PosKind::Alibi}) {
    ModelConfig c = test::small_config(Arch::DecoderOnly);
    c.pos = pos;
    c.n_layers = 2;
    Transformer model(c, 3);
    const std::vector<int> a = {6, 7, 8, 9, 10, 11, 12, 6};
    std::vector<int> b = a;
    b[5] = 12;
    b[7] = 9;
    const auto la = logits_of(model, one_sequence(c, a)), lb = logits_of(model, one_sequence(c, b));
    const int V = c.vocab_size;
    for (int t = 0; t < 8; ++t) {
      const bool same = std::memcmp(&la[t * V], &lb[t * V], sizeof(float) * V) == 0;
      INFO("pos " << to_string(pos) << " t=" << t);
      if (t < 5)
        REQUIRE(same);  // bit-identical: masked keys contribute exact zeros
      else
        REQUIRE_FALSE(same);  // and the model is not trivially constant
    }
  }
}

TEST_CASE("padding: non-PAD outputs ignore PAD positions", "[invariant]") {
  for (Arch arch : {Arch::EncoderOnly, Arch::DecoderOnly, Arch::EncoderDecoder}) {
    ModelConfig c = test::small_config(arch);
    c.n_layers = 2;
    Transformer model(c, 4);
    INFO("arch " << to_string(arch));
    // The same sequence alone, and padded to 8 in a batch with a longer one.
    const std::vector<int> seq = {6, 9, 7, 11, 8};
    Batch padded;
    padded.size = 2;
    padded.pad_id = test::kPad;
    std::vector<int> row0 = seq;
    row0.resize(8, test::kPad);
    const std::vector<int> row1 = {7, 7, 8, 9, 10, 11, 12, 6};
    if (c.has_encoder()) {
      padded.src_len = 8;
      padded.src = row0;
      padded.src.insert(padded.src.end(), row1.begin(), row1.end());
    }
    if (c.has_decoder()) {
      padded.tgt_len = 8;
      padded.tgt_in = row0;
      padded.tgt_in.insert(padded.tgt_in.end(), row1.begin(), row1.end());
    }
    const auto alone = logits_of(model, one_sequence(c, seq));
    auto together = logits_of(model, padded);
    const int V = c.vocab_size;
    for (int t = 0; t < 5; ++t) {
      for (int v = 0; v < V; ++v) REQUIRE(together[t * V + v] == Approx(alone[t * V + v]).margin(1e-6));
    }
    // Changing what a PAD position holds (the <PAD> embedding row) changes nothing that counts.
    float* pad_row = model.params().value(model.params().index_of("tok_emb.weight")) + test::kPad * c.d_model;
    for (int d = 0; d < c.d_model; ++d) pad_row[d] += 5.0f;
    const auto changed = logits_of(model, padded);
    for (int t = 0; t < 5; ++t) {
      for (int v = 0; v < V; ++v) REQUIRE(changed[t * V + v] == Approx(together[t * V + v]).margin(1e-6));
    }
  }
}

TEST_CASE("sliding window: probabilities are exactly 0 outside the window, except global tokens", "[invariant]") {
  for (bool causal : {true, false}) {
    ModelConfig c = test::small_config(causal ? Arch::DecoderOnly : Arch::EncoderOnly);
    c.window = 2;
    c.global_tokens = 1;
    Transformer model(c, 5);
    Trace trace;
    model.forward(one_sequence(c, {6, 7, 8, 9, 10, 11, 12, 6}), false, &trace);
    const Tensor& p = trace.get(std::string(causal ? "dec" : "enc") + ".0.self_attn.probs");  // [H, T, S]
    for (int h = 0; h < c.n_heads; ++h) {
      for (int t = 0; t < 8; ++t) {
        double row = 0.0;
        for (int u = 0; u < 8; ++u) {
          const bool global = t < 1 || u < 1;
          const bool allowed = (!causal || u <= t) && (global || std::abs(t - u) < 2);
          const float v = p.at({h, t, u});
          if (!allowed)
            REQUIRE(v == 0.0f);
          else
            REQUIRE(v > 0.0f);
          row += v;
        }
        REQUIRE(row == Approx(1.0).epsilon(1e-6));  // softmax rows sum to one
      }
    }
  }
}

TEST_CASE("RoPE: the rotated q·k depends only on the distance m − n", "[invariant]") {
  const int dh = 8;
  const RopePairs pairs = GENERATE(RopePairs::Adjacent, RopePairs::Half);
  const double base = GENERATE(10000.0, 100.0);
  INFO("pairs " << to_string(pairs) << ", base " << base);
  const nn::RopeTable table = nn::RopeTable::create(64, dh, base, pairs);
  Rng rng(6);
  const auto q = test::random_vector(rng, dh), k = test::random_vector(rng, dh);
  auto score = [&](int m, int n) {
    std::vector<float> qr = q, kr = k;
    nn::rope_forward(qr.data(), 1, 1, dh, &m, table);
    nn::rope_forward(kr.data(), 1, 1, dh, &n, table);
    double s = 0.0;
    for (int i = 0; i < dh; ++i) s += static_cast<double>(qr[i]) * kr[i];
    return s;
  };
  for (int d = -5; d <= 5; ++d) {
    const double base = score(10, 10 - d);
    for (int shift : {0, 7, 20, 40}) REQUIRE(score(10 + shift, 10 - d + shift) == Approx(base).margin(1e-5));
  }
  REQUIRE(std::fabs(score(10, 7) - score(10, 3)) > 1e-3);  // and it does depend on the distance
}

TEST_CASE("RoPE half pairs are adjacent pairs with the head's dimensions permuted", "[invariant]") {
  // Hugging Face permutes W_Q and W_K rows so that rotate_half equals the adjacent rotation:
  // half-layout dimension i is adjacent-layout dimension 2i, and i + dh/2 is 2i + 1.
  const int dh = 8, heads = 2;
  const nn::RopeTable adjacent = nn::RopeTable::create(16, dh, 10000.0, RopePairs::Adjacent);
  const nn::RopeTable half = nn::RopeTable::create(16, dh, 10000.0, RopePairs::Half);
  Rng rng(12);
  const auto x = test::random_vector(rng, heads * dh);
  std::vector<float> a = x, h(x.size());
  for (int hd = 0; hd < heads; ++hd) {
    for (int i = 0; i < dh / 2; ++i) {
      h[hd * dh + i] = x[hd * dh + 2 * i];
      h[hd * dh + i + dh / 2] = x[hd * dh + 2 * i + 1];
    }
  }
  const int pos = 5;
  nn::rope_forward(a.data(), 1, heads, dh, &pos, adjacent);
  nn::rope_forward(h.data(), 1, heads, dh, &pos, half);
  for (int hd = 0; hd < heads; ++hd) {
    for (int i = 0; i < dh / 2; ++i) {
      REQUIRE(h[hd * dh + i] == a[hd * dh + 2 * i]);
      REQUIRE(h[hd * dh + i + dh / 2] == a[hd * dh + 2 * i + 1]);
    }
  }
}

TEST_CASE("GQA equals MHA whose key/value heads are shared copies", "[invariant]") {
  ModelConfig gqa = test::small_config(Arch::DecoderOnly);
  gqa.n_heads = 4;
  gqa.n_kv_heads = 2;
  ModelConfig mha = gqa;
  mha.n_kv_heads = 4;
  Transformer a(gqa, 7), b(mha, 8);
  const int dh = gqa.head_dim();
  for (int i = 0; i < b.params().count(); ++i) {
    const ParamInfo& info = b.params().info(i);
    const int j = a.params().index_of(info.name);
    const bool kv = info.name.find(".k.") != std::string::npos || info.name.find(".v.") != std::string::npos;
    if (!kv) {
      std::memcpy(b.params().value(i), a.params().value(j), sizeof(float) * info.size);
      continue;
    }
    // MHA head h takes GQA group h / 2: rows [h·dh, (h+1)·dh) of the weight (and bias).
    const int row = info.shape.ndim == 2 ? info.shape[1] : 1;
    for (int h = 0; h < 4; ++h) {
      std::memcpy(b.params().value(i) + h * dh * row, a.params().value(j) + (h / 2) * dh * row,
                  sizeof(float) * dh * row);
    }
  }
  const Batch batch = one_sequence(gqa, {6, 7, 8, 9, 10, 11});
  const auto la = logits_of(a, batch), lb = logits_of(b, batch);
  for (std::size_t i = 0; i < la.size(); ++i) REQUIRE(la[i] == Approx(lb[i]).margin(1e-6));
  // And n_kv_heads = n_heads is plain MHA: the default (0) builds the same parameters.
  ModelConfig implicit = mha;
  implicit.n_kv_heads = 0;
  REQUIRE(Transformer(implicit, 8).params().numel() == b.params().numel());
}

TEST_CASE("post-norm normalises every layer's output, pre-norm leaves the stream and adds a final norm",
          "[invariant]") {
  Rng rng(9);
  for (NormPlacement placement : {NormPlacement::Post, NormPlacement::Pre}) {
    ModelConfig c = test::small_config(Arch::DecoderOnly);
    c.norm_placement = placement;
    c.n_layers = 2;
    Transformer model(c, 10);
    Trace trace;
    model.forward(one_sequence(c, {6, 7, 8, 9, 10}), false, &trace);
    // Layer output: post-norm's is norm2's output (gamma 1, beta 0 at init: mean 0, variance 1
    // per row); pre-norm's is the residual sum add2, which is not normalised.
    const Tensor& out = trace.get(placement == NormPlacement::Post ? "dec.1.norm2" : "dec.1.add2");
    double worst_mean = 0.0, worst_var = 0.0;
    for (int t = 0; t < 5; ++t) {
      double m = 0.0, v = 0.0;
      for (int d = 0; d < c.d_model; ++d) m += out.at({t, d});
      m /= c.d_model;
      for (int d = 0; d < c.d_model; ++d) v += (out.at({t, d}) - m) * (out.at({t, d}) - m);
      v /= c.d_model;
      worst_mean = std::max(worst_mean, std::fabs(m));
      worst_var = std::max(worst_var, std::fabs(v - 1.0));
    }
    INFO("placement " << to_string(placement));
    if (placement == NormPlacement::Post) {
      REQUIRE(worst_mean < 1e-5);
      REQUIRE(worst_var < 1e-3);
      REQUIRE_FALSE(trace.has("dec.final_norm"));
      REQUIRE(model.params().find("dec.final_norm.weight") < 0);
    } else {
      REQUIRE((worst_mean > 1e-3 || worst_var > 1e-2));
      REQUIRE(trace.has("dec.final_norm"));
      REQUIRE(model.params().find("dec.final_norm.weight") >= 0);
    }
  }
}

TEST_CASE("the trace lists intermediates in the order the forward pass computes them", "[invariant]") {
  ModelConfig c = test::small_config(Arch::DecoderOnly);
  c.norm_placement = NormPlacement::Pre;
  Transformer model(c, 11);
  Trace trace;
  model.forward(one_sequence(c, {6, 7, 8}), false, &trace);
  const auto& names = trace.names();
  auto at = [&](const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    REQUIRE(it != names.end());
    return it - names.begin();
  };
  // Pre-norm: norm1 feeds attention, whose output is added back, then norm2 feeds the FFN.
  REQUIRE(at("dec.embed.sum") < at("dec.0.norm1"));
  REQUIRE(at("dec.0.norm1") < at("dec.0.self_attn.q"));
  REQUIRE(at("dec.0.self_attn.probs") < at("dec.0.self_attn.out"));
  REQUIRE(at("dec.0.self_attn.out") < at("dec.0.add1"));
  REQUIRE(at("dec.0.add1") < at("dec.0.norm2"));
  REQUIRE(at("dec.0.norm2") < at("dec.0.ffn.hidden"));
  REQUIRE(at("dec.0.ffn.out") < at("dec.0.add2"));
  REQUIRE(at("dec.0.add2") < at("dec.final_norm"));
  REQUIRE(at("dec.final_norm") < at("logits"));
}
