// libFuzzer harness: a fuzzed llama2.c model .bin (header and float32 weights) with the fixture's
// tokenizer.bin, through import_model — what `tp generate --model model.bin` reads.
//
// A refused file is fine (a header the model cannot hold, a size the header does not imply,
// weights that are not finite unless odd-sized inputs allow them). An accepted model saves a
// checkpoint that loads again with the same logits (import_checks.h).
#include "import_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string tokenizer = tp::fuzz::fixture("llama2c/tokenizer.bin");
  const tp::LoadOptions options = tp::fuzz::options_for(size);
  tp::fuzz::run([&] {
    tp::LoadedCheckpoint loaded =
        tp::import_model({{"model.bin", tp::fuzz::as_text(data, size)}, {"tokenizer.bin", tokenizer}}, options);
    tp::fuzz::check_saves_and_loads(loaded, options);
  });
  return 0;
}
