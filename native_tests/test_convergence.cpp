// [convergence] With fixed seeds, small models learn: the seed's Q&A toy answers both questions
// by greedy decoding, copy and reverse reach high token accuracy, and the encoder-only
// sentiment model classifies held-out sentences. The [slow] ones train for seconds: in the
// sanitizer build they run a few steps and check that run instead (test_util.h).
#include <catch2/catch.hpp>

#include <cmath>

#include "generate/generator.h"
#include "tasks/task.h"
#include "test_util.h"
#include "train/trainer.h"

using namespace tp;

namespace {

// Trains a task's default model for `steps` with seed 1 and returns the validation metrics.
Evaluation train_task(const Task& task, Transformer& model, int steps) {
  TrainOptions options = task.train;
  options.total_steps = steps;
  options.eval_every = 0;
  Trainer trainer(model, task, options);
  trainer.run(steps);
  return trainer.evaluate();
}

// What a run cut short (the sanitizer build) can promise: a finite validation loss and
// accuracies that are fractions.
void require_sound(const Evaluation& e) {
  REQUIRE(std::isfinite(e.loss));
  REQUIRE(e.token_accuracy >= 0.0);
  REQUIRE(e.token_accuracy <= 1.0);
}

std::string greedy_answer(Transformer& model, const Task& task, const std::string& question) {
  GenerateOptions options;
  options.max_new_tokens = 8;
  options.specials = task.tokenizer->specials();
  const GenerateResult r = generate(model, task.tokenizer->encode(question).ids, options);
  return task.tokenizer->decode(r.ids);
}

}  // namespace

TEST_CASE("the seed's Q&A toy learns both pairs", "[convergence]") {
  const auto task = make_task("qa-toy");
  REQUIRE(task->tokenizer->vocab_size() == 11);
  REQUIRE(task->defaults.d_model == 6);
  Transformer model(task->defaults, 1);
  const Evaluation e = train_task(*task, model, 600);
  REQUIRE(e.exact_match == 1.0);
  REQUIRE(greedy_answer(model, *task, "how are you") == "i am fine");
  REQUIRE(greedy_answer(model, *task, "i am fine") == "how about yourself");
}

TEST_CASE("copy reaches 99% token accuracy", "[convergence][slow]") {
  const auto task = make_task("copy");
  Transformer model(task->defaults, 1);
  const Evaluation e = train_task(*task, model, test::training_steps(600));
  WARN("copy: validation token accuracy " << e.token_accuracy << ", loss " << e.loss);
  if (test::kFullTraining) {
    REQUIRE(e.token_accuracy >= 0.99);
  } else {
    require_sound(e);
  }
}

TEST_CASE("reverse reaches 95% token accuracy", "[convergence][slow]") {
  const auto task = make_task("reverse");
  Transformer model(task->defaults, 1);
  const Evaluation e = train_task(*task, model, test::training_steps(600));
  WARN("reverse: validation token accuracy " << e.token_accuracy << ", loss " << e.loss);
  if (test::kFullTraining) {
    REQUIRE(e.token_accuracy >= 0.95);
  } else {
    require_sound(e);
  }
}

TEST_CASE("encoder-only sentiment reaches 95% on held-out sentences", "[convergence][slow]") {
  const auto task = make_task("sentiment");
  Transformer model(task->defaults, 1);
  const Evaluation e = train_task(*task, model, test::training_steps(task->train.total_steps));
  WARN("sentiment: held-out accuracy " << e.token_accuracy << " on " << e.sequences << " sentences");
  REQUIRE(e.sequences >= 40);
  if (test::kFullTraining) {
    REQUIRE(e.token_accuracy >= 0.95);
  } else {
    require_sound(e);
  }
}
