// libFuzzer harness: checkpoint bytes (a safetensors file) through load_checkpoint, the one
// reader behind `tp generate --model`, `tp inspect` and tp.loadModel(bytes) on the page.
//
// A refused file is fine. An accepted one is used the way those commands use it: the config,
// every parameter and every token's display text (`tp inspect`); generation from a short prompt
// with the KV cache, without it and with beam search (`tp generate`); and saving it again, which
// must give a file that loads and saves to the very same bytes, so a model never degrades by
// passing through the product. Weights may be any float bits (NaN, infinities), as in a
// corrupted file: the default load must refuse exactly those files, and loaded anyway
// (LoadOptions::allow_non_finite, as `tp inspect --allow-non-finite true` does) generation on
// them must still be well defined.
#include <cmath>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "generate/generator.h"
#include "io/checkpoint.h"
#include "tokenizer_checks.h"

namespace {

void check_inspect(const tp::LoadedCheckpoint& loaded) {
  const tp::Transformer& model = *loaded.model;
  (void)model.config().to_json().dump();
  FUZZ_EXPECT(static_cast<std::int64_t>(model.params().numel()) == model.config().parameter_count());
  if (loaded.tokenizer) {
    FUZZ_EXPECT(loaded.tokenizer->vocab_size() == model.config().vocab_size);
    tp::fuzz::check_token_texts(*loaded.tokenizer);
  }
}

void check_generate(tp::LoadedCheckpoint& loaded) {
  tp::Transformer& model = *loaded.model;
  if (!model.config().has_decoder()) return;
  const tp::Tokenizer* tok = loaded.tokenizer.get();
  std::vector<int> prompt = {tp::kSos};
  if (tok) {
    try {
      prompt = tok->encode("how are you").ids;
    } catch (const tp::InternalError&) {
      throw;
    } catch (const tp::Error&) {
      // a tokenizer without <UNK> that does not know these characters: keep <SOS>
    }
    if (prompt.empty()) prompt = {tp::kSos};
  }
  tp::GenerateOptions greedy;
  greedy.max_new_tokens = 3;
  greedy.top_k_probs = 3;
  greedy.specials = tok ? tok->specials() : tp::default_specials();
  tp::GenerateOptions sampled = greedy;
  sampled.kv_cache = false;
  sampled.sampling.temperature = 0.8f;
  sampled.sampling.top_k = 5;
  sampled.sampling.top_p = 0.9f;
  sampled.seed = 7;
  tp::GenerateOptions beam = greedy;
  beam.beam = 2;
  for (const tp::GenerateOptions& options : {greedy, sampled, beam}) {
    tp::GenerateResult result;
    try {
      result = tp::generate(model, prompt, options);
    } catch (const tp::InternalError&) {
      throw;
    } catch (const tp::Error&) {
      continue;  // e.g. a prompt longer than this model's max_len
    }
    for (int id : result.ids) FUZZ_EXPECT(id >= 0 && id < model.config().vocab_size);
    if (tok) (void)tok->decode(result.ids);
  }
}

tp::LoadOptions allowing_non_finite() {
  tp::LoadOptions options;
  options.allow_non_finite = true;
  return options;
}

bool all_finite(const tp::ParameterSet& params) {
  for (int i = 0; i < params.count(); ++i) {
    for (std::size_t k = 0; k < params.info(i).size; ++k) {
      if (!std::isfinite(params.value(i)[k])) return false;
    }
  }
  return true;
}

// The default options refuse the file exactly when its weights are not all finite.
void check_default_load(std::string_view bytes, const tp::LoadedCheckpoint& loaded) {
  bool refused = false;
  try {
    (void)tp::load_checkpoint(bytes);
  } catch (const tp::InternalError&) {
    throw;
  } catch (const tp::Error&) {
    refused = true;
  }
  FUZZ_EXPECT(refused == !all_finite(loaded.model->params()));
}

void check_save_round_trip(const tp::LoadedCheckpoint& loaded) {
  const std::string saved = tp::save_checkpoint(*loaded.model, loaded.tokenizer.get(), loaded.task);
  tp::LoadedCheckpoint again;
  try {
    again = tp::load_checkpoint(saved, allowing_non_finite());
  } catch (const tp::Error& e) {
    tp::fuzz::finding("a loaded checkpoint, saved again, does not load", e.what());
  }
  FUZZ_EXPECT(tp::save_checkpoint(*again.model, again.tokenizer.get(), again.task) == saved);
  // The writer keeps only the keys it knows, so a saved file has nothing to warn about but its weights.
  FUZZ_EXPECT(again.warnings.size() == (all_finite(again.model->params()) ? 0u : 1u));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tp::fuzz::run([&] {
    const std::string_view bytes = tp::fuzz::as_text(data, size);
    tp::LoadedCheckpoint loaded = tp::load_checkpoint(bytes, allowing_non_finite());
    check_default_load(bytes, loaded);
    check_inspect(loaded);
    check_save_round_trip(loaded);
    check_generate(loaded);
  });
  return 0;
}
