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
#include "core/text_escape.h"
#include "import/file_field.h"
#include "import/import_internal.h"

namespace tp::import {
namespace {

constexpr int kMaxSize = 100000000;  // any one size field; the parameter limit bounds them together
constexpr const char* kSize = "a size";

// config.json, read field by field through Field (file_field.h), so every message names the field.
struct HfConfig {
  Field root;

  int integer(const char* key) const { return root[key].int32(1, kMaxSize, kSize); }
  int integer_or(const char* key, std::int64_t fallback) const {
    const Field f = root[key];
    return f.present() ? f.int32(1, kMaxSize, kSize) : static_cast<int>(std::min<std::int64_t>(fallback, kMaxSize));
  }
  double number(const char* key, double fallback) const { return root[key].number_or(fallback, -1e30, 1e30); }
  std::string text(const char* key, const char* fallback) const { return root[key].string_or(fallback); }
  bool flag(const char* key, bool fallback) const { return root[key].boolean_or(fallback); }
  // A token id below vocab_size, or the first of a list of them (Llama 3 lists several eos ids).
  int token_id(const char* key, int vocab_size) const {
    const Field f = root[key];
    if (!f.present()) return -1;
    const char* allowed = "a token id, below config.json's vocab_size";
    if (f.type() == json::Value::Type::Array) {
      const auto& ids = f.array(1000000);
      for (std::size_t i = 0; i < ids.size(); ++i) f.item(i).int32(0, vocab_size - 1, allowed);
      return ids.empty() ? -1 : f.item(0).int32(0, vocab_size - 1, allowed);
    }
    return f.int32(0, vocab_size - 1, allowed);
  }
  void require_flag(const char* key, bool fallback, bool want, const char* why) const {
    const bool value = flag(key, fallback);
    if (value != want) root[key].fail("= ", value ? "true" : "false", " is not supported: ", why);
  }
  void require_absent(const char* key, const char* why) const {
    const Field f = root[key];
    if (!f.present()) return;
    const bool scalar = f.type() == json::Value::Type::Number || f.type() == json::Value::Type::Bool;
    f.fail("= ", scalar ? f.value()->dump() : quote(f.value()->dump()), " is not supported: ", why);
  }
};

// RoPE needs no table of parameters, so a RoPE model's context is capped at what the config's
// max_len allows; learned positions are a parameter and must fit whole.
constexpr int kMaxContext = 4096;

float norm_eps(const HfConfig& c, const char* key, double fallback) {
  const double eps = c.root[key].number_or(fallback, 0.0, 1.0);
  return static_cast<float>(eps);
}

ModelConfig gpt2_config(const HfConfig& c) {
  ModelConfig m;
  m.arch = Arch::DecoderOnly;
  m.vocab_size = c.integer("vocab_size");
  m.d_model = c.integer("n_embd");
  m.n_heads = c.integer("n_head");
  m.n_layers = c.integer("n_layer");
  m.d_ff = c.integer_or("n_inner", 4LL * m.d_model);
  m.max_len = c.integer_or("n_positions", c.integer_or("n_ctx", 1024));
  if (m.max_len > kMaxContext) {
    c.root["n_positions"].fail("= ", m.max_len, " is more than the ", kMaxContext, " learned positions supported");
  }
  m.pos = PosKind::Learned;
  m.norm = NormKind::Layer;
  m.norm_placement = NormPlacement::Pre;
  m.norm_eps = norm_eps(c, "layer_norm_epsilon", 1e-5);
  const std::string act = c.text("activation_function", "gelu_new");
  if (act != "gelu_new" && act != "gelu_pytorch_tanh") {
    c.root["activation_function"].fail("= ", quote(act), " is not supported; supported: gelu_new, ",
                                       "gelu_pytorch_tanh (GELU in its tanh form)");
  }
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
  m.n_kv_heads = c.integer_or("num_key_value_heads", m.n_heads);
  m.n_layers = c.integer("num_hidden_layers");
  m.d_ff = c.integer("intermediate_size");
  m.max_len = std::min(c.integer_or("max_position_embeddings", 2048), kMaxContext);
  const int head_dim = c.integer_or("head_dim", m.d_model / m.n_heads);
  if (static_cast<std::int64_t>(head_dim) * m.n_heads != m.d_model) {
    c.root["head_dim"].fail("= ", head_dim, " is not supported: the head size must be hidden_size / ",
                            "num_attention_heads = ", m.d_model / m.n_heads);
  }
  m.pos = PosKind::Rope;
  m.rope_pairs = RopePairs::Half;
  m.rope_theta = static_cast<float>(c.root["rope_theta"].number_or(10000.0, 1e-30, 1e30));
  m.norm = NormKind::Rms;
  m.norm_placement = NormPlacement::Pre;
  m.norm_eps = norm_eps(c, "rms_norm_eps", 1e-6);
  const std::string act = c.text("hidden_act", "silu");
  if (act != "silu") c.root["hidden_act"].fail("= ", quote(act), " is not supported; supported: silu (SwiGLU)");
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
  check_import_file_size("config.json", config_json.size());
  json::Value root;
  try {
    root = json::parse(config_json);
  } catch (const Error& e) {
    TP_FAIL("config.json is not valid JSON: ", e.what());
  }
  const HfConfig c{Field("config.json", "", &root)};
  c.root.object();  // "config.json must be an object, got ..."
  const std::string type = c.text("model_type", "");
  HfModel out;
  if (type == "gpt2") {
    out.family = HfFamily::Gpt2;
    out.config = gpt2_config(c);
  } else if (type == "llama") {
    out.family = HfFamily::Llama;
    out.config = llama_config(c);
  } else {
    c.root["model_type"].fail("= ", quote(type), " is not supported; supported: gpt2 (the GPT-2 family), ",
                              "llama (the Llama family)");
  }
  out.bos_id = c.token_id("bos_token_id", out.config.vocab_size);
  out.eos_id = c.token_id("eos_token_id", out.config.vocab_size);
  try {
    out.config.validate();
  } catch (const Error& e) {
    TP_FAIL("config.json describes a model this build cannot hold: ", e.what());
  }
  return out;
}

}  // namespace tp::import
