// `tp generate`: load a checkpoint, encode the prompt with its tokenizer, generate, print.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/schema.h"
#include "generate/generator.h"
#include "cli/model_source.h"
#include "core/json.h"
#include "io/checkpoint.h"
#include "tasks/task.h"

namespace tp::cli {

namespace {

const GenerateOptions kDefaults{};

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
      "  --prompt TEXT                 the input text\n"
      "  --no-cache                    the same as --kv-cache false\n"
      "  --show-probs                  print each step's five most likely next tokens\n"
      "  --json                        print one JSON object: prompt and new ids, the text, and per\n"
      "                                step the top-k log-probabilities (k = --top-k-probs, at least 5)\n",
      threads_help(),
      schema::help<GenerateOptions>(&kDefaults));
}

// Seq2seq tasks run on a decoder-only model as "source <SOS> target".
bool prompt_needs_sos(const LoadedCheckpoint& loaded) {
  if (loaded.model->config().arch != Arch::DecoderOnly || loaded.task.empty()) return false;
  return task_kind(loaded.task) == TaskKind::Seq2Seq;
}

json::Value id_array(const std::vector<int>& ids) {
  json::Value a = json::Value::array();
  for (int id : ids) a.push(id);
  return a;
}

// {"prompt_ids", "ids", "text", "stop", "steps": [{"id", "top": [{"id", "logprob"}]}]}
void print_json(const std::vector<int>& prompt, const GenerateResult& result, const std::string& text) {
  json::Value v = json::Value::object();
  v.set("prompt_ids", id_array(prompt));
  v.set("ids", id_array(result.ids));
  v.set("text", text);
  v.set("stop", result.stop_reason);
  json::Value steps = json::Value::array();
  for (const GenerateStep& step : result.steps) {
    json::Value s = json::Value::object();
    s.set("id", step.id);
    json::Value top = json::Value::array();
    for (const TokenProb& p : step.top) {
      json::Value t = json::Value::object();
      t.set("id", p.id);
      t.set("logprob", std::log(static_cast<double>(p.p)));
      top.push(std::move(t));
    }
    s.set("top", std::move(top));
    steps.push(std::move(s));
  }
  v.set("steps", std::move(steps));
  std::printf("%s\n", v.dump().c_str());
}

}  // namespace

int cmd_generate(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(help().c_str(), stdout);
    return 0;
  }
  std::set<std::string> valued = {"model", "prompt", "threads"};
  for (const std::string& k : schema::option_names<GenerateOptions>()) valued.insert(k);
  const Args args(argc, argv, 2, valued, {"no-cache", "show-probs", "json"});
  TP_CHECK(args.positional().empty(), "unexpected argument '", args.positional()[0],
           "' (quote a prompt with spaces: --prompt \"how are you\")");
  set_threads(args);
  const std::string path = args.require("model");
  const std::string prompt = args.require("prompt");
  LoadedCheckpoint loaded = load_model_path(path);
  TP_CHECK(loaded.tokenizer != nullptr, "'", path, "' has no tokenizer in its metadata, so text cannot be encoded");
  const Tokenizer& tok = *loaded.tokenizer;
  GenerateOptions options;
  for (const auto& [option, text] : args.ordered()) schema::set_option(options, option, text);
  if (args.flag("no-cache")) options.kv_cache = false;
  const bool show = args.flag("show-probs"), as_json = args.flag("json");
  if (show || as_json) options.top_k_probs = std::max(options.top_k_probs, 5);
  options.specials = tok.specials();

  std::vector<int> ids = tok.encode(prompt).ids;
  const bool seq2seq_prompt = prompt_needs_sos(loaded);
  if (seq2seq_prompt) ids.push_back(options.specials.sos);
  const GenerateResult result = generate(*loaded.model, ids, options);
  std::vector<int> out = result.ids;
  if (!out.empty() && out.back() == options.specials.eos) out.pop_back();
  const bool continuation = loaded.model->config().arch == Arch::DecoderOnly && !seq2seq_prompt;
  const std::string text = continuation ? prompt + tok.decode_continuation(ids, out) : tok.decode(out);
  if (as_json) {
    print_json(ids, result, text);
    return 0;
  }
  if (show) {
    for (std::size_t s = 0; s < result.steps.size(); ++s) {
      const GenerateStep& step = result.steps[s];
      std::printf("step %zu: %s  |", s + 1, tok.token_text(step.id).c_str());
      for (const TokenProb& p : step.top) std::printf("  %s %.3f", tok.token_text(p.id).c_str(), p.p);
      std::printf("\n");
    }
  }
  std::printf("%s\n", text.c_str());
  std::fprintf(stderr, "%zu tokens, %.3f ms/token (%s), stopped: %s\n", result.ids.size(), result.ms_per_token,
               options.kv_cache ? "KV cache" : "no cache", result.stop_reason.c_str());
  return 0;
}

}  // namespace tp::cli
