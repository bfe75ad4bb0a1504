// Training benchmark: tokens/s of the reference model — decoder-only, d_model 128, 4 heads,
// 2 layers, d_ff 512 (GELU), seq 64, batch 16, vocab 65, learned positions, pre-LayerNorm,
// untied head, AdamW with clipping — through the same Trainer the page uses. --seq and --batch
// change the sequence length (the model's max_len with it) and the batch: seq 1024 x batch 1
// keeps 1024 tokens per step with attention sixteen times longer.
//
// The data is a fixed synthetic text over 59 characters, so the char tokenizer (6 specials)
// gives exactly 65 ids. tokens/s = batch · seq / median step time, the count every peer uses.
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "core/profiler.h"
#include "core/thread_pool.h"
#include "kernels/kernels.h"
#include "tasks/task.h"
#include "train/trainer.h"

namespace tp::bench {

namespace {

// 64 Ki characters from a fixed LCG over 59 symbols (every symbol appears).
std::string synthetic_text() {
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456";
  std::string text;
  std::uint32_t x = 12345;
  for (int i = 0; i < (1 << 16); ++i) {
    x = x * 1103515245u + 12345u;
    text += alphabet[(x >> 16) % alphabet.size()];
  }
  return text;
}

// The reference model: decoder-only, learned positions, pre-LayerNorm, GELU, untied, biases (every
// one of those the default).
ModelConfig reference_config(int vocab, int seq) { return model_shape(Arch::DecoderOnly, vocab, 128, 2, 512, seq); }

void print_profile_rows(const std::string& impl, const Options& options, int steps) {
  for (int k = 0; k < static_cast<int>(ProfileKind::Count); ++k) {
    const auto kind = static_cast<ProfileKind>(k);
    const double f = profiler_seconds(kind, false), b = profiler_seconds(kind, true);
    if (f + b == 0.0) continue;
    std::printf(
        "{\"bench\":\"train-profile\",\"impl\":\"%s\",\"threads\":%d,\"seq_len\":%d,\"kind\":\"%s\","
        "\"forward_ms\":%.4f,\"backward_ms\":%.4f}\n",
        impl.c_str(), threads::count(), options.seq, to_string(kind), 1000.0 * f / steps, 1000.0 * b / steps);
  }
}

}  // namespace

int run_train(const Options& options) {
  const std::string impl = options.impl.empty() ? default_impl() : options.impl;
  const auto task = make_text_task(synthetic_text(), TokenizerOptions{});
  const ModelConfig config = reference_config(task->tokenizer->vocab_size(), options.seq);
  Transformer model(config, 1);
  TrainOptions train = task->train;
  train.batch_size = options.batch;
  train.seq_len = options.seq;
  train.total_steps = 100000;
  train.eval_every = 0;
  train.seed = 1;
  Trainer trainer(model, *task, train);
  const int tokens = train.batch_size * config.max_len;
  // Warm-up: the arena and packing buffers reach their size, a wasm engine tiers up.
  const double warm_start = now_seconds();
  for (int i = 0; i < options.warmup || now_seconds() - warm_start < 0.5; ++i) trainer.step();
  std::vector<double> step_s;
  for (int i = 0; i < options.reps; ++i) {
    const double start = now_seconds();
    trainer.step();
    step_s.push_back(now_seconds() - start);
  }
  const double ms = 1000.0 * median(step_s);
  std::string all;  // every timed step, for bench/results/latest.json
  for (const double s : step_s) all += (all.empty() ? "" : ",") + std::to_string(1000.0 * s);
  std::printf(
      "{\"bench\":\"train\",\"impl\":\"%s\",\"threads\":%d,\"seq_len\":%d,\"batch\":%d,\"vocab\":%d,"
      "\"tokens_per_step\":%d,\"steps\":%d,\"tokens_per_s\":%.1f,\"step_ms\":%.3f,\"loss\":%.4f,"
      "\"step_ms_all\":[%s]}\n",
      impl.c_str(), threads::count(), options.seq, options.batch, config.vocab_size, tokens, options.reps,
      tokens / (ms / 1000.0), ms, trainer.last().loss, all.c_str());
  std::fflush(stdout);
  if (options.profile) {
    profiler_reset();
    profiler_enable(true);
    for (int i = 0; i < options.reps; ++i) trainer.step();
    profiler_enable(false);
    print_profile_rows(impl, options, options.reps);
    print_profile(stderr, options.reps);
    // The pool's regions, counted over steps of their own (the layer profile's clock reads not
    // among them).
    threads::reset_counters();
    threads::set_counting(true);
    const double start = now_seconds();
    for (int i = 0; i < options.reps; ++i) trainer.step();
    const double seconds = now_seconds() - start;
    threads::set_counting(false);
    const threads::Counters c = threads::counters();
    const double n = options.reps;
    std::printf(
        "{\"bench\":\"train-pool\",\"impl\":\"%s\",\"threads\":%d,\"seq_len\":%d,\"step_ms\":%.3f,"
        "\"regions\":%.1f,\"tasks\":%.1f,\"caller_tasks\":%.1f,\"region_ms\":%.3f,\"caller_wait_ms\":%.3f,"
        "\"caller_sleeps\":%.2f,\"worker_sleeps\":%.2f}\n",
        impl.c_str(), threads::count(), options.seq, 1000.0 * seconds / n, c.regions / n, c.tasks / n,
        c.caller_tasks / n, 1000.0 * c.region_seconds / n, 1000.0 * c.wait_seconds / n, c.caller_sleeps / n,
        c.worker_sleeps / n);
  }
  return 0;
}

}  // namespace tp::bench
