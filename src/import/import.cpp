// import_model: which format the files are, then that format's reader (see import.h).
#include "import/import.h"

#include <new>

#include "core/error.h"
#include "core/text_escape.h"
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
  if (f == nullptr && name == "model.safetensors" && find_file(files, "model.safetensors.index.json")) {
    TP_FAIL("model.safetensors.index.json names a sharded checkpoint (its weights split over several ",
            "model-NNNNN-of-NNNNN.safetensors files), which is not supported; supported: one model.safetensors ",
            "(merge the shards into one file, e.g. with the safetensors library, and pass that)");
  }
  TP_CHECK(f != nullptr, why, " needs the file ", name);
  check_import_file_size(f->name, f->bytes.size());
  return *f;
}

bool ends_with(const std::string& s, const char* suffix) {
  const std::size_t n = std::char_traits<char>::length(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

namespace {

// The llama2.c model file: the one .bin that is not tokenizer.bin.
const ModelFile* llama2c_model(const std::vector<ModelFile>& files) {
  const ModelFile* found = nullptr;
  for (const ModelFile& f : files) {
    if (!ends_with(f.name, ".bin") || f.name == "tokenizer.bin") continue;
    TP_CHECK(found == nullptr, "two llama2.c model files (", quote(found ? found->name : ""), " and ", quote(f.name),
             "); pass one");
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
  for (const ModelFile& f : files) {
    if (names.size() > 200) {
      names += ", ...";
      break;
    }
    names += str_cat(names.empty() ? "" : ", ", quote(f.name, 40));
  }
  TP_FAIL("cannot tell which model these files are (", names.empty() ? "no files" : names, "); supported: a Hugging ",
          "Face-style folder (config.json, model.safetensors, and tokenizer.json or vocab.json + merges.txt) of the ",
          "GPT-2 or Llama family, or llama2.c's model .bin with its tokenizer.bin");
}

std::uint64_t max_import_file_bytes(std::string_view name) {
  constexpr std::uint64_t kMB = 1 << 20;
  if (name == "config.json") return kMB;
  if (name == "tokenizer.json" || name == "tokenizer_config.json" || name == "vocab.json" || name == "merges.txt" ||
      name == "tokenizer.bin")
    return 100 * kMB;
  // F32 weights at the parameter limit, with room for a header and the buffers (GPT-2's causal
  // masks, T x T per layer) that Hugging Face files may hold.
  if (name == "model.safetensors" || import::ends_with(std::string(name), ".bin"))
    return 2 * static_cast<std::uint64_t>(max_parameter_bytes());
  return 0;
}

void check_import_file_size(std::string_view name, std::uint64_t size) {
  const std::uint64_t max = max_import_file_bytes(name);
  TP_CHECK(size <= max, quote(name), " is ", size, " bytes; the largest ", name, " an import reads is ", max,
           " bytes (", max >> 20, " MB)", name == "config.json" ? "; a config.json is a few kilobytes" : "");
}

std::vector<std::string> import_file_names(const std::vector<std::string>& offered, bool tokenizer_only) {
  std::vector<ModelFile> files;
  for (const std::string& n : offered) files.push_back({n, {}});
  std::vector<std::string> out;
  const auto take = [&](const char* name) {
    if (import::find_file(files, name)) out.push_back(name);
  };
  if (import::find_file(files, "config.json")) {
    out.push_back("config.json");
    if (!tokenizer_only) take("model.safetensors");
    take("tokenizer_config.json");  // its add_bos_token / add_eos_token
    if (import::find_file(files, "tokenizer.json")) {
      take("tokenizer.json");
    } else {
      take("vocab.json");
      take("merges.txt");
    }
    return out;
  }
  if (!tokenizer_only) {
    if (const ModelFile* model = import::llama2c_model(files)) out.push_back(model->name);
  }
  take("tokenizer.bin");
  return out;
}

ModelConfig import_config(const std::vector<ModelFile>& files) {
  if (detect_import_format(files) == ImportFormat::HuggingFace) {
    return import::read_hf_config(import::require_file(files, "config.json", import::kHfWhy).bytes).config;
  }
  return import::read_llama2c_config(import::llama2c_model(files)->bytes);
}

LoadedCheckpoint import_model(const std::vector<ModelFile>& files, const LoadOptions& options) {
  try {
    if (detect_import_format(files) == ImportFormat::Llama2c) {
      const ModelFile& model = *import::llama2c_model(files);
      check_import_file_size(model.name, model.bytes.size());
      return import::read_llama2c(model.bytes, import::require_file(files, "tokenizer.bin", import::kLlama2cWhy).bytes,
                                  options);
    }
    // Everything that can be refused is checked before the model is allocated (import.h).
    const import::HfModel hf = import::read_hf_config(import::require_file(files, "config.json", import::kHfWhy).bytes);
    LoadedCheckpoint out;
    const import::HfWeights weights = import::check_hf_weights(
        hf, import::require_file(files, "model.safetensors", import::kHfWhy).bytes, options, out.warnings);
    out.tokenizer = import::read_hf_tokenizer(hf, files);
    out.model = std::make_unique<Transformer>(hf.config, 0, WeightInit::Unset);
    import::copy_hf_weights(hf, weights, *out.model);
    return out;
  } catch (const std::bad_alloc&) {
    TP_FAIL("not enough memory to import this model (", import_config(files).parameter_count(), " parameters)");
  }
}

std::unique_ptr<Tokenizer> import_tokenizer(const std::vector<ModelFile>& files, const LoadOptions& options) {
  if (import::find_file(files, "config.json")) {
    const import::HfModel hf = import::read_hf_config(import::require_file(files, "config.json", import::kHfWhy).bytes);
    return import::read_hf_tokenizer(hf, files);
  }
  std::vector<std::string> warnings;
  return import::read_llama2c_tokenizer(import::require_file(files, "tokenizer.bin", "a llama2.c tokenizer").bytes, -1,
                                        options, warnings);
}

}  // namespace tp
