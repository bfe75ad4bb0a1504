// `tp train`: build a task and a model (task defaults plus any config option from the command
// line), train with a progress bar or JSON lines, report the final validation metrics and save a
// checkpoint. Ctrl-C or SIGTERM saves the model of the last completed step (interrupt.h); a
// diverging run is flagged as it happens, with what to change.
#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/progress.h"
#include "cli/task_from_args.h"
#include "core/error.h"
#include "core/json.h"
#include "core/profiler.h"
#include "core/thread_pool.h"
#include "io/checkpoint.h"
#include "model/transformer.h"
#include "train/trainer.h"

namespace tp::cli {

namespace {

std::string help() {
  return str_cat(
      "usage: tp train --task NAME [options]\n"
      "\n"
      "Trains a model on a task and reports validation metrics as it goes.\n"
      "\n"
      "task:\n"
      "  --task NAME                   a built-in task (tp tasks), or `text` / `pairs` with --data\n"
      "  --data FILE                   your own data: plain text for `text`, source<TAB>target lines for `pairs`;\n"
      "                                `-` reads it from standard input\n"
      "  --tokenizer KIND              for `text`: char (default), word, bpe or byte\n"
      "  --vocab-size N                for `text` with bpe: the vocabulary to learn (default 512)\n"
      "output:\n"
      "  --out FILE.safetensors        save the trained model (with its tokenizer); the file is written\n"
      "                                only when the model is saved, to a temporary file renamed over FILE,\n"
      "                                so a failed run leaves no file and never half of one\n"
      "  --json                        one JSON object per evaluation on stdout instead of a progress bar:\n"
      "                                the step's report (step, loss, lr, grad_norm, tokens_per_s, diverged,\n"
      "                                ...) with the validation metrics under \"evaluation\"; the last one has\n"
      "                                \"final\": true. A number that is not finite (a diverged loss, its\n"
      "                                perplexity) is written as null. Errors are JSON on stderr\n"
      "  --profile                     print the time spent per layer kind at the end\n"
      "running:\n",
      threads_help(), "training (defaults are the task's; --seed also seeds the weights):\n",
      schema::help<TrainOptions>(nullptr), "model (defaults are the task's):\n",
      schema::help<ModelConfig>(nullptr, {"vocab-size"}),
      "\n"
      "Ctrl-C (or SIGTERM) stops after the step in progress, saves the model of the last completed\n"
      "step to --out and exits with status 130 (SIGTERM: 143). A step diverges when its loss or\n"
      "gradient norm is not finite, or when after warm-up its loss is above 2 ln(outputs) + 1 (a\n"
      "uniform guess scores ln(outputs)); training goes on, with a warning the first time.\n"
      "Exit status: 0 done, 1 an error in the data or while running, 2 a usage error.\n");
}

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
  json::Value v = schema::to_json(r);
  v.set("evaluation", schema::to_json(e));
  v.set("elapsed_s", elapsed);
  return v;
}

std::string divergence_warning(const StepReport& r, const TrainOptions& options, double threshold) {
  char numbers[96];
  std::snprintf(numbers, sizeof numbers, "loss %.4g, grad_norm %.4g", r.loss, static_cast<double>(r.grad_norm));
  char limit[32];
  std::snprintf(limit, sizeof limit, "%.2f", threshold);
  return str_cat("tp train: warning: training diverged at step ", r.diverged_at, " (", numbers,
                 "; a diverged step has a loss or gradient that is not finite, or a loss above ", limit,
                 " after warm-up): lower the learning rate (--lr, now ", json::shortest(options.lr),
                 ") or add warm-up steps (--warmup, now ", options.warmup, ")");
}

}  // namespace

