// What the import files share: finding files, the per-format readers. Internal to src/import.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/json.h"
#include "import/import.h"
#include "io/safetensors.h"
#include "tokenize/tokenizer.h"

namespace tp::import {

// The file called `name`, or null.
const ModelFile* find_file(const std::vector<ModelFile>& files, std::string_view name);
// The file called `name`, or a tp::Error saying which format needs it.
const ModelFile& require_file(const std::vector<ModelFile>& files, std::string_view name, const char* why);
bool ends_with(const std::string& s, const char* suffix);

// Hugging Face: config.json -> ModelConfig (hf_config.cpp), model.safetensors -> parameters
// (hf_weights.cpp), tokenizer.json or vocab.json + merges.txt -> tokenizer (hf_tokenizer.cpp).
enum class HfFamily { Gpt2, Llama };
struct HfModel {
  HfFamily family = HfFamily::Gpt2;
  ModelConfig config;
  int bos_id = -1, eos_id = -1;  // config.json's, when it names them
};
HfModel read_hf_config(std::string_view config_json);

// model.safetensors checked against the config before anything is allocated: the header (read
// with a limit on its tensors), every tensor's name, dtype and shape, that nothing is left over,
// and that the values are finite (options.allow_non_finite: a warning instead). copy_hf_weights
// then only copies, into a model built from the same config.
struct WeightSource {
  const SafetensorsEntry* entry = nullptr;
  int op = 0;    // hf_weights.cpp's Op
  int part = 0;  // which of q, k, v for a slice of GPT-2's c_attn
};
struct HfWeights {
  std::vector<ParamInfo> layout;          // Transformer::parameter_layout(config)
  std::unique_ptr<SafetensorsView> view;  // held on the heap: sources point into it
  std::vector<WeightSource> sources;      // by parameter index
};
HfWeights check_hf_weights(const HfModel& model, std::string_view safetensors, const LoadOptions& options,
                           std::vector<std::string>& warnings);
void copy_hf_weights(const HfModel& model, const HfWeights& weights, Transformer& out);
std::unique_ptr<Tokenizer> read_hf_tokenizer(const HfModel& model, const std::vector<ModelFile>& files);

// llama2.c (llama2c.cpp).
ModelConfig read_llama2c_config(std::string_view bin);
LoadedCheckpoint read_llama2c(std::string_view bin, std::string_view tokenizer_bin, const LoadOptions& options);
// vocab_size < 0: as many tokens as the file holds. Scores that are not finite are refused unless
// options.allow_non_finite (then noted in `warnings`).
std::unique_ptr<Tokenizer> read_llama2c_tokenizer(std::string_view bytes, int vocab_size, const LoadOptions& options,
                                                  std::vector<std::string>& warnings);

}  // namespace tp::import
