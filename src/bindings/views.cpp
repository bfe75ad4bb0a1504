// Embind registration of the rules the page's views draw, so no view writes one again: which
// keys each query may see (attentionMask: model/attention_masks.h, the rule the forward pass
// masks with) and how generation lays out each decoder layer's KV cache (kvLayout: kv_layout()
// as start_decoding() builds it, with the slot each position goes to by nn::KvRows::row_for).
// Both take a configuration (the camelCase JSON of model.config), so a page that trains in a
// worker asks its own instance. They only validate and convert.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "bindings/convert.h"
#include "bindings/guard.h"
#include "core/error.h"
#include "core/json.h"
#include "model/attention_masks.h"
#include "model/config.h"
#include "model/kv_cache.h"

using emscripten::val;
using namespace tp::bindings;

namespace {

constexpr int kMaxPositions = 4096;  // the model's max_len limit

tp::ModelConfig config_from(const std::string& config_json) {
  const tp::ModelConfig c = tp::ModelConfig::from_json(tp::json::parse(config_json), tp::schema::Naming::Camel);
  c.validate();
  return c;
}

tp::AttentionKind kind_from(const std::string& kind) {
  if (kind == "enc") return tp::AttentionKind::EncoderSelf;
  if (kind == "dec") return tp::AttentionKind::DecoderSelf;
  if (kind == "cross") return tp::AttentionKind::Cross;
  TP_FAIL("kind = '", kind, "' is not an attention of a model; allowed: enc, dec, cross");
}

// { rows, cols, data: Float32Array [rows·cols] of 0 / −Infinity, causal, window, globalTokens }:
// the window and global tokens are the layer's (0 where it is not local).
val attention_mask(const std::string& config_json, const std::string& kind, double layer_value, double queries_value,
                   const val& key_ids, double pad_value) {
  return guarded([&] {
    const tp::ModelConfig c = config_from(config_json);
    const tp::AttentionKind k = kind_from(kind);
    const int layer = bounded_int(layer_value, "layer", 0, c.n_layers - 1);
    const int queries = bounded_int(queries_value, "queries", 1, kMaxPositions);
    const int pad_id = bounded_int(pad_value, "padId", -1, c.vocab_size - 1);
    const std::vector<int> keys = ids_from(key_ids, "keyIds");
    const std::vector<float> mask = tp::attention_mask(c, k, layer, queries, keys, pad_id);
    const tp::nn::MaskSpec rule = tp::mask_rule(c, k, layer);
    val out = val::object();
    out.set("rows", queries);
    out.set("cols", static_cast<int>(keys.size()));
    out.set("data", float_array(mask.data(), mask.size()));
    out.set("causal", rule.causal);
    out.set("window", rule.window);
    out.set("globalTokens", rule.global_tokens);
    return out;
  });
}

// [{ layer, local, capacity, ringStart, rows: Int32Array [positions] }]: each decoder layer's
// self-attention cache and the row each of the first `positions` positions is written to.
val kv_layout(const std::string& config_json, double positions_value) {
  return guarded([&] {
    const tp::ModelConfig c = config_from(config_json);
    TP_CHECK(c.has_decoder(), "an encoder-only model keeps no KV cache (it does not generate)");
    const int positions = bounded_int(positions_value, "positions", 0, c.max_len);
    const std::vector<tp::KvLayerLayout> layout = tp::kv_layout(c);
    val out = val::array();
    for (std::size_t l = 0; l < layout.size(); ++l) {
      tp::nn::KvRows rows = tp::nn::KvRows::create(layout[l].capacity, layout[l].ring_start, 0);
      std::vector<int> row_of(static_cast<std::size_t>(positions));
      for (int p = 0; p < positions; ++p) row_of[p] = rows.row_for(p);
      val layer = val::object();
      layer.set("layer", static_cast<int>(l));
      layer.set("local", layout[l].ring);
      layer.set("capacity", layout[l].capacity);
      layer.set("ringStart", layout[l].ring_start);
      layer.set("rows", int_array(row_of.data(), row_of.size()));
      out.call<void>("push", layer);
    }
    return out;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tp_views) {
  emscripten::function("attentionMask", &attention_mask);
  emscripten::function("kvLayout", &kv_layout);
}
