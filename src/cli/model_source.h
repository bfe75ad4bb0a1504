// What `--model PATH` names: one of our checkpoints (a .safetensors file with our metadata), a
// Hugging Face-style folder (config.json, model.safetensors, tokenizer files), or llama2.c's
// model .bin (with tokenizer.bin beside it, or the folder holding both).
#pragma once

#include <string>

#include "io/checkpoint.h"

namespace tp::cli {

// options apply to our checkpoints and to imported models alike (allow_non_finite).
LoadedCheckpoint load_model_path(const std::string& path, const LoadOptions& options = {});
// Only the tokenizer: of an imported model, its tokenizer files alone (never the weights).
std::unique_ptr<Tokenizer> load_tokenizer_path(const std::string& path);

}  // namespace tp::cli
