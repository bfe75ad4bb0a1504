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

// The model and tokenizer the files describe (task empty).
LoadedCheckpoint import_model(const std::vector<ModelFile>& files);

// The config a set of files would import as, without reading any weights — what the page shows
// (parameters, memory) before it loads a large model. For llama2.c only the .bin's header is read.
ModelConfig import_config(const std::vector<ModelFile>& files);

// Only the tokenizer: from config.json with tokenizer.json (or vocab.json + merges.txt), or
// from llama2.c's tokenizer.bin alone (as many tokens as it holds).
std::unique_ptr<Tokenizer> import_tokenizer(const std::vector<ModelFile>& files);

}  // namespace tp
