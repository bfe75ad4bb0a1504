// What the import files share: finding files, the per-format readers. Internal to src/import.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/json.h"
#include "import/import.h"
#include "tokenize/tokenizer.h"

namespace tp::import {

// The file called `name`, or null.
const ModelFile* find_file(const std::vector<ModelFile>& files, std::string_view name);
// The file called `name`, or a tp::Error saying which format needs it.
const ModelFile& require_file(const std::vector<ModelFile>& files, std::string_view name, const char* why);

// Hugging Face: config.json -> ModelConfig (hf_config.cpp), model.safetensors -> parameters
// (hf_weights.cpp), tokenizer.json or vocab.json + merges.txt -> tokenizer (hf_tokenizer.cpp).
enum class HfFamily { Gpt2, Llama };
struct HfModel {
  HfFamily family = HfFamily::Gpt2;
  ModelConfig config;
  int bos_id = -1, eos_id = -1;  // config.json's, when it names them
};
HfModel read_hf_config(std::string_view config_json);
void copy_hf_weights(const HfModel& model, std::string_view safetensors, Transformer& out);
std::unique_ptr<Tokenizer> read_hf_tokenizer(const HfModel& model, const std::vector<ModelFile>& files);

// llama2.c (llama2c.cpp).
ModelConfig read_llama2c_config(std::string_view bin);
LoadedCheckpoint read_llama2c(std::string_view bin, std::string_view tokenizer_bin);
// vocab_size < 0: as many tokens as the file holds.
std::unique_ptr<Tokenizer> read_llama2c_tokenizer(std::string_view bytes, int vocab_size);

}  // namespace tp::import
