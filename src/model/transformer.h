// Transformer: the three architectures of the playground assembled from the layers in src/nn.
//
// A model is its config, a ParameterSet (one slab per kind of state) and an activation arena.
// forward() runs a Batch and keeps what backward() needs; backward() reads the same buffers
// bottom-up and accumulates gradients into the parameter slab. After the first step of a given
// batch shape neither allocates. Generation (src/generate) runs start_decoding()/decode(): the
// same layers and sublayers as forward(), against a KV cache; the trace (core/trace.h) is filled
// when a Trace* is passed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/arena.h"
#include "core/params.h"
#include "core/rng.h"
#include "core/trace.h"
#include "model/batch.h"
#include "model/config.h"
#include "model/kv_cache.h"
#include "nn/attention.h"
#include "nn/embedding.h"
#include "nn/feed_forward.h"
#include "nn/linear.h"
#include "nn/norm.h"

namespace tp {

struct StepStats {
  double loss = 0.0;  // mean over counted targets
  int counted = 0;    // targets that count (not −1)
  int correct = 0;    // of those, predicted right by argmax
};

// One layer's modules. Pre-norm: x + f(norm(x)); post-norm: norm(x + f(x)).
struct LayerModules {
  nn::Norm norm1, norm2, norm3;  // norm3 only in decoder layers with cross-attention
  nn::Attention self_attn, cross_attn;
  nn::FeedForward ffn;
  bool has_cross = false;
};

// What one residual sublayer keeps for backward.
struct SublayerActs {
  const float* in = nullptr;   // [N, D] sublayer input
  float* normed = nullptr;     // pre: norm(in) — the function's input
  float* sum = nullptr;        // post: in + drop(f(in)) — the norm's input
  float* mean = nullptr;       // [N]
  float* rstd = nullptr;       // [N]
  float* f_out = nullptr;      // [N, D] f's output after dropout
  float* drop_mask = nullptr;  // [N, D] when dropout > 0
  float* out = nullptr;        // [N, D]
};

struct LayerActs {
  SublayerActs self, cross, ffn;
  nn::AttentionSaved self_saved, cross_saved;
  nn::FeedForwardSaved ffn_saved;
};

struct StackActs {
  float* x0 = nullptr;        // [N, D] embedding output (after dropout)
  float* emb_drop = nullptr;  // dropout mask of the embedding
  std::vector<LayerActs> layers;
  float* final_in = nullptr;  // last layer's output
  float* final_mean = nullptr;
  float* final_rstd = nullptr;
  float* out = nullptr;  // [N, D] stack output
};

struct SublayerContext;  // model/sublayer.h

// Random: initialised from the seed. Unset: for loaders that overwrite every parameter (a
// checkpoint, an imported model), which skip drawing millions of numbers they would discard.
enum class WeightInit { Random, Unset };

class Transformer {
 public:
  // Validates the config (tp::Error on a bad one), registers and initialises the parameters.
  Transformer(const ModelConfig& config, std::uint64_t seed, WeightInit init = WeightInit::Random);
  // Movable (layers point at the heap-held RoPE table, which moves with the model), not copyable.
  Transformer(Transformer&&) = default;
  Transformer& operator=(Transformer&&) = default;
  Transformer(const Transformer&) = delete;
  Transformer& operator=(const Transformer&) = delete;

  // The parameters `config` registers (names, shapes), without allocating them: what an importer
  // checks a file against before it builds the model.
  static std::vector<ParamInfo> parameter_layout(const ModelConfig& config);

  const ModelConfig& config() const { return config_; }
  ParameterSet& params() { return params_; }
  const ParameterSet& params() const { return params_; }
  void init_weights(std::uint64_t seed);
  // Restarts the dropout mask stream (tests use it to get the same masks twice).
  void reseed_dropout(std::uint64_t seed) { dropout_rng_ = Rng(seed, 7); }

  // Runs the batch. With train = true dropout is active and backward() may follow. Logits are in
  // logits() ([logit_rows, config().output_size()]); the loss is computed when the batch has
  // targets. A trace records batch row 0.
  StepStats forward(const Batch& batch, bool train, Trace* trace = nullptr, float label_smoothing = 0.0f);
  // Gradients of the last training forward's loss, accumulated into params().grad(...).
  void backward();

  const float* logits() const { return logits_; }
  int logit_rows() const { return logit_rows_; }
  const float* probs() const { return probs_; }  // softmax of logits (filled by forward with targets)

  // Bytes of activation memory currently reserved.
  std::size_t activation_bytes() const { return arena_.capacity() * sizeof(float); }

  // Generation. A cache sized for this model; for an encoder-decoder model `source` is encoded
  // once here and every layer's cross-attention keys and values computed from it. Keys equal to
  // pad_id (the tokenizer's <PAD>, or -1) are masked, as in forward().
  KvCache start_decoding(const std::vector<int>& source, int pad_id);
  // Runs tokens[0..n) at positions cache.next_position.. through the decoder, appending their
  // keys and values to the cache, and writes the logits of the last one to `logits` [output_size].
  void decode(KvCache& cache, const int* tokens, int n, float* logits);

  // The encoder over a source batch (ids [B, S]) into enc_out [B, S, D].
  void encode(const int* src, int B, int S, int pad_id, float* enc_out);

 private:
  ModelConfig config_;
  ParameterSet params_;
  Rng dropout_rng_;
  std::unique_ptr<nn::RopeTable> rope_table_;
  nn::Embedding embedding_;
  std::vector<LayerModules> enc_layers_, dec_layers_;
  nn::Norm enc_final_norm_, dec_final_norm_;
  int lm_head_ = -1;       // [V, D] when untied lm/mlm
  nn::Linear class_head_;  // cls/mean/token
  Arena arena_, scratch_;

  // Last forward's state, for backward().
  Batch batch_;
  bool trained_forward_ = false;
  float label_smoothing_ = 0.0f;
  StackActs enc_acts_, dec_acts_;
  float* head_in_ = nullptr;  // [rows, D] what the output layer read (pooled for cls/mean)
  float* logits_ = nullptr;
  float* probs_ = nullptr;
  float* dlogits_ = nullptr;
  int logit_rows_ = 0;
  std::vector<int> row_targets_;

  struct LayoutOnly {};
  Transformer(const ModelConfig& config, LayoutOnly);  // registers the parameters, allocates none
  void build();
  SublayerContext sublayer_context(int rows, bool train, Arena& arena);
  // Layer `layer`'s self-attention mask (model/attention_masks.h) over keys `ids`.
  nn::MaskSpec self_mask(int layer, bool encoder, const int* ids, int pad_id) const;
  void run_stack(bool encoder, const int* ids, int B, int T, const float* enc_out, const int* src_ids, int S,
                 int pad_id, bool train, StackActs& acts, Trace* trace);
  void backward_stack(bool encoder, const int* ids, int B, int T, const float* enc_out, int S, StackActs& acts,
                      float* dout, float* d_enc_out);
  void head_forward(const float* hidden, int B, int T, const int* ids, int pad_id, Trace* trace);
  void head_backward(const float* hidden, int B, int T, const int* ids, int pad_id, float* dhidden);
  void output_logits(const float* hidden, int rows, float* logits) const;
};

}  // namespace tp
