// import_model: which format the files are, then that format's reader (see import.h).
#include "import/import.h"

#include <new>

#include "core/error.h"
#include "import/import_internal.h"

namespace tp {
namespace import {

const ModelFile* find_file(const std::vector<ModelFile>& files, std::string_view name) {
  for (const ModelFile& f : files) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const ModelFile& require_file(const std::vector<ModelFile>& files, std::string_view name, const char* why) {
  const ModelFile* f = find_file(files, name);
  TP_CHECK(f != nullptr, why, " needs the file ", name);
  return *f;
}

namespace {

bool ends_with(const std::string& s, const char* suffix) {
  const std::size_t n = std::char_traits<char>::length(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// The llama2.c model file: the one .bin that is not tokenizer.bin.
const ModelFile* llama2c_model(const std::vector<ModelFile>& files) {
  const ModelFile* found = nullptr;
  for (const ModelFile& f : files) {
    if (!ends_with(f.name, ".bin") || f.name == "tokenizer.bin") continue;
    TP_CHECK(found == nullptr, "two llama2.c model files (", found ? found->name : "", " and ", f.name, "); pass one");
    found = &f;
  }
  return found;
}

constexpr const char* kHfWhy = "a Hugging Face-style model (config.json + model.safetensors)";
constexpr const char* kLlama2cWhy = "a llama2.c model";

}  // namespace
}  // namespace import

ImportFormat detect_import_format(const std::vector<ModelFile>& files) {
  if (import::find_file(files, "config.json")) return ImportFormat::HuggingFace;
  if (import::llama2c_model(files)) return ImportFormat::Llama2c;
  std::string names;
  for (const ModelFile& f : files) names += str_cat(names.empty() ? "" : ", ", f.name);
  TP_FAIL("cannot tell which model these files are (", names.empty() ? "no files" : names, "); supported: a Hugging ",
          "Face-style folder (config.json, model.safetensors, and tokenizer.json or vocab.json + merges.txt) of the ",
          "GPT-2 or Llama family, or llama2.c's model .bin with its tokenizer.bin");
}

ModelConfig import_config(const std::vector<ModelFile>& files) {
  if (detect_import_format(files) == ImportFormat::HuggingFace) {
    return import::read_hf_config(import::require_file(files, "config.json", import::kHfWhy).bytes).config;
  }
  return import::read_llama2c_config(import::llama2c_model(files)->bytes);
}

LoadedCheckpoint import_model(const std::vector<ModelFile>& files) {
  try {
    if (detect_import_format(files) == ImportFormat::Llama2c) {
      return import::read_llama2c(import::llama2c_model(files)->bytes,
                                  import::require_file(files, "tokenizer.bin", import::kLlama2cWhy).bytes);
    }
    const import::HfModel hf = import::read_hf_config(import::require_file(files, "config.json", import::kHfWhy).bytes);
    const std::string_view weights = import::require_file(files, "model.safetensors", import::kHfWhy).bytes;
    LoadedCheckpoint out;
    out.tokenizer = import::read_hf_tokenizer(hf, files);  // cheap checks before the big allocation
    out.model = std::make_unique<Transformer>(hf.config, 0, WeightInit::Unset);
    import::copy_hf_weights(hf, weights, *out.model);
    return out;
  } catch (const std::bad_alloc&) {
    TP_FAIL("not enough memory to import this model (", import_config(files).parameter_count(), " parameters)");
  }
}

std::unique_ptr<Tokenizer> import_tokenizer(const std::vector<ModelFile>& files) {
  if (import::find_file(files, "config.json")) {
    const import::HfModel hf = import::read_hf_config(import::find_file(files, "config.json")->bytes);
    return import::read_hf_tokenizer(hf, files);
  }
  return import::read_llama2c_tokenizer(import::require_file(files, "tokenizer.bin", "a llama2.c tokenizer").bytes, -1);
}

}  // namespace tp
