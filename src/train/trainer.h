// Trainer: the training loop of one model on one task — batches, forward, backward, clipping,
// AdamW with a schedule — and evaluation on the task's validation set.
//
// It owns nothing but its RNG, optimizer and counters: the model and the task outlive it. The
// same seed gives the same batches, dropout masks and therefore the same loss curve, run after
// run and in the native and wasm builds alike. It is also the one place that decides when to
// evaluate and how fast training runs (tokens/s): the command line, the bindings and the page's
// worker only pass its reports on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/schema.h"
#include "model/train_options.h"
#include "model/transformer.h"
#include "tasks/task.h"
#include "train/optimizer.h"
#include "train/schedule.h"

namespace tp {

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

  // clang-format off: one line per field (the table is read as a table)
  template <typename Self, typename Visit>
  static void fields(Self& e, Visit&& visit) {
    using namespace schema;
    const double inf = kNoMax;
    visit(Real("loss", "loss", 0, inf, "mean cross-entropy over the validation targets"), e.loss);
    visit(Real("perplexity", "perplexity", 0, inf, "exp(loss)"), e.perplexity);
    visit(Real("token_accuracy", "tokenAccuracy", 0, 1, "share of targets whose most likely token is right"),
          e.token_accuracy);
    visit(Real("exact_match", "exactMatch", 0, 1, "share of sequences with every target right"), e.exact_match);
    visit(Real("metric", "metric", 0, inf, "the task's own metric (one of the above)"), e.metric);
    visit(Int("targets", "targets", 0, 2147483647, "targets scored"), e.targets);
    visit(Int("sequences", "sequences", 0, 2147483647, "sequences scored"), e.sequences);
  }
  // clang-format on
};

// What one training step reports (the last one, for a run of several).
struct StepReport {
  int step = 0;
  double loss = 0.0;            // training loss of the step
  double token_accuracy = 0.0;  // on the step's batch
  bool evaluated = false;       // whether this step ended with an evaluation
  double val_loss = 0.0;        // the latest evaluation's, at step evaluated_at
  double metric = 0.0;
  int evaluated_at = 0;       // 0: never evaluated
  double tokens_per_s = 0.0;  // input positions per second over the last quarter second or more
  float lr = 0.0f;
  float grad_norm = 0.0f;  // before clipping
  double tokens_seen = 0.0;
  bool diverged = false;  // a step of this run diverged (divergence_threshold() says when)
  int diverged_at = 0;    // the first step that diverged since training began; 0: none

  // clang-format off: one line per field (the table is read as a table)
  template <typename Self, typename Visit>
  static void fields(Self& r, Visit&& visit) {
    using namespace schema;
    const double inf = kNoMax;
    visit(Int("step", "step", 0, 2147483647, "optimizer steps taken"), r.step);
    visit(Real("loss", "loss", 0, inf, "training loss of the step"), r.loss);
    visit(Real("token_accuracy", "tokenAccuracy", 0, 1, "accuracy on the step's batch"), r.token_accuracy);
    visit(Flag("evaluated", "evaluated", "this step ended with an evaluation"), r.evaluated);
    visit(Real("val_loss", "valLoss", 0, inf, "validation loss of the latest evaluation"), r.val_loss);
    visit(Real("metric", "metric", 0, inf, "the task's metric at the latest evaluation"), r.metric);
    visit(Int("evaluated_at", "evaluatedAt", 0, 2147483647, "step of the latest evaluation (0: none yet)"),
          r.evaluated_at);
    visit(Real("tokens_per_s", "tokensPerSec", 0, inf, "input positions per second, recently"), r.tokens_per_s);
    visit(Real("lr", "lr", 0, inf, "learning rate of the step"), r.lr);
    visit(Real("grad_norm", "gradNorm", 0, inf, "global gradient norm before clipping"), r.grad_norm);
    visit(Real("tokens_seen", "tokensSeen", 0, inf, "input positions trained on so far"), r.tokens_seen);
    visit(Flag("diverged", "diverged",
               "a step of this run diverged: its loss or gradient norm was not finite, or after warm-up its loss was "
               "above 2 ln(outputs) + 1"),
          r.diverged);
    visit(Int("diverged_at", "divergedAt", 0, 2147483647, "the first step that diverged (0: none so far)"),
          r.diverged_at);
  }
  // clang-format on
};

class Trainer {
 public:
  // Checks that the model can run the task and the options are valid (tp::Error otherwise).
  Trainer(Transformer& model, const Task& task, const TrainOptions& options);

  // n optimizer steps, then an evaluation when one is due; returns the last step's report.
  StepReport run(int n);
  StepReport step() { return run(1); }
  Evaluation evaluate();

  // An evaluation is due at the end of a run when none has happened yet, when eval_every steps
  // have passed since the last one, or when the run has just reached total_steps. A caller that
  // steps one at a time (the page's worker, the command line) so gets evaluations at the same
  // steps every time: 1, 1 + eval_every, ... and the last.
  bool evaluation_due() const;

  int step_count() const { return step_; }
  // Extends (or shortens) the planned run: the cosine schedule decays over the new length from
  // here on, and the weights and optimizer state are kept.
  void set_total_steps(int total);
  const TrainOptions& options() const { return options_; }
  const StepReport& last() const { return last_; }
  const Evaluation& last_evaluation() const { return last_eval_; }
  double tokens_seen() const { return tokens_seen_; }

  // Divergence. A step diverges when its training loss or its gradient norm (before clipping) is
  // not finite, or when, after the warm-up steps, its loss is above divergence_threshold():
  // 2·ln(C) + 1 nats for C outputs (the vocabulary, or the classes of a classification head).
  // ln(C) is the loss of a uniform guess, about where an untrained model starts (the built-in
  // tasks start at 1.1–1.4 × ln(C)); a run that learns goes below it, so a loss twice as high
  // means the updates made the model worse than knowing nothing, which in practice is a learning
  // rate too high for the model (lr 10 without warm-up gives losses of 10^3–10^4). During
  // warm-up only a non-finite loss or gradient counts, since the first steps may still be settling.
  double divergence_threshold() const;

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
  // tokens/s over a window of at least a quarter second, so tiny steps still measure.
  double rate_start_time_ = -1.0, rate_start_tokens_ = 0.0, rate_ = 0.0;

  // tp::Error when a step of the largest batch this task can give (Task::largest_batch) would
  // need more activation memory (activation_memory.h) than the limit leaves beside the
  // parameters' training state: the message names batch × length × width and the limit.
  void check_memory() const;
  // Sequences per evaluation batch: 32 (or the training batch, if larger), halved while 32 long
  // ones would not fit the training memory limit, never below the training batch.
  int eval_batch_size() const;
  void train_step();
  bool step_diverged(double loss, float grad_norm) const;
  void update_rate();
};

}  // namespace tp
