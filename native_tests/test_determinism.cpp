// [determinism] The same seed gives a bit-identical loss sequence, and the native and wasm builds
// agree: both must reproduce the recorded losses below (within 1e-6 relative).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "tasks/task.h"
#include "train/trainer.h"

using namespace tp;

namespace {

// Fifty steps of the copy task with dropout on (so the dropout RNG is exercised too).
std::vector<double> fifty_losses() {
  const auto task = make_task("copy");
  ModelConfig config = task->defaults;
  config.dropout = 0.1f;
  Transformer model(config, 42);
  TrainOptions options = task->train;
  options.seed = 42;
  options.eval_every = 0;
  Trainer trainer(model, *task, options);
  std::vector<double> losses;
  for (int i = 0; i < 50; ++i) losses.push_back(trainer.step().loss);
  return losses;
}

// Recorded from the native build. If the model or the training loop changes on purpose, the
// failure message prints the new values to paste here.
const double kRecorded[50] = {
#include "data/determinism_losses.inc"
};

}  // namespace

TEST_CASE("the same seed gives a bit-identical loss sequence", "[determinism]") {
  const auto a = fifty_losses(), b = fifty_losses();
  for (int i = 0; i < 50; ++i) REQUIRE(a[i] == b[i]);
  REQUIRE(a[49] < a[0]);  // and it is training, not standing still
}

TEST_CASE("native and wasm produce the same first 50 losses", "[determinism]") {
  const auto losses = fifty_losses();
  std::string table;
  for (double l : losses) {
    char line[40];
    std::snprintf(line, sizeof line, "    %.17g,\n", l);
    table += line;
  }
  INFO("losses of this build (for native_tests/data/determinism_losses.inc):\n" << table);
  for (int i = 0; i < 50; ++i) {
    INFO("step " << i + 1);
    REQUIRE(std::fabs(losses[i] - kRecorded[i]) <= 1e-6 * std::fabs(kRecorded[i]));
  }
}
