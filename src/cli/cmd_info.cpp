// `tp inspect`, `tp tokenize` and `tp tasks`: read-only views of checkpoints, tokenizers and the
// built-in tasks, as text or (--json) as one JSON document.
#include <cstdio>
#include <cstring>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/model_source.h"
#include "core/error.h"
#include "core/json.h"
#include "core/text_escape.h"
#include "io/checkpoint.h"
#include "tasks/task.h"
#include "tokenize/tokenizer.h"

namespace tp::cli {

namespace {

const LoadOptions kLoadDefaults{};

json::Value span_json(int begin, int end) {
  json::Value a = json::Value::array();
  a.push(begin);
  a.push(end);
  return a;
}

void print_json(const json::Value& v) { std::printf("%s\n", v.dump().c_str()); }

// The tokenizer's special tokens by role, in a fixed order (those it has).
std::vector<std::pair<const char*, int>> special_ids(const Tokenizer& tok) {
  const SpecialTokens s = tok.specials();
  std::vector<std::pair<const char*, int>> out;
  for (const auto& [role, id] : {std::pair<const char*, int>{"sos", s.sos},
                                 {"eos", s.eos},
                                 {"pad", s.pad},
                                 {"unk", s.unk},
                                 {"cls", s.cls},
                                 {"mask", s.mask}}) {
    if (id >= 0) out.emplace_back(role, id);
  }
  return out;
}

// {"sos": {"id": 1, "text": "<s>"}, ...}: the text exact (JSON escapes what it must).
json::Value specials_json(const Tokenizer& tok) {
  json::Value out = json::Value::object();
  for (const auto& [role, id] : special_ids(tok)) {
    json::Value one = json::Value::object();
    one.set("id", id);
    one.set("text", tok.token_text(id));
    out.set(role, std::move(one));
  }
  return out;
}

json::Value task_json(const std::string& name, const char* kind, const char* arch, const std::string& metric,
                      const std::string& description) {
  json::Value t = json::Value::object();
  t.set("name", name);
  t.set("kind", kind);
  t.set("architecture", arch);
  t.set("metric", metric);
  t.set("description", description);
  return t;
}

}  // namespace

int cmd_inspect(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(
        str_cat("usage: tp inspect --model FILE [--json]\n\nPrints the configuration, every tensor with its shape "
                "and parameter count, and the tokenizer of a checkpoint,\nand any warning about it (metadata "
                "keys this version does not read).\n\n"
                "  --json                        one JSON document on stdout: model, task, config, tensors,\n"
                "                                parameter_count, tokenizer, warnings; errors as JSON on stderr\n",
                schema::help<LoadOptions>(&kLoadDefaults),
                "\nExit status: 0 done, 1 an unreadable or malformed file, 2 a usage error.\n")
            .c_str(),
        stdout);
    return 0;
  }
  std::set<std::string> valued = {"model"};
  for (const std::string& k : schema::option_names<LoadOptions>()) valued.insert(k);
  const Args args(argc, argv, 2, valued, {"json"});
  if (!args.positional().empty())
    throw UsageError(str_cat("unexpected argument '", args.positional()[0], "' (tp inspect --help)"));
  const std::string path = args.require("model");
  LoadOptions load_options;
  as_usage([&] {
    for (const auto& [option, text] : args.ordered()) schema::set_option(load_options, option, text);
  });
  const LoadedCheckpoint loaded = load_model_path(path, load_options);
  const ModelConfig& c = loaded.model->config();
  const json::Value config_json = c.to_json();
  if (args.flag("json")) {
    json::Value v = json::Value::object();
    v.set("model", path);
    v.set("task", loaded.task.empty() ? json::Value() : json::Value(loaded.task));
    v.set("config", config_json);
    json::Value tensors = json::Value::array();
    for (const ParamInfo& info : loaded.model->params().infos()) {
      json::Value t = json::Value::object();
      t.set("name", info.name);
      json::Value shape = json::Value::array();
      for (int d = 0; d < info.shape.ndim; ++d) shape.push(info.shape[d]);
      t.set("shape", std::move(shape));
      t.set("size", static_cast<std::int64_t>(info.size));
      tensors.push(std::move(t));
    }
    v.set("tensors", std::move(tensors));
    v.set("parameter_count", static_cast<std::int64_t>(loaded.model->params().numel()));
    if (loaded.tokenizer) {
      const Tokenizer& tok = *loaded.tokenizer;
      json::Value t = json::Value::object();
      t.set("kind", tokenizer_kind_name(tok.kind()));
      t.set("vocab_size", tok.vocab_size());
      t.set("num_specials", tok.num_specials());
      t.set("specials", specials_json(tok));
      v.set("tokenizer", std::move(t));
    } else {
      v.set("tokenizer", json::Value());
    }
    json::Value warnings = json::Value::array();
    for (const std::string& w : loaded.warnings) warnings.push(w);
    v.set("warnings", std::move(warnings));
    print_json(v);
    return 0;
  }
  for (const std::string& w : loaded.warnings) std::fprintf(stderr, "tp inspect: warning: %s\n", w.c_str());
  std::printf("model: %s\n", path.c_str());
  if (!loaded.task.empty()) std::printf("task: %s\n", loaded.task.c_str());
  std::printf("config:\n");
  for (const auto& [key, value] : config_json.as_object())
    std::printf("  %-16s %s\n", key.c_str(), value.dump().c_str());
  std::printf("tensors:\n");
  for (const ParamInfo& info : loaded.model->params().infos()) {
    std::printf("  %-34s %-14s %10zu\n", info.name.c_str(), info.shape.str().c_str(), info.size);
  }
  std::printf("  %-34s %-14s %10zu\n", "total", "", loaded.model->params().numel());
  if (loaded.tokenizer) {
    const Tokenizer& tok = *loaded.tokenizer;
    const std::vector<std::pair<const char*, int>> specials = special_ids(tok);
    std::printf("tokenizer: %s, %d tokens (%zu special)\n  specials:", tokenizer_kind_name(tok.kind()),
                tok.vocab_size(), specials.size());
    for (const auto& [role, id] : specials)
      std::printf(" %s=%d:%s", role, id, escape_controls(tok.token_text(id)).c_str());
    std::printf("%s\n  first tokens:", specials.empty() ? " none" : "");
    for (int id = 0; id < std::min(tok.vocab_size(), 16); ++id)
      std::printf(" %d:%s", id, escape_controls(tok.token_text(id)).c_str());
    std::printf("\n");
  } else {
    std::printf("tokenizer: none\n");
  }
  return 0;
}

