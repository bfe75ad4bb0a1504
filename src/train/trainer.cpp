// The training loop and evaluation; see trainer.h.
#include "train/trainer.h"

#include <chrono>
#include <cmath>

#include "core/det_math.h"
#include "core/error.h"

namespace tp {

TrainOptions TrainOptions::defaults_for(const Task& task) {
  TrainOptions o;
  const TrainDefaults& d = task.train;
  o.lr = d.lr;
  o.batch_size = d.batch_size;
  o.warmup = d.warmup;
  o.schedule = d.schedule;
  o.total_steps = d.steps;
  o.clip = d.clip;
  o.weight_decay = d.weight_decay;
  o.label_smoothing = d.label_smoothing;
  o.eval_every = d.eval_every;
  return o;
}

void TrainOptions::validate() const {
  TP_CHECK(lr > 0.0f && lr <= 10.0f, "lr = ", lr, " is out of range; allowed: 0 < lr <= 10");
  TP_CHECK(batch_size >= 1 && batch_size <= 4096, "batch_size = ", batch_size, " is out of range; allowed: 1 .. 4096");
  TP_CHECK(warmup >= 0 && warmup <= 10000000, "warmup = ", warmup, " is out of range; allowed: 0 .. 10000000");
  TP_CHECK(total_steps >= 1 && total_steps <= 100000000, "total_steps = ", total_steps,
           " is out of range; allowed: 1 .. 100000000");
  TP_CHECK(clip >= 0.0f, "clip = ", clip, " must be >= 0 (0 turns clipping off)");
  TP_CHECK(weight_decay >= 0.0f && weight_decay < 1.0f, "weight_decay = ", weight_decay, " is out of range; allowed: 0 .. 1");
  TP_CHECK(label_smoothing >= 0.0f && label_smoothing < 1.0f, "label_smoothing = ", label_smoothing,
           " is out of range; allowed: 0 <= label_smoothing < 1");
  TP_CHECK(beta1 >= 0.0f && beta1 < 1.0f && beta2 >= 0.0f && beta2 < 1.0f, "beta1 and beta2 must be in [0, 1), got ",
           beta1, " and ", beta2);
  TP_CHECK(eval_every >= 0, "eval_every = ", eval_every, " must be >= 0 (0 = only when asked)");
}

TrainOptions TrainOptions::from_json(const json::Value& value, TrainOptions o) {
  for (const auto& member : value.as_object("training options")) {
    const std::string& key = member.first;
    const json::Value& v = member.second;
    const std::string what = "training option '" + key + "'";
    auto integer = [&] {
      const std::int64_t i = v.as_int(what);
      TP_CHECK(i >= -2147483647LL && i <= 2147483647LL, what, " = ", i, " is out of range");
      return static_cast<int>(i);
    };
    if (key == "lr") o.lr = static_cast<float>(v.as_number(what));
    else if (key == "batch_size") o.batch_size = integer();
    else if (key == "warmup") o.warmup = integer();
    else if (key == "schedule") o.schedule = parse_schedule(v.as_string(what));
    else if (key == "total_steps") o.total_steps = integer();
    else if (key == "clip") o.clip = static_cast<float>(v.as_number(what));
    else if (key == "weight_decay") o.weight_decay = static_cast<float>(v.as_number(what));
    else if (key == "label_smoothing") o.label_smoothing = static_cast<float>(v.as_number(what));
    else if (key == "beta1") o.beta1 = static_cast<float>(v.as_number(what));
    else if (key == "beta2") o.beta2 = static_cast<float>(v.as_number(what));
    else if (key == "seed") o.seed = static_cast<std::uint64_t>(v.as_int(what));
    else if (key == "eval_every") o.eval_every = integer();
    else TP_FAIL("unknown training option '", key, "'; allowed: lr, batch_size, warmup, schedule, total_steps, clip, "
                 "weight_decay, label_smoothing, beta1, beta2, seed, eval_every");
  }
  return o;
}

Trainer::Trainer(Transformer& model, const Task& task, const TrainOptions& options)
    : model_(model), task_(task), options_(options), rng_(options.seed, 3) {
  options_.validate();
  task_.check_compatible(model_.config());
  schedule_.kind = options_.schedule;
  schedule_.lr = options_.lr;
  schedule_.warmup = options_.warmup;
  schedule_.total_steps = options_.total_steps;
  schedule_.d_model = model_.config().d_model;
  optimizer_.set_options({options_.beta1, options_.beta2, 1e-8f, options_.weight_decay});
  model_.reseed_dropout(options_.seed);
  model_.params().ensure_training_state();
  val_batches_ = task_.validation_batches(model_.config(), std::max(options_.batch_size, 32));
}

void Trainer::set_total_steps(int total) {
  TP_CHECK(total >= 1 && total <= 100000000, "total_steps = ", total, " is out of range; allowed: 1 .. 100000000");
  options_.total_steps = total;
  schedule_.total_steps = total;
}

StepReport Trainer::step() {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const Batch batch = task_.sample_batch(model_.config(), options_.batch_size, rng_);
  ParameterSet& params = model_.params();
  params.zero_grad();
  const StepStats stats = model_.forward(batch, true, nullptr, options_.label_smoothing);
  model_.backward();
  const float norm = clip_grad_norm(params, options_.clip);
  ++step_;
  const float lr = schedule_.at(step_);
  // A step whose gradient is not finite would poison every weight; skip it and report it.
  if (std::isfinite(norm)) optimizer_.step(params, lr);
  const double seconds = std::chrono::duration<double>(clock::now() - start).count();
  const double positions = static_cast<double>(batch.size) * (batch.src_len + batch.tgt_len);
  tokens_seen_ += positions;
  last_.step = step_;
  last_.loss = stats.loss;
  last_.token_accuracy = stats.counted ? static_cast<double>(stats.correct) / stats.counted : 0.0;
  last_.tokens_per_s = positions / std::max(seconds, 1e-9);
  last_.lr = lr;
  last_.grad_norm = norm;
  last_.evaluated = false;
  return last_;
}

StepReport Trainer::run(int n) {
  TP_CHECK(n >= 1 && n <= 1000000, "steps = ", n, " is out of range; allowed: 1 .. 1000000");
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const double tokens_before = tokens_seen_;
  bool evaluated = false;
  for (int i = 0; i < n; ++i) {
    step();
    evaluated = false;
    if (options_.eval_every > 0 && step_ % options_.eval_every == 0) {
      evaluate();
      evaluated = true;
    }
  }
  const double seconds = std::chrono::duration<double>(clock::now() - start).count();
  last_.tokens_per_s = (tokens_seen_ - tokens_before) / std::max(seconds, 1e-9);
  last_.evaluated = evaluated;
  last_.val_loss = last_eval_.loss;
  last_.metric = last_eval_.metric;
  return last_;
}

Evaluation Trainer::evaluate() {
  Evaluation e;
  double loss_sum = 0.0;
  int correct = 0, exact = 0;
  const bool pooled = model_.config().head == HeadKind::Cls || model_.config().head == HeadKind::Mean;
  for (const Batch& batch : val_batches_) {
    const StepStats s = model_.forward(batch, false);
    loss_sum += s.loss * s.counted;
    e.targets += s.counted;
    correct += s.correct;
    // Exact match: every counted target of a sequence is the argmax.
    const int rows_per_seq = pooled ? 1 : model_.logit_rows() / batch.size;
    const int classes = model_.config().output_size();
    for (int b = 0; b < batch.size; ++b) {
      bool all = true;
      for (int r = 0; r < rows_per_seq && all; ++r) {
        const int row = b * rows_per_seq + r;
        const int t = batch.targets[row];
        if (t < 0) continue;
        const float* z = model_.logits() + static_cast<long>(row) * classes;
        all = std::max_element(z, z + classes) - z == t;
      }
      exact += all;
    }
    e.sequences += batch.size;
  }
  e.loss = e.targets ? loss_sum / e.targets : 0.0;
  e.perplexity = det::exp(e.loss);
  e.token_accuracy = e.targets ? static_cast<double>(correct) / e.targets : 0.0;
  e.exact_match = e.sequences ? static_cast<double>(exact) / e.sequences : 0.0;
  if (task_.metric == "perplexity") e.metric = e.perplexity;
  else if (task_.metric == "exact_match") e.metric = e.exact_match;
  else e.metric = e.token_accuracy;  // token_accuracy, accuracy
  last_eval_ = e;
  return e;
}

}  // namespace tp
