// The training loop and evaluation; see trainer.h.
#include "train/trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/det_math.h"
#include "core/error.h"
#include "model/activation_memory.h"

namespace tp {

Trainer::Trainer(Transformer& model, const Task& task, const TrainOptions& options)
    : model_(model), task_(task), options_(options), rng_(options.seed, 3) {
  options_.validate();
  task_.check_compatible(model_.config());
  check_memory();  // before the gradients, the Adam state and any batch exist
  schedule_.kind = options_.schedule;
  schedule_.lr = options_.lr;
  schedule_.warmup = options_.warmup;
  schedule_.total_steps = options_.total_steps;
  schedule_.d_model = model_.config().d_model;
  optimizer_.set_options({options_.beta1, options_.beta2, 1e-8f, options_.weight_decay});
  model_.reseed_dropout(options_.seed);
  model_.params().ensure_training_state();
  val_batches_ = task_.validation_batches(model_.config(), eval_batch_size(), options_.seq_len);
}

int Trainer::eval_batch_size() const {
  const ModelConfig& c = model_.config();
  const std::int64_t state = c.parameter_count() * 16;
  int size = std::max(options_.batch_size, 32);
  while (size > options_.batch_size &&
         estimate_activation_bytes(c, task_.largest_batch(c, size, options_.seq_len), false) + state >
             kMaxTrainingBytes) {
    size = std::max(options_.batch_size, size / 2);
  }
  return size;
}

void Trainer::check_memory() const {
  const ModelConfig& c = model_.config();
  const BatchShape train = task_.largest_batch(c, options_.batch_size, options_.seq_len);
  // Evaluation runs its batches (eval_batch_size()), forward only, in the same arena.
  const BatchShape eval = task_.largest_batch(c, eval_batch_size(), options_.seq_len);
  const std::int64_t activations =
      std::max(estimate_activation_bytes(c, train, true), estimate_activation_bytes(c, eval, false));
  const std::int64_t state = c.parameter_count() * 16;  // parameters, gradients, two Adam moments
  if (activations + state <= kMaxTrainingBytes) return;
  const auto option = [this](const auto& member) { return schema::name_of(options_, member); };
  const char* d_model = schema::name_of(c, c.d_model);
  const int length = std::max(train.src_len, train.tgt_len);
  constexpr std::int64_t kMB = 1 << 20;
  TP_FAIL(option(options_.batch_size), " × length × ", d_model, " = ", options_.batch_size, " × ", length, " × ",
          c.d_model, " is out of range for training: a step needs about ", (activations + kMB - 1) / kMB,
          " MB of activations, plus ", (state + kMB - 1) / kMB,
          " MB for the parameters, gradients and Adam state; the limit is ", kMaxTrainingBytes / kMB,
          " MB in all (length: the longest sequence of a batch, ",
          task_.kind == TaskKind::Text ? str_cat(option(options_.seq_len), " for a text task")
                                       : std::string("the task's longest example"),
          "); make ", option(options_.batch_size),
          task_.kind == TaskKind::Text ? str_cat(", ", option(options_.seq_len)) : std::string(), " or ", d_model,
          " smaller");
}

void Trainer::set_total_steps(int total) {
  TrainOptions changed = options_;
  changed.total_steps = total;
  changed.validate();
  options_ = changed;
  schedule_.total_steps = total;
}

bool Trainer::evaluation_due() const {
  const int at = last_.evaluated_at;
  if (at == 0) return true;
  if (options_.eval_every <= 0) return false;
  return step_ - at >= options_.eval_every || (step_ >= options_.total_steps && at < options_.total_steps);
}

void Trainer::update_rate() {
  const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  if (rate_start_time_ < 0.0) {
    rate_start_time_ = now;
    rate_start_tokens_ = tokens_seen_;
    return;
  }
  const double seconds = now - rate_start_time_;
  if (seconds > 0.0 && (seconds >= 0.25 || rate_ == 0.0)) rate_ = (tokens_seen_ - rate_start_tokens_) / seconds;
  if (seconds >= 0.25) {
    rate_start_time_ = now;
    rate_start_tokens_ = tokens_seen_;
  }
}

void Trainer::train_step() {
  if (rate_start_time_ < 0.0) update_rate();  // the window opens before the first step
  const Batch batch = task_.sample_batch(model_.config(), options_.batch_size, options_.seq_len, rng_);
  ParameterSet& params = model_.params();
  params.zero_grad();
  const StepStats stats = model_.forward(batch, true, nullptr, options_.label_smoothing);
  model_.backward();
  const float norm = clip_grad_norm(params, options_.clip);
  ++step_;
  const float lr = schedule_.at(step_);
  // A step whose gradient is not finite would poison every weight; skip it and report it.
  if (std::isfinite(norm)) optimizer_.step(params, lr);
  tokens_seen_ += static_cast<double>(batch.size) * (batch.src_len + batch.tgt_len);
  update_rate();
  last_.step = step_;
  last_.loss = stats.loss;
  last_.token_accuracy = stats.counted ? static_cast<double>(stats.correct) / stats.counted : 0.0;
  last_.tokens_per_s = rate_;
  last_.tokens_seen = tokens_seen_;
  last_.lr = lr;
  last_.grad_norm = norm;
  last_.evaluated = false;
  if (step_diverged(stats.loss, norm)) {
    last_.diverged = true;
    if (last_.diverged_at == 0) last_.diverged_at = step_;
  }
}

double Trainer::divergence_threshold() const {
  return 2.0 * std::log(static_cast<double>(std::max(2, model_.config().output_size()))) + 1.0;
}

bool Trainer::step_diverged(double loss, float grad_norm) const {
  if (!std::isfinite(loss) || !std::isfinite(grad_norm)) return true;
  return step_ > options_.warmup && loss > divergence_threshold();
}

StepReport Trainer::run(int n) {
  TP_CHECK(n >= 1 && n <= 1000000, "steps = ", n, " is out of range; allowed: 1 .. 1000000");
  last_.diverged = false;  // set by any step of this run that diverges
  for (int i = 0; i < n; ++i) train_step();
  if (evaluation_due()) evaluate();  // fills last_'s evaluation fields
  last_.evaluated = last_.evaluated_at == step_;
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
  if (task_.metric == "perplexity")
    e.metric = e.perplexity;
  else if (task_.metric == "exact_match")
    e.metric = e.exact_match;
  else
    e.metric = e.token_accuracy;  // token_accuracy, accuracy
  last_eval_ = e;
  last_.evaluated_at = step_;
  last_.val_loss = e.loss;
  last_.metric = e.metric;
  return e;
}

}  // namespace tp