int cmd_tokenize(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(
        "usage: tp tokenize --tokenizer char|word|bpe|byte [--train-text FILE] [--vocab-size N] [--json] TEXT\n"
        "       tp tokenize --model PATH [--json] [--no-special-tokens] TEXT\n\n"
        "Splits TEXT into tokens and prints each with its id, its byte span and its UTF-16 span.\n"
        "char, word and bpe learn their vocabulary from --train-text (or from TEXT itself); --model\n"
        "uses the tokenizer of a checkpoint, a Hugging Face-style folder or a llama2.c .bin, with the\n"
        "special tokens its files put around a text (<s> first for Llama and llama2.c) unless\n"
        "--no-special-tokens.\n"
        "TEXT `-` (or --train-text -) reads standard input; for TEXT one trailing newline is dropped.\n"
        "Put `--` before a TEXT that starts with `--`.\n\n"
        "  --json                        one JSON document on stdout: ids, tokens (each with id, text,\n"
        "                                bytes and utf16 spans), tokenizer, vocab_size; errors as JSON\n"
        "                                on stderr\n\n"
        "Exit status: 0 done, 1 an unreadable file, 2 a usage error.\n",
        stdout);
    return 0;
  }
  const Args args(argc, argv, 2, {"tokenizer", "train-text", "vocab-size", "model"}, {"json", "no-special-tokens"});
  if (args.positional().size() != 1) {
    throw UsageError(
        str_cat("give exactly one TEXT to tokenize (quote it if it has spaces; `-` reads standard input), got ",
                args.positional().size()));
  }
  Stdin in;
  const std::string text = args.positional()[0] == "-" ? in.read_line_text("TEXT") : args.positional()[0];
  std::unique_ptr<Tokenizer> tok;
  if (args.has("model")) {
    if (args.has("tokenizer")) throw UsageError("give --model or --tokenizer, not both");
    tok = load_tokenizer_path(args.get("model"));
  } else {
    TokenizerOptions options;
    as_usage([&] {
      options.kind = parse_tokenizer_kind(args.require("tokenizer"));
      options.vocab_size = args.get_int("vocab-size", 0);
    });
    const std::string training = args.has("train-text") ? read_input(args.get("train-text"), "--train-text", in) : text;
    tok = train_tokenizer(options.with_defaults(), training);
  }
  const Encoding e = args.flag("no-special-tokens") ? tok->encode(text) : tok->encode_with_specials(text);
  if (args.flag("json")) {
    json::Value v = json::Value::object();
    json::Value ids = json::Value::array();
    for (int id : e.ids) ids.push(id);
    v.set("ids", std::move(ids));
    json::Value tokens = json::Value::array();
    for (std::size_t i = 0; i < e.ids.size(); ++i) {
      json::Value t = json::Value::object();
      t.set("id", e.ids[i]);
      t.set("text", e.tokens[i]);
      t.set("bytes", span_json(static_cast<int>(e.byte_spans[i].begin), static_cast<int>(e.byte_spans[i].end)));
      t.set("utf16", span_json(e.utf16_spans[i].begin, e.utf16_spans[i].end));
      tokens.push(std::move(t));
    }
    v.set("tokens", std::move(tokens));
    v.set("tokenizer", tokenizer_kind_name(tok->kind()));
    v.set("vocab_size", tok->vocab_size());
    print_json(v);
    return 0;
  }
  std::printf("%s tokenizer, %d tokens in the vocabulary; %zu tokens:\n", tokenizer_kind_name(tok->kind()),
              tok->vocab_size(), e.ids.size());
  std::printf("  %-5s %-6s %-20s %-12s %s\n", "#", "id", "token", "bytes", "utf-16");
  for (std::size_t i = 0; i < e.ids.size(); ++i) {
    const std::string bytes =
        "[" + std::to_string(e.byte_spans[i].begin) + "," + std::to_string(e.byte_spans[i].end) + ")";
    std::printf("  %-5zu %-6d %-20s %-12s [%d,%d)\n", i, e.ids[i], escape_controls(e.tokens[i]).c_str(), bytes.c_str(),
                e.utf16_spans[i].begin, e.utf16_spans[i].end);
  }
  return 0;
}

