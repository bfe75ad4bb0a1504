// [tasks] Every built-in task builds, lays out batches for every architecture it supports, and
// trains a few steps with falling loss; the data files parse; the user's own text and pairs work;
// incompatible models are refused with a message that says what would work.
#include <catch2/catch.hpp>

#include <cmath>

#include "tasks/embedded.h"
#include "tasks/task.h"
#include "tasks/task_util.h"
#include "train/trainer.h"

using namespace tp;

namespace {

// Mean loss of the first `steps` training steps and of `steps` steps after 5·steps more.
std::pair<double, double> loss_drop(const Task& task, const ModelConfig& config, int steps) {
  Transformer model(config, 3);
  TrainOptions options = task.train;
  options.eval_every = 0;
  options.batch_size = std::min(options.batch_size, 16);
  Trainer trainer(model, task, options);
  double first = 0.0, last = 0.0;
  for (int i = 0; i < steps; ++i) first += trainer.step().loss / steps;
  for (int i = 0; i < 5 * steps; ++i) trainer.step();
  for (int i = 0; i < steps; ++i) last += trainer.step().loss / steps;
  return {first, last};
}

// A smaller copy of a task's default model so the suite stays fast.
ModelConfig small(const Task& task) {
  ModelConfig c = task.defaults;
  c.d_model = std::min(c.d_model, 32);
  c.n_heads = std::min(c.n_heads, 4);
  c.n_kv_heads = 0;
  c.d_ff = std::min(c.d_ff, 64);
  c.n_layers = 1;
  c.max_len = std::min(c.max_len, 48);
  return c;
}

}  // namespace

TEST_CASE("the data files parse", "[tasks]") {
  REQUIRE(parse_tsv(embedded::file_text("translation_en_ko.tsv"), 2, "translation_en_ko.tsv").size() >= 200);
  const auto sentiment = parse_tsv(embedded::file_text("sentiment.tsv"), 2, "sentiment.tsv");
  REQUIRE(sentiment.size() >= 300);
  bool teddy = false;
  for (const auto& row : sentiment) teddy |= row[0] == "positive" && row[1] == "This teddy bear is SO CUTE!";
  REQUIRE(teddy);
  REQUIRE(parse_tagged(embedded::file_text("tagging.tsv"), {"O", "PER", "LOC", "TIME"}, "tagging.tsv").size() >= 200);
  const std::string text = embedded::file_text("devils_dictionary.txt");
  REQUIRE(text.size() >= 100 * 1024);
  REQUIRE(text.size() <= 1024 * 1024);
  REQUIRE_THROWS_WITH(parse_tsv("a\tb\nc\n", 2, "x.tsv"), Catch::Contains("x.tsv line 2: expected 2"));
  REQUIRE_THROWS_WITH(parse_tagged("mina/PER went/X\n", {"O", "PER"}, "t.tsv"), Catch::Contains("tag 'X' is unknown"));
  REQUIRE_THROWS_WITH(embedded::file_text("nope.txt"), Catch::Contains("available"));
}

TEST_CASE("every built-in task builds, batches and learns", "[tasks]") {
  for (const TaskInfo& info : builtin_tasks()) {
    INFO("task " << info.name);
    const auto task = make_task(info.name);
    REQUIRE(task->kind == info.kind);
    REQUIRE((task->train_size() > 0 || task->generator));  // synthetic tasks generate theirs
    REQUIRE(task->val_size() > 0);
    REQUIRE_FALSE(task->sample_inputs.empty());
    const ModelConfig config = info.name == "qa-toy" ? task->defaults : small(*task);
    task->check_compatible(task->defaults);
    task->check_compatible(config);
    Rng rng(1);
    const Batch batch = task->sample_batch(config, 4, task->train.seq_len, rng);
    REQUIRE(batch.size == 4);
    REQUIRE_FALSE(batch.targets.empty());
    REQUIRE_FALSE(task->validation_batches(config, 8, task->train.seq_len).empty());
    const auto [first, last] = loss_drop(*task, config, 5);
    INFO("loss " << first << " -> " << last);
    REQUIRE(last < first);
  }
}

