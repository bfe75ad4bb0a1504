// [views] The rules the page's views draw come from the model, so they are checked against it:
// attention_mask() is −inf exactly where a traced forward pass masked (every kind of attention,
// windows with global tokens on some layers, <PAD> keys), and kv_layout() is the layout
// start_decoding() gives each layer's cache.
#include <catch2/catch.hpp>

#include <cmath>

#include "model/attention_masks.h"
#include "model/kv_cache.h"
#include "model_util.h"

using namespace tp;

TEST_CASE("attention_mask is where the traced forward pass masked", "[views]") {
  for (Arch arch : {Arch::EncoderOnly, Arch::DecoderOnly, Arch::EncoderDecoder}) {
    ModelConfig c = test::small_config(arch);
    c.n_layers = 3;
    c.window = 2;
    c.global_tokens = 1;
    c.layer_pattern = "LG";  // layers 0 and 2 local
    Transformer model(c, 1);
    Rng rng(5);
    Batch b = test::random_batch(c, 1, 7, rng, false);
    // Two <PAD> keys at the end of whatever the stacks read.
    for (std::vector<int>* seq : {&b.src, &b.tgt_in}) {
      if (seq->size() > 2) (*seq)[seq->size() - 1] = (*seq)[seq->size() - 2] = test::kPad;
    }
    for (std::size_t i = 0; i < b.targets.size(); ++i) b.targets[i] = -1;
    Trace trace;
    model.forward(b, false, &trace);
    struct Kind {
      AttentionKind kind;
      const char* name;
      const std::vector<int>* keys;
    };
    std::vector<Kind> kinds;
    if (c.has_encoder()) kinds.push_back({AttentionKind::EncoderSelf, "enc.%d.self_attn.masked", &b.src});
    if (c.has_decoder()) kinds.push_back({AttentionKind::DecoderSelf, "dec.%d.self_attn.masked", &b.tgt_in});
    if (arch == Arch::EncoderDecoder) kinds.push_back({AttentionKind::Cross, "dec.%d.cross_attn.masked", &b.src});
    for (const Kind& k : kinds) {
      for (int l = 0; l < c.n_layers; ++l) {
        char name[64];
        std::snprintf(name, sizeof name, k.name, l);
        INFO(to_string(arch) << " " << name);
        const Tensor& masked = trace.get(name);  // [H, T, S]
        const int T = static_cast<int>(masked.shape()[1]), S = static_cast<int>(masked.shape()[2]);
        const std::vector<float> mask = attention_mask(c, k.kind, l, T, *k.keys, test::kPad);
        REQUIRE(mask.size() == static_cast<std::size_t>(T) * S);
        int blocked = 0;
        for (int h = 0; h < c.n_heads; ++h) {
          for (std::size_t i = 0; i < mask.size(); ++i) {
            const float traced = masked.data()[h * mask.size() + i];
            REQUIRE(std::isinf(traced) == std::isinf(mask[i]));
            blocked += std::isinf(mask[i]);
          }
        }
        REQUIRE(blocked > 0);  // the <PAD> keys at least
      }
    }
  }
}

TEST_CASE("attention_mask refuses what the model does not have", "[views]") {
  const ModelConfig enc = test::small_config(Arch::EncoderOnly);
  REQUIRE_THROWS_WITH(attention_mask(enc, AttentionKind::DecoderSelf, 0, 2, {6, 7}, -1), Catch::Contains("no decoder"));
  REQUIRE_THROWS_WITH(attention_mask(enc, AttentionKind::EncoderSelf, 5, 2, {6, 7}, -1),
                      Catch::Contains("layer 5 is out of range"));
  const ModelConfig dec = test::small_config(Arch::DecoderOnly);
  REQUIRE_THROWS_WITH(attention_mask(dec, AttentionKind::Cross, 0, 2, {6, 7}, -1),
                      Catch::Contains("cross-attention is an encoder-decoder's"));
  REQUIRE_THROWS_WITH(attention_mask(dec, AttentionKind::EncoderSelf, 0, 2, {6, 7}, -1),
                      Catch::Contains("no encoder self-attention"));
}

TEST_CASE("kv_layout is the layout start_decoding gives each layer", "[views]") {
  for (Arch arch : {Arch::DecoderOnly, Arch::EncoderDecoder}) {
    for (const char* pattern : {"", "LG", "GL"}) {
      ModelConfig c = test::small_config(arch);
      c.n_layers = 3;
      c.window = 3;
      c.global_tokens = 1;
      c.layer_pattern = pattern;
      Transformer model(c, 1);
      const KvCache cache = model.start_decoding({6, 7, 8}, test::kPad);
      const std::vector<KvLayerLayout> layout = kv_layout(c);
      REQUIRE(layout.size() == cache.layers.size());
      for (std::size_t l = 0; l < layout.size(); ++l) {
        INFO(to_string(arch) << " pattern '" << pattern << "' layer " << l);
        CHECK(layout[l].ring == c.layer_is_local(static_cast<int>(l)));
        CHECK(layout[l].capacity == cache.layers[l].self.capacity);
        CHECK(layout[l].ring_start == cache.layers[l].self.ring_start);
      }
    }
  }
  REQUIRE(kv_layout(test::small_config(Arch::EncoderOnly)).empty());
}
