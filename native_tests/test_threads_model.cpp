// [threads] Whole models at 2 and 3 threads against one: every architecture and option
// (model_util.h's option_cases) gives one thread's loss, logits and every gradient bit for bit,
// with every region split however small; the reference model does with the default thresholds;
// training steps (dropout, clipping, AdamW) give the same losses and weights; generation with
// the KV cache the same logits at every step; a trace the same tensors.
#include <catch2/catch.hpp>

#include <vector>

#include "model_util.h"
#include "tasks/task.h"
#include "thread_util.h"
#include "train/trainer.h"

using namespace tp;

namespace {

struct Outcome {
  double loss = 0.0;
  std::vector<float> logits, grads;
};

Outcome forward_backward(const ModelConfig& config, float label_smoothing, const Batch& batch) {
  Transformer model(config, 5);
  model.reseed_dropout(17);
  model.params().ensure_training_state();
  model.params().zero_grad();
  Outcome out;
  out.loss = model.forward(batch, true, nullptr, label_smoothing).loss;
  model.backward();
  const std::size_t n = static_cast<std::size_t>(model.logit_rows()) * model.config().output_size();
  out.logits.assign(model.logits(), model.logits() + n);
  out.grads.assign(model.params().grads_slab(), model.params().grads_slab() + model.params().slab_size());
  return out;
}

// One thread's outcome against 2 and 3 threads'.
void check_model(const std::string& name, const ModelConfig& config, float label_smoothing, const Batch& batch,
                 bool always_split) {
  const Outcome one = forward_backward(config, label_smoothing, batch);
  for (const int n : test::other_thread_counts()) {
    test::ThreadsFor threads(n, always_split);
    const Outcome many = forward_backward(config, label_smoothing, batch);
    INFO(name << " at " << n << " threads");
    REQUIRE(many.loss == one.loss);
    REQUIRE(test::same_bits(many.logits, one.logits));
    REQUIRE(test::same_bits(many.grads, one.grads));
  }
}

}  // namespace

TEST_CASE("every architecture and option: loss, logits and gradients are one thread's bits", "[threads]") {
  Rng rng(31);
  for (const test::OptionCase& oc : test::option_cases()) {
    ModelConfig c = oc.config;
    c.d_model = 16;  // wide enough for several vectors per row and several micro-tiles
    c.d_ff = 24;
    c.max_len = 16;
    const Batch batch = test::random_batch(c, 5, 12, rng);
    check_model(oc.name, c, oc.label_smoothing, batch, true);
  }
}

TEST_CASE("the reference model splits with the default thresholds and keeps one thread's bits", "[threads]") {
  const ModelConfig c = model_shape(Arch::DecoderOnly, 65, 128, 2, 512, 64);
  Rng rng(8);
  const Batch batch = test::random_batch(c, 16, 64, rng, false);
  check_model("reference model", c, 0.0f, batch, false);
}

TEST_CASE("training steps give one thread's losses and weights", "[threads]") {
  const auto train = [](const char* task_name) {
    const auto task = make_task(task_name);
    ModelConfig config = task->defaults;
    config.dropout = 0.1f;
    Transformer model(config, 42);
    TrainOptions options = task->train;
    options.seed = 42;
    options.eval_every = 0;
    Trainer trainer(model, *task, options);
    std::vector<double> losses;
    for (int i = 0; i < 6; ++i) losses.push_back(trainer.step().loss);
    losses.push_back(trainer.evaluate().loss);
    const float* w = model.params().values_slab();
    return std::make_pair(losses, std::vector<float>(w, w + model.params().slab_size()));
  };
  for (const char* name : {"copy", "qa-toy", "lm-char", "sentiment"}) {
    const auto one = train(name);
    for (const int n : test::other_thread_counts()) {
      test::ThreadsFor threads(n);
      const auto many = train(name);
      INFO(name << " at " << n << " threads");
      REQUIRE(many.first == one.first);
      REQUIRE(test::same_bits(many.second, one.second));
    }
  }
}

TEST_CASE("generation steps and a trace are one thread's bits", "[threads]") {
  for (const Arch arch : {Arch::DecoderOnly, Arch::EncoderDecoder}) {
    ModelConfig c = test::small_config(arch);
    c.d_model = 32;
    c.n_heads = 4;
    c.n_kv_heads = 2;
    c.d_ff = 48;
    c.max_len = 24;
    c.pos = PosKind::Rope;
    const auto run = [&] {
      Transformer model(c, 3);
      std::vector<float> out;
      KvCache cache = model.start_decoding(
          arch == Arch::EncoderDecoder ? std::vector<int>{6, 7, 8, 9, 10} : std::vector<int>{}, test::kPad);
      std::vector<float> logits(c.vocab_size);
      int token = 6;
      for (int i = 0; i < 12; ++i) {
        model.decode(cache, &token, 1, logits.data());
        out.insert(out.end(), logits.begin(), logits.end());
        token = 6 + i % 5;
      }
      Rng rng(4);
      const Batch batch = test::random_batch(c, 1, 10, rng, false);
      Trace trace;
      model.forward(batch, false, &trace);
      for (const std::string& name : trace.names()) {
        const Tensor& t = trace.get(name);
        out.insert(out.end(), t.data(), t.data() + t.numel());
      }
      return out;
    };
    const std::vector<float> one = run();
    for (const int n : test::other_thread_counts()) {
      test::ThreadsFor threads(n);
      INFO(to_string(arch) << " at " << n << " threads");
      REQUIRE(test::same_bits(run(), one));
    }
  }
}
