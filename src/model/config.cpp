// ModelConfig validation and JSON conversion; see config.h.
#include "model/config.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/error.h"

namespace tp {

namespace {

template <typename E>
struct EnumNames {
  E value;
  const char* name;
};

const EnumNames<Arch> kArch[] = {{Arch::DecoderOnly, "decoder-only"},
                                 {Arch::EncoderOnly, "encoder-only"},
                                 {Arch::EncoderDecoder, "encoder-decoder"}};
const EnumNames<PosKind> kPos[] = {{PosKind::Learned, "learned"}, {PosKind::Sinusoidal, "sinusoidal"},
                                   {PosKind::Rope, "rope"},       {PosKind::Alibi, "alibi"},
                                   {PosKind::None, "none"}};
const EnumNames<NormKind> kNorm[] = {{NormKind::Layer, "layer"}, {NormKind::Rms, "rms"}};
const EnumNames<NormPlacement> kPlacement[] = {{NormPlacement::Pre, "pre"}, {NormPlacement::Post, "post"}};
const EnumNames<FfnKind> kFfn[] = {{FfnKind::Gelu, "gelu"}, {FfnKind::Relu, "relu"}, {FfnKind::SwiGlu, "swiglu"}};
const EnumNames<HeadKind> kHead[] = {{HeadKind::Lm, "lm"},     {HeadKind::Mlm, "mlm"},
                                     {HeadKind::Cls, "cls"},   {HeadKind::Mean, "mean"},
                                     {HeadKind::Token, "token"}};

template <typename E, std::size_t N>
const char* name_of(const EnumNames<E> (&table)[N], E value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

template <typename E, std::size_t N>
E parse_enum(const EnumNames<E> (&table)[N], const json::Value& v, const char* field) {
  const std::string& text = v.as_string(str_cat("config field '", field, "'"));
  std::string allowed;
  for (const auto& entry : table) {
    if (text == entry.name) return entry.value;
    allowed += str_cat(allowed.empty() ? "" : ", ", entry.name);
  }
  TP_FAIL("config field '", field, "' is '", text, "'; allowed: ", allowed);
}

const char* const kFieldNames[] = {"arch",        "vocab_size", "d_model",        "n_heads",
                                   "n_kv_heads",  "n_layers",   "d_ff",           "max_len",
                                   "pos",         "norm",       "norm_placement", "norm_eps",
                                   "ffn",         "window",     "global_tokens",  "layer_pattern",
                                   "dropout",     "tie_embeddings", "bias",       "head",
                                   "n_classes"};

// A float as the shortest decimal that reads back as the same float (1e-05, not 9.99999974e-06).
double float_for_json(float f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
  for (int digits = 1; digits <= 9; ++digits) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, static_cast<double>(f));
    if (std::strtof(shorter, nullptr) == f) return std::strtod(shorter, nullptr);
  }
  return std::strtod(buf, nullptr);
}

int read_int(const json::Value& v, const char* field) {
  const std::int64_t i = v.as_int(str_cat("config field '", field, "'"));
  TP_CHECK(i >= -2147483647LL && i <= 2147483647LL, "config field '", field, "' = ", i,
           " is out of range");
  return static_cast<int>(i);
}

}  // namespace

const char* to_string(Arch v) { return name_of(kArch, v); }
const char* to_string(PosKind v) { return name_of(kPos, v); }
const char* to_string(NormKind v) { return name_of(kNorm, v); }
const char* to_string(NormPlacement v) { return name_of(kPlacement, v); }
const char* to_string(FfnKind v) { return name_of(kFfn, v); }
const char* to_string(HeadKind v) { return name_of(kHead, v); }

bool ModelConfig::layer_is_local(int layer) const {
  if (window <= 0) return false;
  if (layer_pattern.empty()) return true;
  return layer_pattern[layer % layer_pattern.size()] == 'L';
}

int ModelConfig::output_size() const {
  return (head == HeadKind::Lm || head == HeadKind::Mlm) ? vocab_size : n_classes;
}

