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
#include "core/thread_pool.h"
#include "core/error.h"
#include "io/checkpoint.h"
#include "core/json.h"
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
      "  --data FILE                   your own data: plain text for `text`, source<TAB>target lines for `pairs`\n"
      "  --tokenizer KIND              for `text`: char (default), word, bpe or byte\n"
      "  --vocab-size N                for `text` with bpe: the vocabulary to learn (default 512)\n"
      "output:\n"
      "  --out FILE.safetensors        save the trained model (with its tokenizer)\n"
      "  --json                        one JSON object per evaluation on stdout instead of a progress bar:\n"
      "                                the step's report (step, loss, lr, grad_norm, tokens_per_s, ...) with\n"
      "                                the validation metrics under \"evaluation\"; the last one has \"final\": true\n"
      "  --profile                     print the time spent per layer kind at the end\n"
      "running:\n",
      threads_help(),
      "training (defaults are the task's; --seed also seeds the weights):\n",
      schema::help<TrainOptions>(nullptr),
      "model (defaults are the task's):\n", schema::help<ModelConfig>(nullptr, {"vocab-size"}));
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
  TP_CHECK(args.positional().empty(), "unexpected argument '", args.positional()[0], "' (tp train --help)");
  set_threads(args);

  std::unique_ptr<Task> task = task_from_args(args);
  const ModelConfig config = config_from_args(*task, args);
  task->check_compatible(config);
  const TrainOptions options = train_options_from_args(*task, args);
  TP_CHECK(options.eval_every >= 1, "--eval-every must be >= 1, got ", options.eval_every);
  const std::string out = args.get("out");
  if (!out.empty()) check_writable(out);

  Transformer model(config, options.seed);
  Trainer trainer(model, *task, options);
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
  while (trainer.step_count() < options.total_steps) {
    const StepReport r = trainer.step();
    if (r.evaluated) {
      metric = metric_text(*task, trainer.last_evaluation());
      if (json_lines) {
        std::printf("%s\n", evaluation_json(r, trainer.last_evaluation(), now_seconds() - start).dump().c_str());
        std::fflush(stdout);
      }
    }
    if (!json_lines) progress.update(r.step, r.loss, metric, r.tokens_per_s, r.evaluated);
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
