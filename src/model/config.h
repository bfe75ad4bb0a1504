// ModelConfig: every architecture option of the playground, with its default and its limits.
//
// One struct describes all three architectures (docs/MODEL.md has the math each field selects).
// fields() is the one table of the options — name, type, range, default, doc — from which the
// JSON of checkpoints, the command line's options, the JavaScript API's keys and types and the
// playground's controls are all derived (core/schema.h). validate() is the single gate: the
// model, the CLI, the bindings and the checkpoint reader all call it, so a bad combination is
// rejected in one place with a message that names the field and what is allowed.
#pragma once

#include <cstdint>
#include <string>

#include "core/enum_names.h"
#include "core/json.h"
#include "core/schema.h"
#include "model/memory_limit.h"
#include "nn/feed_forward.h"
#include "nn/norm.h"
#include "nn/positional.h"

namespace tp {

enum class Arch { DecoderOnly, EncoderOnly, EncoderDecoder };
enum class NormPlacement { Pre, Post };
enum class HeadKind { Lm, Mlm, Cls, Mean, Token };

inline constexpr EnumName<Arch> kArchNames[] = {{Arch::DecoderOnly, "decoder-only"},
                                                {Arch::EncoderOnly, "encoder-only"},
                                                {Arch::EncoderDecoder, "encoder-decoder"}};
inline constexpr EnumName<NormPlacement> kNormPlacementNames[] = {{NormPlacement::Post, "post"},
                                                                  {NormPlacement::Pre, "pre"}};
inline constexpr EnumName<HeadKind> kHeadKindNames[] = {{HeadKind::Lm, "lm"},
                                                        {HeadKind::Mlm, "mlm"},
                                                        {HeadKind::Cls, "cls"},
                                                        {HeadKind::Mean, "mean"},
                                                        {HeadKind::Token, "token"}};

inline const char* to_string(Arch v) { return enum_name(kArchNames, v); }
inline const char* to_string(PosKind v) { return enum_name(kPosKindNames, v); }
inline const char* to_string(RopePairs v) { return enum_name(kRopePairsNames, v); }
inline const char* to_string(NormKind v) { return enum_name(kNormKindNames, v); }
inline const char* to_string(NormPlacement v) { return enum_name(kNormPlacementNames, v); }
inline const char* to_string(FfnKind v) { return enum_name(kFfnKindNames, v); }
inline const char* to_string(HeadKind v) { return enum_name(kHeadKindNames, v); }

struct ModelConfig {
  Arch arch = Arch::DecoderOnly;
  int vocab_size = 64;
  int d_model = 64;
  int n_heads = 4;
  int n_kv_heads = 0;
  int n_layers = 2;
  int d_ff = 256;
  int max_len = 64;
  PosKind pos = PosKind::Learned;
  RopePairs rope_pairs = RopePairs::Adjacent;
  float rope_theta = 10000.0f;
  NormKind norm = NormKind::Layer;
  NormPlacement norm_placement = NormPlacement::Pre;
  float norm_eps = 1e-5f;
  FfnKind ffn = FfnKind::Gelu;
  int window = 0;
  int global_tokens = 0;
  std::string layer_pattern;
  float dropout = 0.0f;
  bool tie_embeddings = false;
  bool bias = true;
  HeadKind head = HeadKind::Lm;
  int n_classes = 2;

