// `tp train`: build a task and a model (task defaults plus any config option from the command
// line), train with a progress bar or JSON lines, report the final validation metrics and save a
// checkpoint.
#include <cstdio>
#include <cstring>
#include <memory>
#include <unistd.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/task_from_args.h"
#include "core/profiler.h"
#include "core/error.h"
#include "io/checkpoint.h"
#include "io/json.h"
#include "model/transformer.h"
#include "train/trainer.h"

namespace tp::cli {

namespace {

const char* kHelp =
    "usage: tp train --task NAME [options]\n"
    "\n"
    "Trains a model on a task and reports validation metrics as it goes.\n"
    "\n"
    "task:\n"
    "  --task NAME            a built-in task (tp tasks), or `text` / `pairs` with --data\n"
    "  --data FILE            your own data: plain text for `text`, source<TAB>target lines for `pairs`\n"
    "  --tokenizer KIND       for `text`: char (default), word, bpe or byte\n"
    "  --vocab-size N         for `text` with bpe: target vocabulary size (default 512)\n"
    "training:\n"
    "  --steps N              optimizer steps (default: the task's)\n"
    "  --seed S               seed for weights, batches and dropout (default 1)\n"
    "  --lr X  --batch-size N  --warmup N  --schedule constant|cosine|noam  --clip X\n"
    "  --weight-decay X  --label-smoothing X  --eval-every N\n"
    "  --out FILE.safetensors save the trained model (with its tokenizer)\n"
    "  --json                 one JSON object per evaluation on stdout instead of a progress bar\n"
    "  --profile              print the time spent per layer kind at the end\n"
    "model (any config option; defaults are the task's):\n"
    "  --arch encoder-decoder|encoder-only|decoder-only  --pos sinusoidal|learned|rope|alibi|none\n"
    "  --norm layer|rms  --norm-placement pre|post  --ffn relu|gelu|swiglu  --head lm|mlm|cls|mean|token\n"
    "  --d-model N  --n-heads N  --n-kv-heads N  --n-layers N  --d-ff N  --max-len N  --window N\n"
    "  --global-tokens N  --layer-pattern LG..  --dropout X  --tie-embeddings true|false\n"
    "  --bias true|false  --norm-eps X  --n-classes N\n";

std::string percent(double v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f%%", 100.0 * v);
  return buf;
}

std::string metric_text(const Task& task, const Evaluation& e) {
  char buf[96];
  if (task.metric == "perplexity") {
    std::snprintf(buf, sizeof buf, "val_loss %.4f  ppl %.2f", e.loss, e.perplexity);
  } else {
    std::snprintf(buf, sizeof buf, "val_loss %.4f  %s %s", e.loss, task.metric.c_str(), percent(e.metric).c_str());
  }
  return buf;
}

json::Value evaluation_json(const StepReport& r, const Evaluation& e, double elapsed) {
  json::Value v = json::Value::object();
  v.set("step", r.step);
  v.set("loss", r.loss);
  v.set("val_loss", e.loss);
  v.set("perplexity", e.perplexity);
  v.set("token_accuracy", e.token_accuracy);
  v.set("exact_match", e.exact_match);
  v.set("metric", e.metric);
  v.set("tokens_per_s", r.tokens_per_s);
  v.set("lr", static_cast<double>(r.lr));
  v.set("grad_norm", static_cast<double>(r.grad_norm));
  v.set("elapsed_s", elapsed);
  return v;
}

}  // namespace

int cmd_train(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  std::set<std::string> valued = {"task", "data", "tokenizer", "vocab-size", "steps", "seed", "lr", "batch-size",
                                  "warmup", "schedule", "clip", "weight-decay", "label-smoothing", "eval-every", "out"};
  for (const std::string& k : config_option_names()) valued.insert(k);
  const Args args(argc, argv, 2, valued, {"json", "profile"});
  TP_CHECK(args.positional().empty(), "unexpected argument '", args.positional()[0], "' (tp train --help)");

  std::unique_ptr<Task> task = task_from_args(args);
  const ModelConfig config = config_from_args(*task, args);
  task->check_compatible(config);
  const std::uint64_t seed = static_cast<std::uint64_t>(args.get_int("seed", 1));
  TrainOptions options = TrainOptions::defaults_for(*task);
  options.seed = seed;
  options.total_steps = args.get_int("steps", task->train.steps);
  options.lr = static_cast<float>(args.get_double("lr", options.lr));
  options.batch_size = args.get_int("batch-size", options.batch_size);
  options.warmup = args.get_int("warmup", options.warmup);
  if (args.has("schedule")) options.schedule = parse_schedule(args.get("schedule"));
  options.clip = static_cast<float>(args.get_double("clip", options.clip));
  options.weight_decay = static_cast<float>(args.get_double("weight-decay", options.weight_decay));
  options.label_smoothing = static_cast<float>(args.get_double("label-smoothing", options.label_smoothing));
  options.eval_every = args.get_int("eval-every", options.eval_every);
  TP_CHECK(options.eval_every >= 1, "--eval-every must be >= 1, got ", options.eval_every);
  const std::string out = args.get("out");
  if (!out.empty()) check_writable(out);

  Transformer model(config, seed);
  Trainer trainer(model, *task, options);
  const bool json_lines = args.flag("json");
  const bool profile = args.flag("profile");
  if (profile) profiler_enable(true);
  if (!json_lines) {
    std::fprintf(stderr, "task %s: %s model, %lld parameters, %d steps\n", task->name.c_str(), to_string(config.arch),
                 static_cast<long long>(config.parameter_count()), options.total_steps);
  }
  Progress progress(options.total_steps, !json_lines && isatty(fileno(stderr)));
  const double start = now_seconds();
  std::string metric = "val -";
  double window_tokens = 0.0, window_start = now_seconds(), rate = 0.0;
  while (trainer.step_count() < options.total_steps) {
    const StepReport r = trainer.step();
    const bool eval_now = r.step % options.eval_every == 0 || r.step == options.total_steps;
    const double now = now_seconds();
    if (eval_now || now - window_start > 0.25) {
      rate = (trainer.tokens_seen() - window_tokens) / std::max(now - window_start, 1e-9);
      window_tokens = trainer.tokens_seen();
      window_start = now;
    }
    if (eval_now) {
      const Evaluation e = trainer.evaluate();
      metric = metric_text(*task, e);
      if (json_lines) {
        StepReport shown = r;
        shown.tokens_per_s = rate;
        std::printf("%s\n", evaluation_json(shown, e, now_seconds() - start).dump().c_str());
        std::fflush(stdout);
      }
    }
    if (!json_lines) progress.update(r.step, r.loss, metric, rate, eval_now);
  }
  progress.finish();
  const Evaluation final_eval = trainer.last_evaluation();
  const double elapsed = now_seconds() - start;
  if (json_lines) {
    json::Value v = evaluation_json(trainer.last(), final_eval, elapsed);
    v.set("final", true);
    std::printf("%s\n", v.dump().c_str());
  } else {
    std::printf("final: step %d  loss %.4f  val_loss %.4f  token_accuracy %s  exact_match %s  perplexity %.3f  (%s, %.0f tokens/s)\n",
                trainer.step_count(), trainer.last().loss, final_eval.loss, percent(final_eval.token_accuracy).c_str(),
                percent(final_eval.exact_match).c_str(), final_eval.perplexity, format_duration(elapsed).c_str(),
                trainer.tokens_seen() / std::max(elapsed, 1e-9));
  }
  if (profile) print_profile(stderr, options.total_steps);
  if (!out.empty()) {
    write_file(out, save_checkpoint(model, task->tokenizer.get(), task->name));
    if (!json_lines) std::fprintf(stderr, "saved %s\n", out.c_str());
  }
  return 0;
}

}  // namespace tp::cli
