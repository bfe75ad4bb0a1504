// `tp generate`: load a checkpoint, encode the prompt with its tokenizer, generate, print (or,
// with --json, one JSON document with the text, the ids and every step's top tokens).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/model_source.h"
#include "core/error.h"
#include "core/json.h"
#include "core/schema.h"
#include "core/text_escape.h"
#include "generate/generate_text.h"
#include "io/checkpoint.h"
#include "tasks/task.h"

namespace tp::cli {

namespace {

const GenerateOptions kDefaults{};
const LoadOptions kLoadDefaults{};

std::string help() {
  return str_cat(
      "usage: tp generate --model FILE --prompt TEXT [options]\n"
      "\n"
      "Generates from a trained model. For an encoder-decoder model the prompt is the source and\n"
      "the output is the decoded target; for a decoder-only language model the output is the prompt\n"
      "and its continuation.\n"
      "\n"
      "  --model PATH                  a checkpoint written by `tp train --out`, a Hugging Face-style\n"
      "                                folder (GPT-2 or Llama family) or a llama2.c .bin\n"
      "  --prompt TEXT                 the input text; `-` reads it from standard input (one trailing\n"
      "                                newline dropped)\n"
      "  --no-cache                    the same as --kv-cache false\n"
      "  --show-probs                  print each step's five most likely next tokens\n"
      "  --json                        one JSON document on stdout: prompt_ids, ids, text, steps (each\n"
      "                                step's token and top tokens, k = --top-k-probs and at least 5,\n"
      "                                with p and logprob), stop_reason, ms_per_token, warnings; errors\n"
      "                                as JSON on stderr\n",
      threads_help(), schema::help<GenerateOptions>(&kDefaults), schema::help<LoadOptions>(&kLoadDefaults),
      "\n"
      "Warnings about the checkpoint (metadata keys this version does not read) go to stderr.\n"
      "Exit status: 0 done, 1 an error in the file or while running, 2 a usage error.\n");
}

// A sequence-to-sequence task's checkpoint reads its prompt as a source; any other continues it.
// The task name is checked whatever the architecture, as tp.loadModel() does.
PromptRole prompt_role(const LoadedCheckpoint& loaded) {
  if (loaded.task.empty()) return PromptRole::Continue;
  return checkpoint_task_kind(loaded.task) == TaskKind::Seq2Seq ? PromptRole::Source : PromptRole::Continue;
}

json::Value ids_json(const std::vector<int>& ids) {
  json::Value a = json::Value::array();
  for (int id : ids) a.push(id);
  return a;
}

json::Value strings_json(const std::vector<std::string>& items) {
  json::Value a = json::Value::array();
  for (const std::string& s : items) a.push(s);
  return a;
}

}  // namespace

int cmd_generate(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(help().c_str(), stdout);
    return 0;
  }
  std::set<std::string> valued = {"model", "prompt", "threads"};
  for (const std::string& k : schema::option_names<GenerateOptions>()) valued.insert(k);
  for (const std::string& k : schema::option_names<LoadOptions>()) valued.insert(k);
  const Args args(argc, argv, 2, valued, {"no-cache", "show-probs", "json"});
  if (!args.positional().empty()) {
    throw UsageError(str_cat("unexpected argument '", args.positional()[0],
                             "' (quote a prompt with spaces: --prompt \"how are you\")"));
  }
  set_threads(args);
  const std::string path = args.require("model");
  std::string prompt = args.require("prompt");
  GenerateOptions options;
  LoadOptions load_options;
  as_usage([&] {
    for (const auto& [option, text] : args.ordered()) {
      if (!schema::set_option(options, option, text)) schema::set_option(load_options, option, text);
    }
    options.validate();
  });
  const bool json_out = args.flag("json");
  Stdin in;
  if (prompt == "-") prompt = in.read_line_text("--prompt");

  LoadedCheckpoint loaded = load_model_path(path, load_options);
  if (!json_out) {
    for (const std::string& w : loaded.warnings) std::fprintf(stderr, "tp generate: warning: %s\n", w.c_str());
  }
  TP_CHECK(loaded.tokenizer != nullptr, "'", path, "' has no tokenizer in its metadata, so text cannot be encoded");
  const Tokenizer& tok = *loaded.tokenizer;
  if (args.flag("no-cache")) options.kv_cache = false;
  const bool show = args.flag("show-probs");
  if (show || json_out) options.top_k_probs = std::max(options.top_k_probs, 5);

  // The prompt is encoded by generate_text(), with the tokenizer's specials template unless
  // --add-special-tokens false.
  const TextGeneration g = generate_text(*loaded.model, tok, prompt, prompt_role(loaded), options);
  const GenerateResult& result = g.result;
  const std::string text = g.continues_prompt ? prompt + g.text : g.text;
  if (json_out) {
    json::Value v = json::Value::object();
    v.set("prompt_ids", ids_json(g.prompt_ids));
    v.set("ids", ids_json(result.ids));
    v.set("text", text);
    json::Value steps = json::Value::array();
    for (std::size_t i = 0; i < result.steps.size(); ++i) {
      const GenerateStep& s = result.steps[i];
      json::Value step = json::Value::object();
      step.set("id", s.id);
      step.set("token", tok.token_text(s.id));
      step.set("text", g.step_texts[i]);  // what the step adds, as a stream shows it
      json::Value top = json::Value::array();
      for (const TokenProb& p : s.top) {
        json::Value item = json::Value::object();
        item.set("id", p.id);
        item.set("token", tok.token_text(p.id));
        item.set("p", p.p);
        item.set("logprob", std::log(static_cast<double>(p.p)));
        top.push(std::move(item));
      }
      step.set("top", std::move(top));
      steps.push(std::move(step));
    }
    v.set("steps", std::move(steps));
    v.set("stop_reason", result.stop_reason);
    v.set("ms_per_token", result.ms_per_token);
    v.set("kv_cache", options.kv_cache);
    v.set("warnings", strings_json(loaded.warnings));
    std::printf("%s\n", v.dump().c_str());
    return 0;
  }
  if (show) {
    for (std::size_t s = 0; s < result.steps.size(); ++s) {
      const GenerateStep& step = result.steps[s];
      std::printf("step %zu: %s  |", s + 1, escape_controls(tok.token_text(step.id)).c_str());
      for (const TokenProb& p : step.top) std::printf("  %s %.3f", escape_controls(tok.token_text(p.id)).c_str(), p.p);
      std::printf("\n");
    }
  }
  std::printf("%s\n", text.c_str());
  std::fprintf(stderr, "%zu tokens, %.3f ms/token (%s), stopped: %s\n", result.ids.size(), result.ms_per_token,
               options.kv_cache ? "KV cache" : "no cache", result.stop_reason.c_str());
  return 0;
}

}  // namespace tp::cli
