// [health] What keeps a training run from failing silently or late: the divergence flag of the
// step reports (a loss or gradient that is not finite, or a loss far above a uniform guess after
// warm-up), and the activation-memory estimate the trainer checks before the first step, held
// against what the model's arena really reserves.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "model/activation_memory.h"
#include "model_util.h"
#include "tasks/task.h"
#include "train/trainer.h"

using namespace tp;

namespace {

TrainOptions options_for(const Task& task, float lr, int warmup, int steps) {
  TrainOptions o = task.train;
  o.lr = lr;
  o.warmup = warmup;
  o.total_steps = steps;
  o.eval_every = 0;
  return o;
}

}  // namespace

TEST_CASE("a learning rate far too high is flagged as diverged, a good run never", "[health]") {
  const auto task = make_task("qa-toy");
  {
    Transformer model(task->defaults, 1);
    Trainer trainer(model, *task, options_for(*task, 10.0f, 0, 30));
    const StepReport first = trainer.step();
    CHECK_FALSE(first.diverged);  // an untrained model starts near ln(vocabulary)
    CHECK(first.diverged_at == 0);
    StepReport r = first;
    for (int i = 0; i < 10 && !r.diverged; ++i) r = trainer.step();
    REQUIRE(r.diverged);
    CHECK(r.loss > trainer.divergence_threshold());
    CHECK(r.diverged_at == r.step);
    const int at = r.diverged_at;
    // The first step that diverged stays on record, whatever later steps do.
    const StepReport later = trainer.run(5);
    CHECK(later.diverged_at == at);
  }
  {
    Transformer model(task->defaults, 1);
    Trainer trainer(model, *task, options_for(*task, task->train.lr, task->train.warmup, 300));
    for (int i = 0; i < 30; ++i) {
      const StepReport r = trainer.run(10);
      REQUIRE_FALSE(r.diverged);
    }
    CHECK(trainer.last().diverged_at == 0);
  }
}

TEST_CASE("the divergence threshold is 2 ln(outputs) + 1 and warm-up only forgives finite losses", "[health]") {
  const auto task = make_task("qa-toy");
  Transformer model(task->defaults, 1);
  CHECK(Trainer(model, *task, task->train).divergence_threshold() == Approx(2 * std::log(11.0) + 1));
  const auto sentiment = make_task("sentiment");
  Transformer classifier(sentiment->defaults, 1);
  CHECK(Trainer(classifier, *sentiment, sentiment->train).divergence_threshold() == Approx(2 * std::log(2.0) + 1));

  // Weights that are not finite give a NaN loss: diverged at step 1, warm-up or not.
  Transformer broken(task->defaults, 1);
  broken.params().values_slab()[0] = std::numeric_limits<float>::quiet_NaN();
  Trainer trainer(broken, *task, options_for(*task, 1e-3f, 100, 200));
  const StepReport r = trainer.step();
  CHECK_FALSE(std::isfinite(r.loss));
  CHECK(r.diverged);
  CHECK(r.diverged_at == 1);
}

TEST_CASE("the activation estimate covers what the arena reserves, within 10%", "[health]") {
  struct Case {
    const char* what;
    ModelConfig config;
  };
  std::vector<Case> cases;
  const auto base = [](Arch arch) {
    ModelConfig c = model_shape(arch, 50, 32, 2, 64, 32);
    c.n_heads = 4;
    if (arch == Arch::EncoderOnly) c.head = HeadKind::Mlm;
    return c;
  };
  for (Arch arch : {Arch::EncoderDecoder, Arch::DecoderOnly, Arch::EncoderOnly}) {
    ModelConfig c = base(arch);
    cases.push_back({to_string(arch), c});
    c.ffn = FfnKind::SwiGlu;
    c.norm_placement = NormPlacement::Post;
    cases.push_back({"swiglu, post-norm", c});
    c = base(arch);
    c.ffn = FfnKind::Gelu;
    c.dropout = 0.1f;
    c.pos = PosKind::Alibi;
    c.n_kv_heads = 2;
    cases.push_back({"gelu, dropout, alibi, gqa", c});
    c = base(arch);
    c.window = 4;
    c.global_tokens = 1;
    cases.push_back({"sliding window", c});
  }
  for (HeadKind head : {HeadKind::Cls, HeadKind::Mean, HeadKind::Token}) {
    ModelConfig c = base(Arch::EncoderOnly);
    c.head = head;
    c.n_classes = 5;
    cases.push_back({to_string(head), c});
  }
  for (const Case& k : cases) {
    for (bool train : {true, false}) {
      INFO(k.what << (train ? ", training" : ", forward only"));
      Transformer model(k.config, 1);
      Rng rng(3);
      const Batch batch = test::random_batch(k.config, 32, 24, rng);
      // Two passes: the second starts from the one chunk the first taught the arena it needs.
      for (int pass = 0; pass < 2; ++pass) {
        model.forward(batch, train);
        if (train) model.backward();
      }
      const BatchShape shape{batch.size, batch.src_len, batch.tgt_len};
      const double reserved = static_cast<double>(model.activation_bytes());
      const double estimate = static_cast<double>(estimate_activation_bytes(k.config, shape, train));
      REQUIRE(reserved > 4 << 20);  // large enough that the arena had to grow
      CHECK(estimate >= reserved);
      CHECK(estimate <= 1.1 * reserved);
    }
  }
}

TEST_CASE("a batch whose activations exceed the limit is refused before training starts", "[health]") {
  const auto task = make_task("lm-char");
  TrainOptions o = task->train;
  o.batch_size = 4096;
  Transformer model(task->defaults, 1);
  try {
    Trainer trainer(model, *task, o);
    FAIL("a batch of 4096 windows of 64 tokens was accepted");
  } catch (const Error& e) {
    const std::string m = e.what();
    CHECK_THAT(m, Catch::StartsWith("batch_size × length × d_model = 4096 × 64 × 128 is out of range for training"));
    CHECK_THAT(m, Catch::Contains("the limit is 1024 MB"));
    CHECK_THAT(m, Catch::Contains("make batch_size, seq_len or d_model smaller"));
  }
  CHECK_FALSE(model.params().has_training_state());  // nothing was allocated for it
  // The task's own batch size trains as before.
  o.batch_size = 16;
  o.seq_len = 64;
  Trainer fits(model, *task, o);
  CHECK(std::isfinite(fits.step().loss));
}

TEST_CASE("one long window trains where 32 of them would not fit: evaluation takes fewer at a time", "[health]") {
  // lm-char at seq_len 1024, batch 1: the step fits easily, but an evaluation batch of 32 such
  // windows would need ~2.7 GB of attention rows, so evaluation batches shrink to what fits.
  const auto task = make_task("lm-char");
  ModelConfig c = task->defaults;
  c.max_len = 1024;
  TrainOptions o = task->train;
  o.batch_size = 1;
  o.seq_len = 1024;
  Transformer model(c, 1);
  Trainer trainer(model, *task, o);
  const StepReport r = trainer.step();
  CHECK(std::isfinite(r.loss));
  // 32 windows of 1024 really are beyond the limit, so the shrinking is what made this fit.
  const BatchShape all32 = task->largest_batch(c, 32, o.seq_len);
  CHECK(estimate_activation_bytes(c, all32, false) > kMaxTrainingBytes);
}