  // clang-format off: one line per field (the table is read as a table)
  template <typename Self, typename Visit>
  static void fields(Self& c, Visit&& visit) {
    using namespace schema;
    visit(
        Choice(
            "arch", "arch", kArchNames,
            "which stacks the model has: both (the 2017 Transformer), an encoder (BERT-like) or a decoder (GPT-like)"),
        c.arch);
    visit(Int("vocab_size", "vocabSize", 4, 1000000,
              "tokens the embedding and the output know, the special tokens included (the task's tokenizer sets it)"),
          c.vocab_size);
    visit(Int("d_model", "dModel", 1, 4096, "width of every token's vector in the residual stream"), c.d_model);
    visit(Int("n_heads", "nHeads", 1, 4096, "attention heads per layer; each gets an equal share of the width"),
          c.n_heads);
    visit(Int("n_kv_heads", "nKvHeads", 0, 4096,
              "key/value heads: as many as the heads (or 0) is multi-head attention, a divisor of the head count "
              "grouped-query, 1 multi-query"),
          c.n_kv_heads);
    visit(Int("n_layers", "nLayers", 1, 64, "layers per stack (encoder and decoder alike)"), c.n_layers);
    visit(Int("d_ff", "dFF", 1, 65536, "hidden width of the feed-forward block"), c.d_ff);
    visit(Int("max_len", "maxLen", 1, 4096, "longest sequence the model takes, in tokens"), c.max_len);
    visit(Choice("pos", "pos", kPosKindNames,
                 "how positions enter: added tables (learned, sinusoidal), rotated Q and K (rope), a distance penalty "
                 "(alibi), or none"),
          c.pos);
    visit(Choice("rope_pairs", "ropePairs", kRopePairsNames,
                 "which dimensions RoPE rotates together: adjacent ones (2i, 2i+1) as RoFormer and llama2.c, or i and "
                 "i + head size/2 as Hugging Face's Llama"),
          c.rope_pairs);
    visit(Real("rope_theta", "ropeTheta", 1, 1e9, "the base b of RoPE's rotation frequencies b^(-2i/head size)"),
          c.rope_theta);
    visit(Choice("norm", "norm", kNormKindNames, "LayerNorm (mean and variance) or RMSNorm (root mean square only)"),
          c.norm);
    visit(
        Choice("norm_placement", "normPlacement", kNormPlacementNames,
               "norm before each sublayer (pre, with a final norm) or after the residual sum (post, the 2017 layout)"),
        c.norm_placement);
    visit(Real("norm_eps", "normEps", 0, 1, "added to the variance inside the norm").open_min().open_max(), c.norm_eps);
    visit(
        Choice("ffn", "ffn", kFfnKindNames, "feed-forward activation: GELU, ReLU (the 2017 paper) or the gated SwiGLU"),
        c.ffn);
    visit(Int("window", "window", 0, 4096, "sliding-window width of local layers; 0 = full attention"), c.window);
    visit(Int("global_tokens", "globalTokens", 0, 4096,
              "leading positions that attend and are attended everywhere (with a window)"),
          c.global_tokens);
    visit(
        Text("layer_pattern", "layerPattern", "LG", 64,
             "local (L) or global (G) attention per layer, repeated; empty = every layer local when there is a window"),
        c.layer_pattern);
    visit(Real("dropout", "dropout", 0, 1,
               "dropout rate on embeddings, attention and feed-forward outputs (training only)")
              .open_max(),
          c.dropout);
    visit(Flag("tie_embeddings", "tieEmbeddings", "the output layer reuses the token embedding matrix"),
          c.tie_embeddings);
    visit(Flag("bias", "bias", "biases in the attention and feed-forward linears"), c.bias);
    visit(Choice("head", "head", kHeadKindNames,
                 "output: next token (lm), masked tokens (mlm), a class from <CLS> (cls) or the mean (mean), a class "
                 "per token (token)"),
          c.head);
    visit(Int("n_classes", "nClasses", 2, 4096, "classes of the cls, mean and token heads"), c.n_classes);
  }
  // clang-format on

  int kv_heads() const { return n_kv_heads == 0 ? n_heads : n_kv_heads; }
  int head_dim() const { return d_model / n_heads; }
  bool has_encoder() const { return arch != Arch::DecoderOnly; }
  bool has_decoder() const { return arch != Arch::EncoderOnly; }
  // Whether layer `layer` uses the sliding window.
  bool layer_is_local(int layer) const;
  // Number of outputs per position (vocab for lm/mlm, classes otherwise).
  int output_size() const;

  // Throws tp::Error naming the first bad field and the allowed values, or when the parameters
  // alone exceed max_parameter_bytes().
  void validate() const;
  std::int64_t parameter_count() const;

  // Bytes this configuration needs: to hold its parameters, to run it (parameters, a KV cache
  // of max_len positions and one pass's largest activations, an estimate), and to train it
  // (parameters, gradients and two Adam moments, plus the same activations).
  struct Memory {
    std::int64_t parameters = 0, inference = 0, training = 0;
  };
  Memory memory() const;
  // Throws tp::Error saying why when the training state exceeds kMaxTrainingBytes (the model
  // can still load and generate).
  void check_trainable() const;

  // Every field, with n_kv_heads written out (never 0), keys per `naming`.
  json::Value to_json(schema::Naming naming = schema::Naming::Snake) const;
  // Reads the fields present in `value` over the defaults; unknown keys and wrong types are
  // errors that list the allowed keys. Does not validate().
  static ModelConfig from_json(const json::Value& value, schema::Naming naming = schema::Naming::Snake);
};

// A model of the given shape with 4 heads, every other field at its default (tasks, tests and
// benchmarks start from it and change what they need).
ModelConfig model_shape(Arch arch, int vocab_size, int d_model, int n_layers, int d_ff, int max_len);

// A model's parameters (4 bytes each) must fit in max_parameter_bytes() to load
// (model/memory_limit.h: 1 GiB in wasm, the machine's memory natively), and its parameters,
// gradients and two Adam moments (16 bytes each) in kMaxTrainingBytes to train (67 M parameters),
// which keeps a page's wasm heap well inside its 4 GB address space.
constexpr std::int64_t kMaxTrainingBytes = 1LL << 30;

}  // namespace tp
