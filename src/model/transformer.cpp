// Transformer construction, initialisation and the forward/backward of a whole batch.
// The per-stack work is in stack.cpp, the output layer and loss in heads.cpp.
#include "model/transformer.h"

#include <cmath>

#include "core/error.h"
#include "core/profiler.h"
#include "nn/loss.h"

namespace tp {

Transformer::Transformer(const ModelConfig& config, std::uint64_t seed, WeightInit init)
    : config_(config), dropout_rng_(seed, 7) {
  config_.validate();
  if (config_.n_kv_heads == 0) config_.n_kv_heads = config_.n_heads;
  build();
  params_.finalize(init == WeightInit::Random);  // Unset: the loader writes every value
  if (init == WeightInit::Random) init_weights(seed);
}

Transformer::Transformer(const ModelConfig& config, LayoutOnly) : config_(config), dropout_rng_(0, 7) {
  config_.validate();
  if (config_.n_kv_heads == 0) config_.n_kv_heads = config_.n_heads;
  build();
}

std::vector<ParamInfo> Transformer::parameter_layout(const ModelConfig& config) {
  const Transformer layout(config, LayoutOnly{});
  return layout.params_.infos();
}

void Transformer::build() {
  const ModelConfig& c = config_;
  if (c.pos == PosKind::Rope) {
    rope_table_ =
        std::make_unique<nn::RopeTable>(nn::RopeTable::create(c.max_len, c.head_dim(), c.rope_theta, c.rope_pairs));
  }
  embedding_ = nn::Embedding::create(params_, c.vocab_size, c.d_model, c.pos, c.max_len);
  const nn::AttentionShape shape{c.d_model, c.n_heads, c.kv_heads(), c.bias};
  const auto norm = [&](const std::string& name) {
    return nn::Norm::create(params_, name, c.norm, c.d_model, c.norm_eps);
  };
  auto make_stack = [&](const std::string& prefix, bool cross, std::vector<LayerModules>& layers,
                        nn::Norm& final_norm) {
    for (int l = 0; l < c.n_layers; ++l) {
      const std::string p = prefix + "." + std::to_string(l);
      LayerModules m;
      m.has_cross = cross;
      m.self_attn = nn::Attention::create(params_, p + ".self_attn", shape, true, c.pos, rope_table_.get());
      m.norm1 = norm(p + ".norm1");
      if (cross) {
        m.cross_attn = nn::Attention::create(params_, p + ".cross_attn", shape, false, c.pos, nullptr);
        m.norm2 = norm(p + ".norm2");
      }
      m.ffn = nn::FeedForward::create(params_, p + ".ffn", c.ffn, c.d_model, c.d_ff, c.bias);
      if (cross) {
        m.norm3 = norm(p + ".norm3");
      } else {
        m.norm2 = norm(p + ".norm2");
      }
      layers.push_back(m);
    }
    if (c.norm_placement == NormPlacement::Pre) final_norm = norm(prefix + ".final_norm");
  };
  if (c.has_encoder()) make_stack("enc", false, enc_layers_, enc_final_norm_);
  if (c.has_decoder()) make_stack("dec", c.arch == Arch::EncoderDecoder, dec_layers_, dec_final_norm_);
  switch (c.head) {
    case HeadKind::Lm:
    case HeadKind::Mlm:
      if (!c.tie_embeddings) lm_head_ = params_.add("lm_head.weight", {c.vocab_size, c.d_model}, true);
      break;
    case HeadKind::Cls:
    case HeadKind::Mean:
      class_head_ = nn::Linear::create(params_, "cls_head", c.d_model, c.n_classes, true);
      break;
    case HeadKind::Token:
      class_head_ = nn::Linear::create(params_, "token_head", c.d_model, c.n_classes, true);
      break;
  }
}

void Transformer::init_weights(std::uint64_t seed) {
  // LeCun-normal: std 1/√fan_in keeps activations O(1) at every width, from the seed's
  // d_model = 6 to hundreds; residual output projections are shrunk by 1/√(2·n_layers) so the
  // residual stream does not grow with depth (GPT-2).
  Rng rng(seed, 11);
  const float residual_scale = 1.0f / std::sqrt(2.0f * config_.n_layers);
  for (int i = 0; i < params_.count(); ++i) {
    const ParamInfo& info = params_.info(i);
    float* v = params_.value(i);
    const std::string& name = info.name;
    const auto ends_with = [&](const char* suffix) {
      const std::size_t n = std::char_traits<char>::length(suffix);
      return name.size() >= n && name.compare(name.size() - n, n, suffix) == 0;
    };
    const bool norm = name.find(".norm") != std::string::npos || name.find("final_norm") != std::string::npos;
    if (norm) {
      std::fill(v, v + info.size, ends_with(".weight") ? 1.0f : 0.0f);
    } else if (ends_with(".bias")) {
      std::fill(v, v + info.size, 0.0f);
    } else {
      const int fan_in = info.shape[info.shape.ndim - 1];
      float std = 1.0f / std::sqrt(static_cast<float>(fan_in));
      if (ends_with(".o.weight") || ends_with(".down.weight")) std *= residual_scale;
      for (std::size_t k = 0; k < info.size; ++k) v[k] = rng.normal(0.0f, std);
    }
  }
  params_.reset_optimizer_state();
}

namespace {

void check_ids(const std::vector<int>& ids, std::size_t expected, const char* what) {
  TP_CHECK(ids.size() == expected, "batch field '", what, "' has ", ids.size(), " ids but size x length = ", expected);
}

}  // namespace

StepStats Transformer::forward(const Batch& batch, bool train, Trace* trace, float label_smoothing) {
  const ModelConfig& c = config_;
  const int B = batch.size;
  TP_CHECK(B >= 1, "a batch needs at least one sequence, got ", B);
  if (c.has_encoder()) {
    TP_CHECK(batch.src_len >= 1 && batch.src_len <= c.max_len, "source length ", batch.src_len,
             " is out of range; allowed: 1 .. ", schema::name_of(c, c.max_len), " (", c.max_len, ")");
    check_ids(batch.src, static_cast<std::size_t>(B) * batch.src_len, "src");
  }
  if (c.has_decoder()) {
    TP_CHECK(batch.tgt_len >= 1 && batch.tgt_len <= c.max_len, "target length ", batch.tgt_len,
             " is out of range; allowed: 1 .. ", schema::name_of(c, c.max_len), " (", c.max_len, ")");
    check_ids(batch.tgt_in, static_cast<std::size_t>(B) * batch.tgt_len, "tgt_in");
  }
  TP_CHECK(label_smoothing >= 0.0f && label_smoothing < 1.0f, "label_smoothing = ", label_smoothing,
           " is out of range; allowed: 0 <= label_smoothing < 1");
  const bool with_targets = !batch.targets.empty();
  if (with_targets) {
    const bool pooled = c.head == HeadKind::Cls || c.head == HeadKind::Mean;
    const int per_row = pooled ? 1 : (c.has_decoder() ? batch.tgt_len : batch.src_len);
    check_ids(batch.targets, static_cast<std::size_t>(B) * per_row, "targets");
  }
  TP_CHECK(!train || with_targets, "a training step needs targets");

  arena_.reset();
  batch_ = batch;
  label_smoothing_ = label_smoothing;
  trained_forward_ = false;
  if (train) {
    c.check_trainable();
    params_.ensure_training_state();
  }

  const float* hidden = nullptr;
  int T = 0;
  const int* ids = nullptr;
  if (c.has_encoder()) {
    run_stack(true, batch_.src.data(), B, batch_.src_len, nullptr, nullptr, 0, batch_.pad_id, train, enc_acts_, trace);
    hidden = enc_acts_.out;
    T = batch_.src_len;
    ids = batch_.src.data();
  }
  if (c.has_decoder()) {
    const bool cross = c.arch == Arch::EncoderDecoder;
    run_stack(false, batch_.tgt_in.data(), B, batch_.tgt_len, cross ? enc_acts_.out : nullptr,
              cross ? batch_.src.data() : nullptr, cross ? batch_.src_len : 0, batch_.pad_id, train, dec_acts_, trace);
    hidden = dec_acts_.out;
    T = batch_.tgt_len;
    ids = batch_.tgt_in.data();
  }
  head_forward(hidden, B, T, ids, batch_.pad_id, trace);

  StepStats stats;
  if (with_targets) {
    ProfileScope scope(ProfileKind::Loss, false);
    const int classes = c.output_size();
    probs_ = arena_.alloc(static_cast<std::size_t>(logit_rows_) * classes);
    dlogits_ = train ? arena_.alloc(static_cast<std::size_t>(logit_rows_) * classes) : nullptr;
    const nn::LossResult r =
        nn::cross_entropy(logits_, batch_.targets.data(), logit_rows_, classes, label_smoothing, dlogits_, probs_);
    stats.loss = r.loss;
    stats.counted = r.counted;
    stats.correct = r.correct;
    if (trace) trace->record("probs", {logit_rows_ / B, classes}, probs_);
  } else {
    probs_ = nullptr;
  }
  trained_forward_ = train;
  return stats;
}

void Transformer::backward() {
  TP_CHECK(trained_forward_, "backward() needs a training forward() (train = true, with targets) just before it");
  trained_forward_ = false;
  const ModelConfig& c = config_;
  const int B = batch_.size, D = c.d_model;
  const int T = c.has_decoder() ? batch_.tgt_len : batch_.src_len;
  const int* ids = c.has_decoder() ? batch_.tgt_in.data() : batch_.src.data();
  const float* hidden = c.has_decoder() ? dec_acts_.out : enc_acts_.out;
  float* dhidden = arena_.alloc(static_cast<std::size_t>(B) * T * D);
  head_backward(hidden, B, T, ids, batch_.pad_id, dhidden);
  if (c.arch == Arch::EncoderDecoder) {
    float* d_enc = arena_.zeros(static_cast<std::size_t>(B) * batch_.src_len * D);
    backward_stack(false, batch_.tgt_in.data(), B, batch_.tgt_len, enc_acts_.out, batch_.src_len, dec_acts_, dhidden,
                   d_enc);
    backward_stack(true, batch_.src.data(), B, batch_.src_len, nullptr, 0, enc_acts_, d_enc, nullptr);
  } else {
    backward_stack(!c.has_decoder(), ids, B, T, nullptr, 0, c.has_decoder() ? dec_acts_ : enc_acts_, dhidden, nullptr);
  }
}

void Transformer::encode(const int* src, int B, int S, int pad_id, float* enc_out) {
  TP_CHECK(config_.has_encoder(), "encode() needs a model with an encoder; this one is ", to_string(config_.arch));
  TP_CHECK(S >= 1 && S <= config_.max_len, "source length ", S, " is out of range; allowed: 1 .. ",
           schema::name_of(config_, config_.max_len), " (", config_.max_len, ")");
  arena_.reset();
  trained_forward_ = false;
  run_stack(true, src, B, S, nullptr, nullptr, 0, pad_id, false, enc_acts_, nullptr);
  std::copy(enc_acts_.out, enc_acts_.out + static_cast<std::size_t>(B) * S * config_.d_model, enc_out);
}

}  // namespace tp