TEST_CASE("seq2seq tasks run on decoder-only models and text on encoder-only (masked tokens)", "[tasks]") {
  const auto copy = make_task("copy");
  ModelConfig decoder = small(*copy);
  decoder.arch = Arch::DecoderOnly;
  decoder.max_len = 32;
  Rng rng(2);
  const Batch b = copy->sample_batch(decoder, 2, copy->train.seq_len, rng);
  // source (10) <SOS> target (10): 21 inputs; only the target part (and <EOS>) counts.
  REQUIRE(b.tgt_len == 21);
  int counted = 0;
  for (int t : b.targets) counted += t >= 0;
  REQUIRE(counted == 2 * 11);
  REQUIRE(b.tgt_in[10] == kSos);
  const auto [first, last] = loss_drop(*copy, decoder, 3);
  REQUIRE(last < first);

  const auto lm = make_task("lm-char");
  ModelConfig mlm = small(*lm);
  mlm.arch = Arch::EncoderOnly;
  mlm.head = HeadKind::Mlm;
  const Batch m = lm->sample_batch(mlm, 8, lm->train.seq_len, rng);
  int masked = 0, predicted = 0;
  for (std::size_t i = 0; i < m.src.size(); ++i) {
    masked += m.src[i] == kMask;
    predicted += m.targets[i] >= 0;
  }
  REQUIRE(predicted > 0);
  REQUIRE(masked > 0);
  REQUIRE(masked <= predicted);
}

TEST_CASE("your own text and pairs become tasks", "[tasks]") {
  const auto text = make_text_task(
      "the quick brown fox jumps over the lazy dog. "
      "the dog sleeps. the fox runs away.",
      {TokenizerKind::Char, 0, false, kAllSpecials});
  REQUIRE(text->kind == TaskKind::Text);
  REQUIRE(text->defaults.vocab_size == text->tokenizer->vocab_size());
  const auto pairs = make_pairs_task({{"one", "하나"}, {"two", "둘"}, {"three", "셋"}});
  REQUIRE(pairs->kind == TaskKind::Seq2Seq);
  REQUIRE(pairs->train_examples.size() == 3);
  REQUIRE(pairs->val_examples.size() == 3);
  REQUIRE_THROWS_WITH(make_text_task("short", {}), Catch::Contains("at least 16"));
  REQUIRE_THROWS_WITH(make_pairs_task({}), Catch::Contains("at least one"));
  REQUIRE_THROWS_WITH(make_pairs_task({{"a", ""}}), Catch::Contains("pair 1 has an empty"));
}

TEST_CASE("incompatible models are refused with a useful message", "[tasks]") {
  const auto sentiment = make_task("sentiment");
  ModelConfig c = sentiment->defaults;
  c.arch = Arch::DecoderOnly;
  c.head = HeadKind::Lm;
  REQUIRE_THROWS_WITH(sentiment->check_compatible(c), Catch::Contains("encoder-only model with head cls or mean"));
  c = sentiment->defaults;
  c.vocab_size += 1;
  REQUIRE_THROWS_WITH(sentiment->check_compatible(c), Catch::Contains("set vocab_size to"));
  const auto translate = make_task("translate");
  c = translate->defaults;
  c.max_len = 8;
  REQUIRE_THROWS_WITH(translate->check_compatible(c), Catch::Contains("raise max_len"));
  c = translate->defaults;
  c.arch = Arch::EncoderOnly;
  c.head = HeadKind::Mlm;
  REQUIRE_THROWS_WITH(translate->check_compatible(c), Catch::Contains("not encoder-only"));
  REQUIRE_THROWS_WITH(make_task("nope"), Catch::Contains("built-in tasks: qa-toy"));
}

TEST_CASE("lm-char trains on 256-token windows when seq_len and max_len allow them", "[tasks]") {
  const auto task = make_task("lm-char");
  ModelConfig c = task->defaults;
  c.max_len = 256;
  TrainOptions o = task->train;
  o.seq_len = 256;
  o.batch_size = 2;
  Rng rng(1);
  const Batch batch = task->sample_batch(c, o.batch_size, o.seq_len, rng);
  CHECK(batch.size == 2);
  CHECK(batch.tgt_len == 256);
  // The window never outgrows the model: seq_len beyond max_len trains on max_len tokens.
  ModelConfig shorter = c;
  shorter.max_len = 128;
  CHECK(task->sample_batch(shorter, 2, o.seq_len, rng).tgt_len == 128);
  Transformer model(c, 1);
  Trainer trainer(model, *task, o);
  const float first = trainer.step().loss;
  float last = first;
  for (int i = 0; i < 4; ++i) last = trainer.step().loss;
  CHECK(std::isfinite(last));
  CHECK(last < first);
}
