// libFuzzer harness: a fuzzed tokenizer.json beside the Llama fixture's config.json (vocab_size
// 354): SentencePiece BPE with byte fallback, through import_tokenizer.
//
// A refused file is fine. An accepted tokenizer keeps the promises of import_checks.h: spans in
// order and inside the text whatever the vocabulary lacks (▁ included), decode back to the text.
#include "import_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string config = tp::fuzz::fixture("llama/config.json");
  tp::fuzz::run([&] {
    const auto tok = tp::import_tokenizer({{"config.json", config}, {"tokenizer.json", tp::fuzz::as_text(data, size)}});
    FUZZ_EXPECT(tok->kind() == tp::TokenizerKind::SentencePiece && tok->vocab_size() == 354);
    tp::fuzz::check_imported_tokenizer(*tok);
  });
  return 0;
}
