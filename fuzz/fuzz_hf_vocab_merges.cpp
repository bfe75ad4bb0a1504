// libFuzzer harness: GPT-2's original tokenizer files, vocab.json and merges.txt, beside the GPT-2
// fixture's config.json. The input is both files: vocab.json, a line "=====", then merges.txt
// (no separator: all of it is vocab.json and merges.txt is empty).
//
// A refused pair is fine. An accepted tokenizer keeps the promises of import_checks.h.
#include "import_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string config = tp::fuzz::fixture("gpt2/config.json");
  const std::string_view input = tp::fuzz::as_text(data, size);
  const std::size_t cut = input.find("\n=====\n");
  const std::string_view vocab = input.substr(0, cut);
  const std::string_view merges = cut == std::string_view::npos ? std::string_view() : input.substr(cut + 7);
  tp::fuzz::run([&] {
    const auto tok = tp::import_tokenizer({{"config.json", config}, {"vocab.json", vocab}, {"merges.txt", merges}});
    FUZZ_EXPECT(tok->kind() == tp::TokenizerKind::Gpt2);
    tp::fuzz::check_imported_tokenizer(*tok);
  });
  return 0;
}
