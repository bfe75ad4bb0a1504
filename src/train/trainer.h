// Trainer: the training loop of one model on one task — batches, forward, backward, clipping,
// AdamW with a schedule — and evaluation on the task's validation set.
//
// It owns nothing but its RNG, optimizer and counters: the model and the task outlive it. The
// same seed gives the same batches, dropout masks and therefore the same loss curve, run after
// run and in the native and wasm builds alike.
#pragma once

#include <cstdint>
#include <string>

#include "io/json.h"
#include "model/transformer.h"
#include "tasks/task.h"
#include "train/optimizer.h"
#include "train/schedule.h"

namespace tp {

struct TrainOptions {
  float lr = 3e-3f;
  int batch_size = 16;
  int warmup = 20;
  ScheduleKind schedule = ScheduleKind::Cosine;
  int total_steps = 1000;   // length of the cosine decay
  float clip = 1.0f;        // max global gradient norm; 0 = no clipping
  float weight_decay = 0.01f;
  float label_smoothing = 0.0f;
  float beta1 = 0.9f, beta2 = 0.98f;
  std::uint64_t seed = 1;
  int eval_every = 100;     // run() evaluates every this many steps (0 = only when asked)

  static TrainOptions defaults_for(const Task& task);
  void validate() const;    // tp::Error naming the bad field
  // Fields present in `value` (snake_case names as above, "schedule" by name) over `base`;
  // unknown keys and wrong types are errors listing the allowed keys.
  static TrainOptions from_json(const json::Value& value, TrainOptions base);
};

// Metrics of a pass over the validation set. token_accuracy counts target tokens (or labels);
// exact_match counts sequences whose every target token is predicted right under teacher forcing.
struct Evaluation {
  double loss = 0.0;
  double perplexity = 0.0;
  double token_accuracy = 0.0;
  double exact_match = 0.0;
  double metric = 0.0;  // the task's own metric (one of the above)
  int targets = 0;
  int sequences = 0;
};

struct StepReport {
  int step = 0;
  double loss = 0.0;         // training loss of the last step
  double token_accuracy = 0.0;  // on the last training batch
  bool evaluated = false;    // whether val_loss/metric are fresh
  double val_loss = 0.0;
  double metric = 0.0;
  double tokens_per_s = 0.0; // input positions processed per second over the steps just run
  float lr = 0.0f;
  float grad_norm = 0.0f;    // before clipping
};

class Trainer {
 public:
  // Checks that the model can run the task and the options are valid (tp::Error otherwise).
  Trainer(Transformer& model, const Task& task, const TrainOptions& options);

  // n optimizer steps, evaluating whenever the step count reaches a multiple of eval_every.
  // Returns the last step's report; val_loss/metric are the latest evaluation's (evaluated says
  // whether it happened during this call's last step).
  StepReport run(int n);
  StepReport step();
  Evaluation evaluate();

  int step_count() const { return step_; }
  // Extends (or shortens) the planned run: the cosine schedule decays over the new length from
  // here on, and the weights and optimizer state are kept.
  void set_total_steps(int total);
  const TrainOptions& options() const { return options_; }
  const StepReport& last() const { return last_; }
  const Evaluation& last_evaluation() const { return last_eval_; }
  double tokens_seen() const { return tokens_seen_; }

 private:
  Transformer& model_;
  const Task& task_;
  TrainOptions options_;
  Schedule schedule_;
  AdamW optimizer_;
  Rng rng_;
  int step_ = 0;
  double tokens_seen_ = 0.0;
  StepReport last_;
  Evaluation last_eval_;
  std::vector<Batch> val_batches_;
};

}  // namespace tp