void ModelConfig::validate() const {
  TP_CHECK(vocab_size >= 4 && vocab_size <= 1000000, "vocab_size = ", vocab_size,
           " is out of range; allowed: 4 .. 1000000 (it must hold the special tokens <SOS>, <EOS>, <PAD> and at least one more)");
  TP_CHECK(d_model >= 1 && d_model <= 4096, "d_model = ", d_model, " is out of range; allowed: 1 .. 4096");
  TP_CHECK(n_heads >= 1 && n_heads <= d_model, "n_heads = ", n_heads, " is out of range; allowed: 1 .. d_model (", d_model, ")");
  TP_CHECK(d_model % n_heads == 0, "d_model = ", d_model, " is not divisible by n_heads = ", n_heads,
           "; d_model must be a multiple of n_heads");
  TP_CHECK(n_kv_heads >= 0 && n_kv_heads <= n_heads, "n_kv_heads = ", n_kv_heads,
           " is out of range; allowed: 1 .. n_heads (", n_heads, "), or 0 for the same as n_heads");
  TP_CHECK(n_heads % kv_heads() == 0, "n_heads = ", n_heads, " is not divisible by n_kv_heads = ", n_kv_heads,
           "; n_kv_heads must divide n_heads (equal: MHA, a divisor: GQA, 1: MQA)");
  TP_CHECK(n_layers >= 1 && n_layers <= 64, "n_layers = ", n_layers, " is out of range; allowed: 1 .. 64");
  TP_CHECK(d_ff >= 1 && d_ff <= 65536, "d_ff = ", d_ff, " is out of range; allowed: 1 .. 65536");
  TP_CHECK(max_len >= 1 && max_len <= 4096, "max_len = ", max_len, " is out of range; allowed: 1 .. 4096");
  TP_CHECK(pos != PosKind::Rope || head_dim() % 2 == 0, "pos = rope needs an even head size, but d_model / n_heads = ",
           d_model, " / ", n_heads, " = ", head_dim(), "; choose d_model and n_heads so that it is even");
  TP_CHECK(norm_eps > 0.0f && norm_eps < 1.0f, "norm_eps = ", norm_eps, " is out of range; allowed: 0 < norm_eps < 1");
  TP_CHECK(window >= 0 && window <= max_len, "window = ", window, " is out of range; allowed: 0 (full attention) .. max_len (", max_len, ")");
  TP_CHECK(global_tokens >= 0 && global_tokens <= max_len, "global_tokens = ", global_tokens,
           " is out of range; allowed: 0 .. max_len (", max_len, ")");
  TP_CHECK(global_tokens == 0 || window > 0, "global_tokens = ", global_tokens,
           " only makes sense with a sliding window; set window > 0 or global_tokens = 0");
  for (char c : layer_pattern) {
    TP_CHECK(c == 'L' || c == 'G', "layer_pattern '", layer_pattern, "' may only contain 'L' (local, windowed) and 'G' (global) characters");
  }
  TP_CHECK(layer_pattern.size() <= 64, "layer_pattern is ", layer_pattern.size(), " characters long; allowed: at most 64");
  TP_CHECK(layer_pattern.empty() || window > 0, "layer_pattern '", layer_pattern,
           "' needs a sliding window; set window > 0 or leave layer_pattern empty");
  TP_CHECK(dropout >= 0.0f && dropout < 1.0f, "dropout = ", dropout, " is out of range; allowed: 0 <= dropout < 1");
  const bool encoder_head = head == HeadKind::Mlm || head == HeadKind::Cls || head == HeadKind::Mean || head == HeadKind::Token;
  if (arch == Arch::EncoderOnly) {
    TP_CHECK(encoder_head, "head = ", to_string(head), " is not available for an encoder-only model; allowed: mlm, cls, mean, token");
  } else {
    TP_CHECK(head == HeadKind::Lm, "head = ", to_string(head), " is only for encoder-only models; ", arch == Arch::EncoderDecoder ? "an " : "a ", to_string(arch),
             " model predicts the next token (head = lm)");
  }
  TP_CHECK(n_classes >= 2 && n_classes <= 4096, "n_classes = ", n_classes, " is out of range; allowed: 2 .. 4096");
  TP_CHECK(!tie_embeddings || head == HeadKind::Lm || head == HeadKind::Mlm,
           "tie_embeddings needs an output over the vocabulary (head lm or mlm), but head = ", to_string(head));
  const std::int64_t count = parameter_count();
  const std::int64_t bytes = count * 16;  // parameters, gradients, two Adam moments
  TP_CHECK(bytes <= kMaxModelBytes, "this configuration has ", count, " parameters, which need ", bytes / (1 << 20),
           " MB for training (parameters, gradients and Adam state); the limit is ", kMaxModelBytes / (1 << 20),
           " MB; make d_model, d_ff, n_layers or vocab_size smaller");
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

json::Value ModelConfig::to_json() const {
  json::Value v = json::Value::object();
  v.set("arch", to_string(arch));
  v.set("vocab_size", vocab_size);
  v.set("d_model", d_model);
  v.set("n_heads", n_heads);
  v.set("n_kv_heads", kv_heads());
  v.set("n_layers", n_layers);
  v.set("d_ff", d_ff);
  v.set("max_len", max_len);
  v.set("pos", to_string(pos));
  v.set("norm", to_string(norm));
  v.set("norm_placement", to_string(norm_placement));
  v.set("norm_eps", float_for_json(norm_eps));
  v.set("ffn", to_string(ffn));
  v.set("window", window);
  v.set("global_tokens", global_tokens);
  v.set("layer_pattern", layer_pattern);
  v.set("dropout", float_for_json(dropout));
  v.set("tie_embeddings", tie_embeddings);
  v.set("bias", bias);
  v.set("head", to_string(head));
  v.set("n_classes", n_classes);
  return v;
}

ModelConfig ModelConfig::from_json(const json::Value& value) {
  ModelConfig c;
  for (const auto& [key, v] : value.as_object("model config")) {
    if (key == "arch") c.arch = parse_enum(kArch, v, "arch");
    else if (key == "vocab_size") c.vocab_size = read_int(v, "vocab_size");
    else if (key == "d_model") c.d_model = read_int(v, "d_model");
    else if (key == "n_heads") c.n_heads = read_int(v, "n_heads");
    else if (key == "n_kv_heads") c.n_kv_heads = read_int(v, "n_kv_heads");
    else if (key == "n_layers") c.n_layers = read_int(v, "n_layers");
    else if (key == "d_ff") c.d_ff = read_int(v, "d_ff");
    else if (key == "max_len") c.max_len = read_int(v, "max_len");
    else if (key == "pos") c.pos = parse_enum(kPos, v, "pos");
    else if (key == "norm") c.norm = parse_enum(kNorm, v, "norm");
    else if (key == "norm_placement") c.norm_placement = parse_enum(kPlacement, v, "norm_placement");
    else if (key == "norm_eps") c.norm_eps = static_cast<float>(v.as_number("config field 'norm_eps'"));
    else if (key == "ffn") c.ffn = parse_enum(kFfn, v, "ffn");
    else if (key == "window") c.window = read_int(v, "window");
    else if (key == "global_tokens") c.global_tokens = read_int(v, "global_tokens");
    else if (key == "layer_pattern") c.layer_pattern = v.as_string("config field 'layer_pattern'");
    else if (key == "dropout") c.dropout = static_cast<float>(v.as_number("config field 'dropout'"));
    else if (key == "tie_embeddings") c.tie_embeddings = v.as_bool("config field 'tie_embeddings'");
    else if (key == "bias") c.bias = v.as_bool("config field 'bias'");
    else if (key == "head") c.head = parse_enum(kHead, v, "head");
    else if (key == "n_classes") c.n_classes = read_int(v, "n_classes");
    else {
      std::string allowed;
      for (const char* name : kFieldNames) allowed += str_cat(allowed.empty() ? "" : ", ", name);
      TP_FAIL("unknown config field '", key, "'; allowed: ", allowed);
    }
  }
  return c;
}

}  // namespace tp
