// --task / --data / config options → Task and ModelConfig.
#include "cli/task_from_args.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"
#include "io/checkpoint.h"
#include "core/json.h"
#include "tasks/task_util.h"

namespace tp::cli {

std::vector<std::string> config_option_names() {
  std::vector<std::string> names;
  for (const std::string& option : schema::option_names<ModelConfig>()) {
    if (option != "vocab-size") names.push_back(option);
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
      options.vocab_size = args.get_int("vocab-size", 0);
      return make_text_task(data, options.with_defaults());
    }
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& row : parse_tsv(data, 2, path)) pairs.emplace_back(row[0], row[1]);
    return make_pairs_task(pairs);
  }
  TP_CHECK(!args.has("data"), "--data is only for --task text or --task pairs");
  return make_task(name);
}

ModelConfig config_from_args(const Task& task, const Args& args) {
  ModelConfig config = task.defaults;
  config.n_kv_heads = config.kv_heads();
  bool kv_given = false, heads_given = false;
  const std::vector<std::string> options = config_option_names();
  for (const auto& [option, text] : args.ordered()) {
    if (std::find(options.begin(), options.end(), option) == options.end()) continue;  // not a config option
    schema::set_option(config, option, text);
    kv_given |= option == "n-kv-heads";
    heads_given |= option == "n-heads";
  }
  // Changing the head count alone keeps plain multi-head attention.
  if (heads_given && !kv_given) config.n_kv_heads = 0;
  config.validate();
  return config;
}

TrainOptions train_options_from_args(const Task& task, const Args& args) {
  TrainOptions options = task.train;
  for (const auto& [option, text] : args.ordered()) schema::set_option(options, option, text);
  options.validate();
  return options;
}

void check_writable(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "ab");
  TP_CHECK(f != nullptr, "cannot write '", path, "': ", std::strerror(errno));
  std::fclose(f);
}

}  // namespace tp::cli
