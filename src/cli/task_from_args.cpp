// --task / --data / config options → Task and ModelConfig.
#include "cli/task_from_args.h"

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.h"
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

std::unique_ptr<Task> task_from_args(const Args& args, Stdin& in) {
  const std::string name = args.require("task");
  if (name == "text" || name == "pairs") {
    const std::string path = args.require("data");
    TokenizerOptions options;
    if (name == "text") {
      as_usage([&] {
        options.kind = parse_tokenizer_kind(args.get("tokenizer", "char"));
        options.vocab_size = args.get_int("vocab-size", 0);
      });
    }
    // The data is the user's file: what is wrong in it is an input error, not a usage error.
    const std::string data = read_input(path, "--data", in);
    if (name == "text") return make_text_task(data, options.with_defaults());
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& row : parse_tsv(data, 2, path == "-" ? "standard input" : path))
      pairs.emplace_back(row[0], row[1]);
    return make_pairs_task(pairs);
  }
  if (args.has("data")) throw UsageError("--data is only for --task text or --task pairs");
  return as_usage([&] { return make_task(name); });
}

ModelConfig config_from_args(const Task& task, const Args& args) {
  return as_usage([&] {
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
  });
}

TrainOptions train_options_from_args(const Task& task, const Args& args) {
  return as_usage([&] {
    TrainOptions options = task.train;
    for (const auto& [option, text] : args.ordered()) schema::set_option(options, option, text);
    options.validate();
    return options;
  });
}

void check_writable(const std::string& path) {
  // Nothing is created here: write_file() writes a temporary file beside `path` and renames it
  // over `path` when the model is saved, so a run that fails or is killed before then leaves no
  // file behind (and an existing one untouched). What that needs is checked now, before training.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw UsageError(
        str_cat("cannot write '", path, "': it is a folder; give a file name, e.g. ", path, "/model.safetensors"));
  }
  const std::size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw UsageError(str_cat("cannot write '", path, "': the folder '", folder, "' does not exist"));
  }
  errno = 0;
  TP_CHECK(::access(folder.c_str(), W_OK | X_OK) == 0, "cannot write '", path, "': cannot create files in '", folder,
           "': ", std::strerror(errno));
}

}  // namespace tp::cli
