// libFuzzer harness: a fuzzed tokenizer.json beside the GPT-2 fixture's config.json (vocab_size
// 317), through import_tokenizer — the reader of `tp tokenize --model DIR` and
// tp.importTokenizer, and the tokenizer half of import_model.
//
// A refused file is fine. An accepted tokenizer keeps the promises of import_checks.h.
#include "import_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string config = tp::fuzz::fixture("gpt2/config.json");
  tp::fuzz::run([&] {
    const auto tok = tp::import_tokenizer({{"config.json", config}, {"tokenizer.json", tp::fuzz::as_text(data, size)}});
    FUZZ_EXPECT(tok->kind() == tp::TokenizerKind::Gpt2 && tok->vocab_size() == 317);
    tp::fuzz::check_imported_tokenizer(*tok);
  });
  return 0;
}
