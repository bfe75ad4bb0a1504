// Importing models from the PyTorch ecosystem: Hugging Face-style GPT-2- and Llama-family
// checkpoints (config.json + model.safetensors + tokenizer files) and llama2.c's .bin with its
// tokenizer.bin. Each becomes an ordinary Transformer with its tokenizer, so every view, the
// KV cache and fine-tuning work on it unchanged; docs/FORMAT.md ("Imported models") lists the
// mappings. Anything the model cannot represent exactly — another activation, RoPE scaling,
// sliding windows, biases a family lacks, an unknown model_type — is refused with a tp::Error
// naming the config.json field (or the file) and what is supported; nothing is approximated.
//
// Everything works on bytes held by the caller (the browser has no file system); the CLI reads
// a folder into ModelFiles, the page passes the files the user picked.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/checkpoint.h"

namespace tp {

// One file of a model, by its base name ("config.json", "model.safetensors", "stories15M.bin").
// The bytes must outlive the import call.
struct ModelFile {
  std::string name;
  std::string_view bytes;
};

enum class ImportFormat { HuggingFace, Llama2c };

// Which format the files are, from their names alone (tp::Error listing what each format needs
// when they are neither).
ImportFormat detect_import_format(const std::vector<ModelFile>& files);

// The model and tokenizer the files describe (task empty). Everything is checked before the model
// is allocated: config.json, the weights' header (every tensor's name, dtype, shape and place)
// and values, and the tokenizer's sizes against the config, so a refused import costs little more
// than its files. Weights or tokenizer scores that are NaN or infinite are refused unless
// options.allow_non_finite (as load_checkpoint does; then they are listed in `warnings`).
LoadedCheckpoint import_model(const std::vector<ModelFile>& files, const LoadOptions& options = {});

// The config a set of files would import as, without reading any weights — what the page shows
// (parameters, memory) before it loads a large model. For llama2.c only the .bin's header is read.
ModelConfig import_config(const std::vector<ModelFile>& files);

// Only the tokenizer: from config.json with tokenizer.json (or vocab.json + merges.txt), or
// from llama2.c's tokenizer.bin alone (as many tokens as it holds).
std::unique_ptr<Tokenizer> import_tokenizer(const std::vector<ModelFile>& files, const LoadOptions& options = {});

// A llama2.c .bin starts with seven int32: all import_config reads of it.
constexpr std::size_t kLlama2cHeaderBytes = 28;

// The largest file called `name` an import reads (0: a name no format reads). A config.json is a
// few kilobytes and a tokenizer file a few megabytes, so 1 MB and 100 MB leave room for any real
// one; weights (model.safetensors, a llama2.c .bin) are bounded by the parameters a model may
// have (max_parameter_bytes() as F32, plus a header and the buffers Hugging Face saves). The CLI
// checks a file's size before reading it, the bindings before allocating its bytes.
std::uint64_t max_import_file_bytes(std::string_view name);
// tp::Error naming the file, its size and the limit when size > max_import_file_bytes(name).
void check_import_file_size(std::string_view name, std::uint64_t size);

// The files a format reads, of those offered (by name): what the CLI loads from a folder.
// tokenizer_only: without the weights.
std::vector<std::string> import_file_names(const std::vector<std::string>& offered, bool tokenizer_only);

}  // namespace tp
