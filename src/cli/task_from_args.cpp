// --task / --data / config options → Task and ModelConfig.
#include "cli/task_from_args.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"
#include "io/checkpoint.h"
#include "io/json.h"
#include "tasks/task_util.h"

namespace tp::cli {

namespace {

std::string option_to_field(std::string name) {
  for (char& ch : name) {
    if (ch == '-') ch = '_';
  }
  return name;
}

}  // namespace

std::vector<std::string> config_option_names() {
  std::vector<std::string> names;
  const json::Value defaults = ModelConfig().to_json();
  for (const auto& [key, value] : defaults.as_object()) {
    if (key == "vocab_size") continue;
    std::string option = key;
    for (char& ch : option) {
      if (ch == '_') ch = '-';
    }
    names.push_back(option);
  }
  return names;
}

std::unique_ptr<Task> task_from_args(const Args& args) {
  const std::string name = args.require("task");
  if (name == "text" || name == "pairs") {
    const std::string path = args.require("data");
    const std::string data = read_file(path);
    if (name == "text") {
      TokenizerOptions options;
      options.kind = parse_tokenizer_kind(args.get("tokenizer", "char"));
      options.vocab_size = args.get_int("vocab-size", options.kind == TokenizerKind::Bpe ? 512 : 0);
      return make_text_task(data, options);
    }
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& row : parse_tsv(data, 2, path)) pairs.emplace_back(row[0], row[1]);
    return make_pairs_task(pairs);
  }
  TP_CHECK(!args.has("data"), "--data is only for --task text or --task pairs");
  return make_task(name);
}

ModelConfig config_from_args(const Task& task, const Args& args) {
  json::Value merged = task.defaults.to_json();
  bool kv_given = false, heads_given = false;
  for (const auto& [option, text] : args.ordered()) {
    const std::string field = option_to_field(option);
    const json::Value* current = merged.find(field);
    if (!current || field == "vocab_size") continue;  // not a config option
    kv_given |= field == "n_kv_heads";
    heads_given |= field == "n_heads";
    switch (current->type()) {
      case json::Value::Type::Number: merged.set(field, parse_double(text, option)); break;
      case json::Value::Type::Bool:
        TP_CHECK(text == "true" || text == "false", "--", option, " expects true or false, got '", text, "'");
        merged.set(field, text == "true");
        break;
      default: merged.set(field, text); break;
    }
  }
  // Changing the head count alone keeps plain multi-head attention.
  if (heads_given && !kv_given) merged.set("n_kv_heads", 0);
  ModelConfig config = ModelConfig::from_json(merged);
  config.validate();
  return config;
}

void check_writable(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "ab");
  TP_CHECK(f != nullptr, "cannot write '", path, "': ", std::strerror(errno));
  std::fclose(f);
}

}  // namespace tp::cli
