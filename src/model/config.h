// ModelConfig: every architecture option of the playground, with its default and its limits.
//
// One struct describes all three architectures (docs/MODEL.md has the math each field selects).
// validate() is the single gate: the model, the CLI, the bindings and the checkpoint reader all
// call it, so a bad combination is rejected in one place with a message that names the field and
// what is allowed. to_json/from_json give the checkpoint metadata and the JS config objects.
#pragma once

#include <cstdint>
#include <string>

#include "io/json.h"

namespace tp {

enum class Arch { DecoderOnly, EncoderOnly, EncoderDecoder };
enum class PosKind { Learned, Sinusoidal, Rope, Alibi, None };
enum class NormKind { Layer, Rms };
enum class NormPlacement { Pre, Post };
enum class FfnKind { Gelu, Relu, SwiGlu };
enum class HeadKind { Lm, Mlm, Cls, Mean, Token };

const char* to_string(Arch v);
const char* to_string(PosKind v);
const char* to_string(NormKind v);
const char* to_string(NormPlacement v);
const char* to_string(FfnKind v);
const char* to_string(HeadKind v);

struct ModelConfig {
  Arch arch = Arch::DecoderOnly;
  int vocab_size = 64;       // shared by source and target; includes the special tokens
  int d_model = 64;
  int n_heads = 4;
  int n_kv_heads = 0;        // 0 = same as n_heads (MHA); a divisor of n_heads = GQA; 1 = MQA
  int n_layers = 2;          // per stack (encoder and decoder alike)
  int d_ff = 256;            // feed-forward hidden width
  int max_len = 64;          // positions 0 .. max_len-1
  PosKind pos = PosKind::Learned;
  NormKind norm = NormKind::Layer;
  NormPlacement norm_placement = NormPlacement::Pre;  // pre adds a final norm per stack
  float norm_eps = 1e-5f;
  FfnKind ffn = FfnKind::Gelu;
  int window = 0;            // sliding-window width for local layers; 0 = full attention
  int global_tokens = 0;     // leading positions that attend and are attended everywhere
  std::string layer_pattern; // 'L'/'G' per layer, cyclic; "" = all layers local when window > 0
  float dropout = 0.0f;      // embeddings, attention output, FFN output (training only)
  bool tie_embeddings = false;
  bool bias = true;          // biases in attention and FFN linears
  HeadKind head = HeadKind::Lm;  // encoder-only: mlm, cls, mean or token
  int n_classes = 2;         // cls, mean, token heads

  int kv_heads() const { return n_kv_heads == 0 ? n_heads : n_kv_heads; }
  int head_dim() const { return d_model / n_heads; }
  bool has_encoder() const { return arch != Arch::DecoderOnly; }
  bool has_decoder() const { return arch != Arch::EncoderOnly; }
  // Whether layer `layer` uses the sliding window.
  bool layer_is_local(int layer) const;
  // Number of outputs per position (vocab for lm/mlm, classes otherwise).
  int output_size() const;

  // Throws tp::Error naming the first bad field and the allowed values.
  void validate() const;
  std::int64_t parameter_count() const;

  json::Value to_json() const;
  // Reads the fields present in `value` over the defaults; unknown keys and wrong types are
  // errors that list the allowed keys. Does not validate().
  static ModelConfig from_json(const json::Value& value);
};

// Parameters plus their gradients and two Adam moments must fit in this many bytes.
constexpr std::int64_t kMaxModelBytes = 1LL << 30;

}  // namespace tp
