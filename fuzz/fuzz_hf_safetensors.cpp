// libFuzzer harness: a fuzzed model.safetensors (F32, F16 or BF16 tensors) with a fixture's
// config.json and tokenizer.json, through import_model — GPT-2's when the header names
// wte.weight, Llama's otherwise.
//
// A refused file is fine (weights that are not finite are refused unless the options allow
// them; odd-sized inputs allow them). An accepted model has the config's parameter count and
// saves a checkpoint that loads again with the same logits (import_checks.h).
#include "import_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string gpt2_config = tp::fuzz::fixture("gpt2/config.json");
  static const std::string gpt2_tokenizer = tp::fuzz::fixture("gpt2/tokenizer.json");
  static const std::string llama_config = tp::fuzz::fixture("llama/config.json");
  static const std::string llama_tokenizer = tp::fuzz::fixture("llama/tokenizer.json");
  const std::string_view weights = tp::fuzz::as_text(data, size);
  const bool gpt2 = weights.find("wte.weight") != std::string_view::npos;
  const tp::LoadOptions options = tp::fuzz::options_for(size);
  tp::fuzz::run([&] {
    tp::LoadedCheckpoint loaded = tp::import_model({{"config.json", gpt2 ? gpt2_config : llama_config},
                                                    {"tokenizer.json", gpt2 ? gpt2_tokenizer : llama_tokenizer},
                                                    {"model.safetensors", weights}},
                                                   options);
    FUZZ_EXPECT(static_cast<std::int64_t>(loaded.model->params().numel()) == loaded.model->config().parameter_count());
    tp::fuzz::check_saves_and_loads(loaded, options);
  });
  return 0;
}