int cmd_train(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(help().c_str(), stdout);
    return 0;
  }
  std::set<std::string> valued = {"task", "data", "tokenizer", "vocab-size", "out", "threads"};
  for (const std::string& k : config_option_names()) valued.insert(k);
  for (const std::string& k : schema::option_names<TrainOptions>()) valued.insert(k);
  const Args args(argc, argv, 2, valued, {"json", "profile"});
  if (!args.positional().empty())
    throw UsageError(str_cat("unexpected argument '", args.positional()[0], "' (tp train --help)"));
  set_threads(args);

  Stdin in;
  std::unique_ptr<Task> task = task_from_args(args, in);
  const ModelConfig config = config_from_args(*task, args);
  as_usage([&] { task->check_compatible(config); });
  const TrainOptions options = train_options_from_args(*task, args);
  if (options.eval_every < 1) throw UsageError(str_cat("--eval-every must be >= 1, got ", options.eval_every));
  const std::string out = args.get("out");
  if (!out.empty()) check_writable(out);

  Transformer model(config, options.seed);
  // The trainer checks what the options ask of memory (batch × length × width) before any step.
  Trainer trainer = as_usage([&] { return Trainer(model, *task, options); });
  const bool json_lines = args.flag("json");
  const bool profile = args.flag("profile");
  if (profile) profiler_enable(true);
  if (!json_lines) {
    std::fprintf(stderr, "task %s: %s model, %lld parameters, %d steps, %d thread%s\n", task->name.c_str(),
                 to_string(config.arch), static_cast<long long>(config.parameter_count()), options.total_steps,
                 threads::count(), threads::count() == 1 ? "" : "s");
  }
  Progress progress(options.total_steps, !json_lines && isatty(fileno(stderr)));
  const double start = now_seconds();
  std::string metric = "val -";
  bool warned = false;
  int interrupted = 0;
  InterruptGuard interrupt;  // until the model is saved: a second signal then removes FILE.tmp
  {
    while (trainer.step_count() < options.total_steps) {
      if ((interrupted = interrupt.signal()) != 0) break;
      const StepReport r = trainer.step();
      if (r.diverged && !warned && !json_lines) {
        progress.message(divergence_warning(r, options, trainer.divergence_threshold()));
        warned = true;
      }
      if (r.evaluated) {
        metric = metric_text(*task, trainer.last_evaluation());
        if (json_lines) {
          std::printf("%s\n", evaluation_json(r, trainer.last_evaluation(), now_seconds() - start).dump().c_str());
          std::fflush(stdout);
        }
      }
      if (!json_lines) progress.update(r.step, r.loss, metric, r.tokens_per_s, r.evaluated);
    }
    if (interrupted == 0) interrupted = interrupt.signal();  // arrived during the last step
  }
  progress.finish();
  const Evaluation final_eval = trainer.last_evaluation();
  const double elapsed = now_seconds() - start;
  if (profile) print_profile(stderr, trainer.step_count());
  if (!out.empty()) {
    interrupt.protect(temp_path(out));
    write_file(out, save_checkpoint(model, task->tokenizer.get(), task->name));
    interrupt.protect("");
  }
  const StepReport& last = trainer.last();
  if (json_lines) {
    json::Value v = evaluation_json(last, final_eval, elapsed);
    v.set("final", true);
    v.set("saved", out.empty() ? json::Value() : json::Value(out));
    if (interrupted) v.set("interrupted", signal_name(interrupted));
    std::printf("%s\n", v.dump().c_str());
  } else {
    std::string diverged;
    if (last.diverged_at > 0) diverged = str_cat("  (diverged at step ", last.diverged_at, ")");
    std::printf(
        "%s: step %d  loss %.4f  val_loss %.4f  token_accuracy %s  exact_match %s  perplexity %.3f  (%s, %.0f "
        "tokens/s)%s\n",
        interrupted ? "interrupted" : "final", trainer.step_count(), last.loss, final_eval.loss,
        percent(final_eval.token_accuracy).c_str(), percent(final_eval.exact_match).c_str(), final_eval.perplexity,
        format_duration(elapsed).c_str(), trainer.tokens_seen() / std::max(elapsed, 1e-9), diverged.c_str());
    if (interrupted) {
      std::fprintf(stderr, "tp train: interrupted by %s after step %d of %d; %s\n", signal_name(interrupted),
                   trainer.step_count(), options.total_steps,
                   out.empty() ? "nothing saved (no --out given)"
                               : str_cat("saved ", out, " (the model after step ", trainer.step_count(), ")").c_str());
    } else if (!out.empty()) {
      std::fprintf(stderr, "saved %s\n", out.c_str());
    }
  }
  return interrupted ? 128 + interrupted : 0;
}

}  // namespace tp::cli
