// What `--model PATH` names: one of our checkpoints (a .safetensors file with our metadata), a
// Hugging Face-style folder (config.json, model.safetensors, tokenizer files), or llama2.c's
// model .bin (with tokenizer.bin beside it, or the folder holding both).
#pragma once

#include <string>

#include "io/checkpoint.h"

namespace tp::cli {

// options apply to our checkpoints (an imported model's weights are checked by its importer).
LoadedCheckpoint load_model_path(const std::string& path, const LoadOptions& options = {});

}  // namespace tp::cli
