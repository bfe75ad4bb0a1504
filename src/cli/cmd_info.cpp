// `tp inspect`, `tp tokenize` and `tp tasks`: read-only views of checkpoints, tokenizers and the
// built-in tasks.
#include <cstdio>
#include <cstring>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/model_source.h"
#include "core/json.h"
#include "core/error.h"
#include "io/checkpoint.h"
#include "tasks/task.h"
#include "tokenize/tokenizer.h"

namespace tp::cli {

bool wants_help(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  }
  return false;
}

int cmd_inspect(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs("usage: tp inspect --model FILE\n\nPrints the configuration, every tensor with its shape and parameter "
               "count, and the tokenizer of a checkpoint.\n",
               stdout);
    return 0;
  }
  const Args args(argc, argv, 2, {"model"}, {});
  TP_CHECK(args.positional().empty(), "unexpected argument '", args.positional()[0], "' (tp inspect --help)");
  const std::string path = args.require("model");
  const LoadedCheckpoint loaded = load_model_path(path);
  const ModelConfig& c = loaded.model->config();
  std::printf("model: %s\n", path.c_str());
  if (!loaded.task.empty()) std::printf("task: %s\n", loaded.task.c_str());
  std::printf("config:\n");
  const json::Value config_json = c.to_json();
  for (const auto& [key, value] : config_json.as_object()) std::printf("  %-16s %s\n", key.c_str(), value.dump().c_str());
  std::printf("tensors:\n");
  for (const ParamInfo& info : loaded.model->params().infos()) {
    std::printf("  %-34s %-14s %10zu\n", info.name.c_str(), info.shape.str().c_str(), info.size);
  }
  std::printf("  %-34s %-14s %10zu\n", "total", "", loaded.model->params().numel());
  if (loaded.tokenizer) {
    const Tokenizer& tok = *loaded.tokenizer;
    std::printf("tokenizer: %s, %d tokens (%d special)\n  first tokens:", tokenizer_kind_name(tok.kind()),
                tok.vocab_size(), tok.num_specials());
    for (int id = 0; id < std::min(tok.vocab_size(), 16); ++id) std::printf(" %d:%s", id, tok.token_text(id).c_str());
    std::printf("\n");
  } else {
    std::printf("tokenizer: none\n");
  }
  return 0;
}

int cmd_tokenize(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs("usage: tp tokenize --tokenizer char|word|bpe|byte [--train-text FILE] [--vocab-size N] TEXT\n"
               "       tp tokenize --model PATH [--json] TEXT\n\n"
               "Splits TEXT into tokens and prints each with its id, its byte span and its UTF-16 span.\n"
               "char, word and bpe learn their vocabulary from --train-text (or from TEXT itself); --model\n"
               "uses the tokenizer of a checkpoint, a Hugging Face-style folder or a llama2.c .bin.\n"
               "--json prints {\"ids\": [...], \"tokens\": [...]} instead of the table.\n",
               stdout);
    return 0;
  }
  const Args args(argc, argv, 2, {"tokenizer", "train-text", "vocab-size", "model"}, {"json"});
  TP_CHECK(args.positional().size() == 1, "give exactly one TEXT to tokenize (quote it if it has spaces), got ",
           args.positional().size());
  const std::string text = args.positional()[0];
  std::unique_ptr<Tokenizer> tok;
  if (args.has("model")) {
    TP_CHECK(!args.has("tokenizer"), "give --model or --tokenizer, not both");
    tok = std::move(load_model_path(args.get("model")).tokenizer);
    TP_CHECK(tok != nullptr, "'", args.get("model"), "' has no tokenizer");
  } else {
    TokenizerOptions options;
    options.kind = parse_tokenizer_kind(args.require("tokenizer"));
    options.vocab_size = args.get_int("vocab-size", 0);
    const std::string training = args.has("train-text") ? read_file(args.get("train-text")) : text;
    tok = train_tokenizer(options.with_defaults(), training);
  }
  const Encoding e = tok->encode(text);
  if (args.flag("json")) {
    json::Value ids = json::Value::array(), tokens = json::Value::array();
    for (std::size_t i = 0; i < e.ids.size(); ++i) {
      ids.push(e.ids[i]);
      tokens.push(e.tokens[i]);
    }
    json::Value v = json::Value::object();
    v.set("ids", std::move(ids));
    v.set("tokens", std::move(tokens));
    std::printf("%s\n", v.dump().c_str());
    return 0;
  }
  std::printf("%s tokenizer, %d tokens in the vocabulary; %zu tokens:\n", tokenizer_kind_name(tok->kind()),
              tok->vocab_size(), e.ids.size());
  std::printf("  %-5s %-6s %-20s %-12s %s\n", "#", "id", "token", "bytes", "utf-16");
  for (std::size_t i = 0; i < e.ids.size(); ++i) {
    const std::string bytes = "[" + std::to_string(e.byte_spans[i].begin) + "," + std::to_string(e.byte_spans[i].end) + ")";
    std::printf("  %-5zu %-6d %-20s %-12s [%d,%d)\n", i, e.ids[i], e.tokens[i].c_str(), bytes.c_str(),
                e.utf16_spans[i].begin, e.utf16_spans[i].end);
  }
  return 0;
}

int cmd_tasks(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs("usage: tp tasks\n\nLists the built-in tasks with their data, default architecture and metric.\n", stdout);
    return 0;
  }
  const Args args(argc, argv, 2, {}, {});
  TP_CHECK(args.positional().empty(), "tp tasks takes no arguments");
  std::printf("%-10s %-9s %-16s %-15s %s\n", "task", "kind", "architecture", "metric", "description");
  for (const TaskInfo& info : builtin_tasks()) {
    const auto task = make_task(info.name);
    std::printf("%-10s %-9s %-16s %-15s %s\n", task->name.c_str(), to_string(task->kind), to_string(task->defaults.arch),
                task->metric.c_str(), task->description.c_str());
  }
  std::printf("%-10s %-9s %-16s %-15s %s\n", "text", "text", "decoder-only", "perplexity",
              "your own text: --task text --data FILE [--tokenizer char|word|bpe|byte]");
  std::printf("%-10s %-9s %-16s %-15s %s\n", "pairs", "seq2seq", "encoder-decoder", "exact_match",
              "your own pairs: --task pairs --data FILE (source<TAB>target lines)");
  return 0;
}

}  // namespace tp::cli