int cmd_tasks(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(
        "usage: tp tasks [--json]\n\nLists the built-in tasks with their data, default architecture and metric.\n\n"
        "  --json                        one JSON document on stdout: {\"tasks\": [{name, kind, architecture,\n"
        "                                metric, description}]}\n",
        stdout);
    return 0;
  }
  const Args args(argc, argv, 2, {}, {"json"});
  if (!args.positional().empty()) throw UsageError("tp tasks takes no arguments");
  std::vector<json::Value> rows;
  for (const TaskInfo& info : builtin_tasks()) {
    const auto task = make_task(info.name);
    rows.push_back(
        task_json(task->name, to_string(task->kind), to_string(task->defaults.arch), task->metric, task->description));
  }
  rows.push_back(task_json("text", "text", "decoder-only", "perplexity",
                           "your own text: --task text --data FILE [--tokenizer char|word|bpe|byte]"));
  rows.push_back(task_json("pairs", "seq2seq", "encoder-decoder", "exact_match",
                           "your own pairs: --task pairs --data FILE (source<TAB>target lines)"));
  if (args.flag("json")) {
    json::Value list = json::Value::array();
    for (json::Value& r : rows) list.push(std::move(r));
    json::Value v = json::Value::object();
    v.set("tasks", std::move(list));
    print_json(v);
    return 0;
  }
  std::printf("%-10s %-9s %-16s %-15s %s\n", "task", "kind", "architecture", "metric", "description");
  for (const json::Value& r : rows) {
    std::printf("%-10s %-9s %-16s %-15s %s\n", r.at("name").as_string().c_str(), r.at("kind").as_string().c_str(),
                r.at("architecture").as_string().c_str(), r.at("metric").as_string().c_str(),
                r.at("description").as_string().c_str());
  }
  return 0;
}

}  // namespace tp::cli
