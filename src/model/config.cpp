// ModelConfig validation and JSON conversion; see config.h.
#include "model/config.h"

#include <algorithm>

#include "core/error.h"
#include "model/memory_limit.h"

namespace tp {

ModelConfig model_shape(Arch arch, int vocab_size, int d_model, int n_layers, int d_ff, int max_len) {
  ModelConfig c;
  c.arch = arch;
  c.vocab_size = vocab_size;
  c.d_model = d_model;
  c.n_heads = 4;
  c.n_layers = n_layers;
  c.d_ff = d_ff;
  c.max_len = max_len;
  return c;
}

bool ModelConfig::layer_is_local(int layer) const {
  if (window <= 0) return false;
  if (layer_pattern.empty()) return true;
  return layer_pattern[layer % layer_pattern.size()] == 'L';
}

int ModelConfig::output_size() const {
  return (head == HeadKind::Lm || head == HeadKind::Mlm) ? vocab_size : n_classes;
}

void ModelConfig::validate() const {
  schema::check(*this);
  const auto name = [this](const auto& member) { return schema::name_of(*this, member); };
  TP_CHECK(n_heads <= d_model, name(n_heads), " = ", n_heads, " is out of range; allowed: 1 .. ", name(d_model), " (",
           d_model, ")");
  TP_CHECK(d_model % n_heads == 0, name(d_model), " = ", d_model, " is not divisible by ", name(n_heads), " = ",
           n_heads, "; ", name(d_model), " must be a multiple of ", name(n_heads));
  TP_CHECK(n_kv_heads <= n_heads, name(n_kv_heads), " = ", n_kv_heads, " is out of range; allowed: 1 .. ",
           name(n_heads), " (", n_heads, "), or 0 for the same as ", name(n_heads));
  TP_CHECK(n_heads % kv_heads() == 0, name(n_heads), " = ", n_heads, " is not divisible by ", name(n_kv_heads), " = ",
           n_kv_heads, "; ", name(n_kv_heads), " must divide ", name(n_heads), " (equal: MHA, a divisor: GQA, 1: MQA)");
  TP_CHECK(pos != PosKind::Rope || head_dim() % 2 == 0, name(pos), " = rope needs an even head size, but ",
           name(d_model), " / ", name(n_heads), " = ", d_model, " / ", n_heads, " = ", head_dim(), "; choose ",
           name(d_model), " and ", name(n_heads), " so that it is even");
  TP_CHECK(window <= max_len, name(window), " = ", window, " is out of range; allowed: 0 (full attention) .. ",
           name(max_len), " (", max_len, ")");
  TP_CHECK(global_tokens <= max_len, name(global_tokens), " = ", global_tokens, " is out of range; allowed: 0 .. ",
           name(max_len), " (", max_len, ")");
  TP_CHECK(global_tokens == 0 || window > 0, name(global_tokens), " = ", global_tokens,
           " only makes sense with a sliding ", "window; set ", name(window), " > 0 or ", name(global_tokens), " = 0");
  TP_CHECK(layer_pattern.empty() || window > 0, name(layer_pattern), " '", layer_pattern,
           "' needs a sliding window; set ", name(window), " > 0 or leave ", name(layer_pattern), " empty");
  const bool encoder_head =
      head == HeadKind::Mlm || head == HeadKind::Cls || head == HeadKind::Mean || head == HeadKind::Token;
  if (arch == Arch::EncoderOnly) {
    TP_CHECK(encoder_head, name(head), " = ", to_string(head),
             " is not available for an encoder-only model; allowed: mlm, cls, mean, token");
  } else {
    TP_CHECK(head == HeadKind::Lm, name(head), " = ", to_string(head), " is only for encoder-only models; ",
             arch == Arch::EncoderDecoder ? "an " : "a ", to_string(arch), " model predicts the next token (",
             name(head), " = lm)");
  }
  TP_CHECK(!tie_embeddings || head == HeadKind::Lm || head == HeadKind::Mlm, name(tie_embeddings),
           " needs an output over the vocabulary (", name(head), " lm or mlm), but ", name(head), " = ",
           to_string(head));
  const std::int64_t count = parameter_count();
  const std::int64_t bytes = memory().parameters;
  const std::int64_t limit = max_parameter_bytes();
  TP_CHECK(bytes <= limit, "this configuration has ", count, " parameters, which need ", bytes / (1 << 20),
           " MB to load (4 bytes each); the limit is ", limit / (1 << 20), " MB", parameter_limit_source(), "; make ",
           name(d_model), ", ", name(d_ff), ", ", name(n_layers), " or ", name(vocab_size), " smaller");
}

ModelConfig::Memory ModelConfig::memory() const {
  const std::int64_t count = parameter_count();
  const std::int64_t L = n_layers * (arch == Arch::EncoderDecoder ? 2 : 1), T = max_len;
  const std::int64_t kv = static_cast<std::int64_t>(kv_heads()) * (d_model / std::max(1, n_heads));
  // A pass over max_len tokens: the residual stream and the feed-forward hidden rows of every
  // layer, one layer's attention probabilities, and the logits with their softmax.
  const std::int64_t activations =
      4 * (L * T * (6LL * d_model + 3LL * d_ff) + static_cast<std::int64_t>(n_heads) * T * T + 2 * T * output_size());
  const std::int64_t cache = 4 * 2 * L * T * kv;
  Memory m;
  m.parameters = 4 * count;
  m.inference = m.parameters + cache + activations;
  m.training = 16 * count + activations;
  return m;
}

void ModelConfig::check_trainable() const {
  const std::int64_t count = parameter_count(), state = 16 * count;
  TP_CHECK(state <= kMaxTrainingBytes, "this model has ", count, " parameters; training needs ", state / (1 << 20),
           " MB for them, their gradients and two Adam moments (16 bytes each), over the limit of ",
           kMaxTrainingBytes / (1 << 20), " MB; it can still generate and be inspected (",
           memory().parameters / (1 << 20), " MB), and models of up to ", kMaxTrainingBytes / 16,
           " parameters can be trained");
}

std::int64_t ModelConfig::parameter_count() const {
  const std::int64_t D = d_model, F = d_ff, V = vocab_size, C = n_classes;
  const std::int64_t q = static_cast<std::int64_t>(n_heads) * (D / std::max(1, n_heads));
  const std::int64_t kv = static_cast<std::int64_t>(kv_heads()) * (D / std::max(1, n_heads));
  const std::int64_t b = bias ? 1 : 0;
  const std::int64_t norm_size = norm == NormKind::Layer ? 2 * D : D;
  const std::int64_t attention = q * D + 2 * kv * D + D * q + b * (q + 2 * kv + D);
  const std::int64_t ffn_mats = ffn == FfnKind::SwiGlu ? 3 : 2;
  const std::int64_t ffn_params = ffn_mats * F * D + b * ((ffn_mats - 1) * F + D);
  std::int64_t total = V * D + (pos == PosKind::Learned ? static_cast<std::int64_t>(max_len) * D : 0);
  const std::int64_t final_norm = norm_placement == NormPlacement::Pre ? norm_size : 0;
  if (has_encoder()) total += n_layers * (attention + ffn_params + 2 * norm_size) + final_norm;
  if (has_decoder()) {
    const bool cross = arch == Arch::EncoderDecoder;
    total += n_layers * (attention * (cross ? 2 : 1) + ffn_params + (cross ? 3 : 2) * norm_size) + final_norm;
  }
  if (head == HeadKind::Lm || head == HeadKind::Mlm) {
    if (!tie_embeddings) total += V * D;
  } else {
    total += C * D + C;
  }
  return total;
}

json::Value ModelConfig::to_json(schema::Naming naming) const {
  ModelConfig resolved = *this;
  resolved.n_kv_heads = kv_heads();
  return schema::to_json(resolved, naming);
}

ModelConfig ModelConfig::from_json(const json::Value& value, schema::Naming naming) {
  ModelConfig c;
  schema::from_json(c, value, "config field", naming);
  return c;
}

}  // namespace tp
