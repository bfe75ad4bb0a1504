// config.json of a Hugging Face-style checkpoint -> ModelConfig, for the two families the model
// represents exactly. Every field that would change the math is read and checked; a value we
// cannot reproduce is an error naming the field, its value and what is supported.
//
//   GPT-2 (model_type "gpt2"): learned positions (n_positions), pre-LayerNorm (layer_norm_epsilon)
//   with a final ln_f, GELU in its tanh form, biases everywhere, a head tied to the embedding.
//   Llama (model_type "llama"): RoPE over the two halves of each head (rope_theta), RMSNorm
//   (rms_norm_eps), SwiGLU, GQA (num_key_value_heads), no biases, tied or untied head.
#include <algorithm>

#include "core/error.h"
#include "import/import_internal.h"

namespace tp::import {
namespace {

// config.json, read field by field with messages that name the field.
struct HfConfig {
  const json::Value& root;

  const json::Value* get(const char* key) const {
    const json::Value* v = root.find(key);
    return v == nullptr || v->is_null() ? nullptr : v;
  }
  int integer(const char* key, std::int64_t fallback = -1) const {
    const json::Value* v = get(key);
    if (v == nullptr) {
      TP_CHECK(fallback >= 0, "config.json has no field '", key, "', which this model type needs");
      return static_cast<int>(fallback);
    }
    const std::int64_t n = v->as_int(str_cat("config.json field ", key));
    TP_CHECK(n >= 0 && n <= 100000000, "config.json field ", key, " = ", n, " is out of range");
    return static_cast<int>(n);
  }
  double number(const char* key, double fallback) const {
    const json::Value* v = get(key);
    return v == nullptr ? fallback : v->as_number(str_cat("config.json field ", key));
  }
  std::string text(const char* key, const char* fallback) const {
    const json::Value* v = get(key);
    return v == nullptr ? fallback : v->as_string(str_cat("config.json field ", key));
  }
  bool flag(const char* key, bool fallback) const {
    const json::Value* v = get(key);
    return v == nullptr ? fallback : v->as_bool(str_cat("config.json field ", key));
  }
  // A token id, or the first of a list of them (Llama 3 lists several eos ids).
  int token_id(const char* key) const {
    const json::Value* v = get(key);
    if (v == nullptr) return -1;
    if (v->is_array()) return v->as_array().empty() ? -1 : static_cast<int>(v->as_array()[0].as_int(key));
    return static_cast<int>(v->as_int(str_cat("config.json field ", key)));
  }
  void require_flag(const char* key, bool fallback, bool want, const char* why) const {
    const bool value = flag(key, fallback);
    TP_CHECK(value == want, "config.json field ", key, " = ", value ? "true" : "false", " is not supported: ", why);
  }
  void require_absent(const char* key, const char* why) const {
    TP_CHECK(get(key) == nullptr, "config.json field ", key, " = ", get(key)->dump(), " is not supported: ", why);
  }
};

// RoPE needs no table of parameters, so a RoPE model's context is capped at what the config's
// max_len allows; learned positions are a parameter and must fit whole.
constexpr int kMaxContext = 4096;

ModelConfig gpt2_config(const HfConfig& c) {
  ModelConfig m;
  m.arch = Arch::DecoderOnly;
  m.vocab_size = c.integer("vocab_size");
  m.d_model = c.integer("n_embd");
  m.n_heads = c.integer("n_head");
  m.n_layers = c.integer("n_layer");
  m.d_ff = c.integer("n_inner", 4LL * m.d_model);
  m.max_len = c.integer("n_positions", c.integer("n_ctx", 1024));
  TP_CHECK(m.max_len <= kMaxContext, "config.json field n_positions = ", m.max_len, " is more than the ", kMaxContext,
           " learned positions supported");
  m.pos = PosKind::Learned;
  m.norm = NormKind::Layer;
  m.norm_placement = NormPlacement::Pre;
  m.norm_eps = static_cast<float>(c.number("layer_norm_epsilon", 1e-5));
  const std::string act = c.text("activation_function", "gelu_new");
  TP_CHECK(act == "gelu_new" || act == "gelu_pytorch_tanh", "config.json field activation_function = '", act,
           "' is not supported; supported: gelu_new, gelu_pytorch_tanh (GELU in its tanh form)");
  m.ffn = FfnKind::Gelu;
  m.bias = true;
  m.tie_embeddings = c.flag("tie_word_embeddings", true);
  c.require_flag("scale_attn_weights", true, true, "scores are always divided by sqrt(head size)");
  c.require_flag("scale_attn_by_inverse_layer_idx", false, false, "scores are never scaled per layer");
  c.require_flag("add_cross_attention", false, false, "a decoder-only model has no cross-attention");
  return m;
}

ModelConfig llama_config(const HfConfig& c) {
  ModelConfig m;
  m.arch = Arch::DecoderOnly;
  m.vocab_size = c.integer("vocab_size");
  m.d_model = c.integer("hidden_size");
  m.n_heads = c.integer("num_attention_heads");
  m.n_kv_heads = c.integer("num_key_value_heads", m.n_heads);
  m.n_layers = c.integer("num_hidden_layers");
  m.d_ff = c.integer("intermediate_size");
  m.max_len = std::min(c.integer("max_position_embeddings", 2048), kMaxContext);
  if (m.n_heads > 0) {
    const int head_dim = c.integer("head_dim", m.d_model / m.n_heads);
    TP_CHECK(head_dim * m.n_heads == m.d_model, "config.json field head_dim = ", head_dim, " is not supported: the ",
             "head size must be hidden_size / num_attention_heads = ", m.d_model / m.n_heads);
  }
  m.pos = PosKind::Rope;
  m.rope_pairs = RopePairs::Half;
  m.rope_theta = static_cast<float>(c.number("rope_theta", 10000.0));
  m.norm = NormKind::Rms;
  m.norm_placement = NormPlacement::Pre;
  m.norm_eps = static_cast<float>(c.number("rms_norm_eps", 1e-6));
  const std::string act = c.text("hidden_act", "silu");
  TP_CHECK(act == "silu", "config.json field hidden_act = '", act, "' is not supported; supported: silu (SwiGLU)");
  m.ffn = FfnKind::SwiGlu;
  m.bias = false;
  m.tie_embeddings = c.flag("tie_word_embeddings", false);
  c.require_absent("rope_scaling", "RoPE scaling (linear, dynamic, yarn, llama3) is not implemented; supported: null");
  c.require_absent("sliding_window", "every layer attends to the whole context; supported: null");
  c.require_flag("attention_bias", false, false, "the Llama family has no attention biases");
  c.require_flag("mlp_bias", false, false, "the Llama family has no feed-forward biases");
  return m;
}

}  // namespace

HfModel read_hf_config(std::string_view config_json) {
  json::Value root;
  try {
    root = json::parse(config_json);
  } catch (const Error& e) {
    TP_FAIL("config.json is not valid JSON: ", e.what());
  }
  TP_CHECK(root.is_object(), "config.json must be a JSON object");
  const HfConfig c{root};
  const std::string type = c.text("model_type", "");
  HfModel out;
  if (type == "gpt2") {
    out.family = HfFamily::Gpt2;
    out.config = gpt2_config(c);
  } else if (type == "llama") {
    out.family = HfFamily::Llama;
    out.config = llama_config(c);
  } else {
    TP_FAIL("config.json field model_type = '", type, "' is not supported; supported: gpt2 (the GPT-2 family), ",
            "llama (the Llama family)");
  }
  out.bos_id = c.token_id("bos_token_id");
  out.eos_id = c.token_id("eos_token_id");
  try {
    out.config.validate();
  } catch (const Error& e) {
    TP_FAIL("config.json describes a model this build cannot hold: ", e.what());
  }
  return out;
}

}  // namespace tp::import
