// libFuzzer harness: a fuzzed llama2.c tokenizer.bin alone, through import_tokenizer (`tp tokenize
// --model tokenizer.bin`): pieces, their scores (merges derived from them) and lengths.
//
// A refused file is fine (scores that are not finite are refused unless odd-sized inputs allow
// them). An accepted tokenizer keeps the promises of import_checks.h, NaN scores included.
#include "import_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tp::fuzz::run([&] {
    const auto tok =
        tp::import_tokenizer({{"tokenizer.bin", tp::fuzz::as_text(data, size)}}, tp::fuzz::options_for(size));
    tp::fuzz::check_imported_tokenizer(*tok);
  });
  return 0;
}
