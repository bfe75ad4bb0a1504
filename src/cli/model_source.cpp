// load_model_path: reads the files --model names and hands them to io (our checkpoints) or
// import (everyone else's); see model_source.h.
#include "cli/model_source.h"

#include <filesystem>
#include <vector>

#include "core/error.h"
#include "import/import.h"

namespace tp::cli {

namespace {
namespace fs = std::filesystem;

// The files import reads, by the names import looks for.
bool wanted(const fs::path& p) {
  const std::string name = p.filename().string();
  return name == "config.json" || name == "model.safetensors" || name == "tokenizer.json" || name == "vocab.json" ||
         name == "merges.txt" || p.extension() == ".bin";
}

LoadedCheckpoint import_paths(const std::vector<fs::path>& paths) {
  std::vector<std::string> contents;
  contents.reserve(paths.size());
  for (const fs::path& p : paths) contents.push_back(read_file(p.string()));
  std::vector<ModelFile> files;
  for (std::size_t i = 0; i < paths.size(); ++i) files.push_back({paths[i].filename().string(), contents[i]});
  return import_model(files);
}

}  // namespace

LoadedCheckpoint load_model_path(const std::string& path, const LoadOptions& options) {
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) {
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(p, ec)) {
      if (entry.is_regular_file() && wanted(entry.path())) paths.push_back(entry.path());
    }
    TP_CHECK(!paths.empty(), "'", path, "' holds no model files; a model folder has config.json, model.safetensors ",
             "and tokenizer.json (or vocab.json + merges.txt), or llama2.c's model .bin with tokenizer.bin");
    return import_paths(paths);
  }
  if (p.extension() == ".bin") {
    const fs::path tokenizer = p.parent_path() / "tokenizer.bin";
    TP_CHECK(fs::exists(tokenizer, ec), "llama2.c model '", path, "' needs its tokenizer.bin in the same folder (",
             tokenizer.string(), " does not exist)");
    return import_paths({p, tokenizer});
  }
  return load_checkpoint(read_file(path), options);
}

}  // namespace tp::cli
