// load_model_path / load_tokenizer_path: read the files --model names and hand them to io (our
// checkpoints) or import (everyone else's); see model_source.h.
//
// Only the files the format reads are opened (import_file_names decides, by name), each checked
// to be a regular file within the size that format allows before a byte of it is read: a
// pytorch_model.bin beside a model.safetensors, a /dev/zero named config.json or a sparse 20 GB
// file costs nothing. A format's header (config.json, a llama2.c .bin's first 28 bytes, a
// checkpoint's safetensors header) is read and judged before its weights are: a model above the
// parameter limit (model/memory_limit.h) is refused without reading them.
#include "cli/model_source.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "core/error.h"
#include "core/text_escape.h"
#include "import/import.h"

namespace tp::cli {

namespace {
namespace fs = std::filesystem;

struct Read {
  std::vector<std::string> names;
  std::vector<FileBytes> contents;
  std::vector<ModelFile> files() const {
    std::vector<ModelFile> out;
    for (std::size_t i = 0; i < names.size(); ++i) out.push_back({names[i], contents[i].view()});
    return out;
  }
};

// The files of the folder `dir` the format reads (tokenizer_only: not the weights).
Read read_folder(const fs::path& dir, const std::string& path, bool tokenizer_only) {
  std::error_code ec;
  std::vector<std::string> offered;
  for (const auto& entry : fs::directory_iterator(dir, ec)) offered.push_back(entry.path().filename().string());
  TP_CHECK(!ec, "cannot list the folder ", quote(path), ": ", ec.message());
  const std::vector<std::string> wanted = import_file_names(offered, tokenizer_only);
  const bool sharded = std::find(offered.begin(), offered.end(), "model.safetensors.index.json") != offered.end();
  TP_CHECK(!wanted.empty() || sharded, quote(path), " holds no model files; a model folder has config.json, ",
           "model.safetensors and tokenizer.json (or vocab.json + merges.txt), or llama2.c's model .bin with ",
           "tokenizer.bin");
  Read out;
  if (sharded) out.names.push_back("model.safetensors.index.json");  // only its name: import says why not
  for (const std::string& name : wanted) out.names.push_back(name);
  for (const std::string& name : out.names) {
    const std::uint64_t max = name == "model.safetensors.index.json" ? 0 : max_import_file_bytes(name);
    out.contents.push_back(max == 0 ? FileBytes() : read_file_bytes((dir / name).string(), max));
    // config.json comes first: a model above the limit is refused before its weights are read.
    if (name == "config.json" && !tokenizer_only) import_config({{name, out.contents.back().view()}});
  }
  return out;
}

// llama2.c's model .bin and the tokenizer.bin beside it.
Read read_llama2c(const fs::path& p, const std::string& path, bool tokenizer_only) {
  std::error_code ec;
  const fs::path tokenizer = p.parent_path() / "tokenizer.bin";
  TP_CHECK(fs::exists(tokenizer, ec), "llama2.c model ", quote(path), " needs its tokenizer.bin in the same folder (",
           quote(tokenizer.string()), " does not exist)");
  Read out;
  if (!tokenizer_only) {
    const std::string name = p.filename().string();
    // Its header first: a model above the limit is refused before its weights are read.
    import_config({{name, read_file_head(path, kLlama2cHeaderBytes)}});
    out.names.push_back(name);
    out.contents.push_back(read_file_bytes(path, max_import_file_bytes(name)));
  }
  out.names.push_back("tokenizer.bin");
  out.contents.push_back(read_file_bytes(tokenizer.string(), max_import_file_bytes("tokenizer.bin")));
  return out;
}

}  // namespace

LoadedCheckpoint load_model_path(const std::string& path, const LoadOptions& options) {
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return import_model(read_folder(p, path, false).files(), options);
  if (p.extension() == ".bin") return import_model(read_llama2c(p, path, false).files(), options);
  return load_checkpoint_file(path, options);
}

std::unique_ptr<Tokenizer> load_tokenizer_path(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return import_tokenizer(read_folder(p, path, true).files());
  if (p.extension() == ".bin") return import_tokenizer(read_llama2c(p, path, true).files());
  LoadedCheckpoint loaded = load_checkpoint_file(path);
  TP_CHECK(loaded.tokenizer != nullptr, quote(path), " has no tokenizer");
  return std::move(loaded.tokenizer);
}

}  // namespace tp::cli
