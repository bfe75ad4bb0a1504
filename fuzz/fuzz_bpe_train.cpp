// libFuzzer harness: BPE training (train_tokenizer with kind bpe) on fuzzed text and any target
// vocabulary size, the way `tp train --task text --tokenizer bpe --vocab-size N` and
// tp.task({ text }, { kind: 'bpe', vocab_size }) reach it.
//
// Input: the text, with the vocabulary size taken from its last bytes (any value from just below
// the smallest allowed size to just above the largest, so both limits are tried), so any plain
// text file is a seed. A trained tokenizer must respect the size it was given, be the same
// when trained twice, round-trip the text byte for byte, and keep every promise in
// tokenizer_checks.h.
#include <fuzzer/FuzzedDataProvider.h>

#include <string>

#include "fuzz_common.h"
#include "tokenize/tokenizer.h"
#include "tokenizer_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  tp::TokenizerOptions options;
  options.kind = tp::TokenizerKind::Bpe;
  options.num_specials = in.ConsumeBool() ? tp::kAllSpecials : 3;
  // From two below the smallest allowed size (specials + 256 bytes) to past the largest (65536).
  options.vocab_size = options.num_specials + 256 - 2 + in.ConsumeIntegral<std::uint16_t>();
  const std::string text = in.ConsumeRemainingBytesAsString();
  tp::fuzz::run([&] {
    const auto tok = tp::train_tokenizer(options, text);
    FUZZ_EXPECT(tok->vocab_size() >= options.num_specials + 256 && tok->vocab_size() <= options.vocab_size);
    const auto twice = tp::train_tokenizer(options, text);
    FUZZ_EXPECT(twice->to_json().dump() == tok->to_json().dump());
    tp::fuzz::check_encode(*tok, text);
    tp::fuzz::check_json_round_trip(*tok, text);
  });
  return 0;
}
