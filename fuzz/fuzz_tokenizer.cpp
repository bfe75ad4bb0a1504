// libFuzzer harness: the four tokenizers trained on fuzzed text, then encoding, decoding of
// fuzzed ids, and the JSON round trip, as tp.tokenizer(options, text) in the bindings and
// `tp tokenize` in the CLI reach them (train_tokenizer, encode, decode, to_json/from_json).
//
// Input: the text, with the options taken from its last bytes (FuzzedDataProvider reads
// integers from the end), so any plain text file is a seed. The tokenizer is trained on the
// text, then encodes it and a fixed mixed-script probe (unknown characters for char and word),
// and decodes the text's bytes read as 16-bit ids. tokenizer_checks.h has the promises checked.
#include <fuzzer/FuzzedDataProvider.h>

#include <string>

#include "fuzz_common.h"
#include "tokenize/tokenizer.h"
#include "tokenizer_checks.h"

namespace {

constexpr std::string_view kProbe =
    "The dog bites the man. 개가 사람을 문다. e\xCC\x81 \xF0\x9F\x98\x80! \xFF\xC3 12,5%";

tp::TokenizerOptions options_from(FuzzedDataProvider& in) {
  tp::TokenizerOptions o;
  o.kind = static_cast<tp::TokenizerKind>(in.ConsumeIntegralInRange<int>(0, 3));
  o.num_specials = in.ConsumeIntegralInRange<int>(3, tp::kAllSpecials);
  const int v = in.ConsumeIntegral<std::uint8_t>();
  switch (o.kind) {
    case tp::TokenizerKind::Char:
    case tp::TokenizerKind::Word:
      o.vocab_size = v < 128 ? 0 : o.num_specials + (v - 127);  // no limit, or a cap of 1..128
      o.lowercase = o.kind == tp::TokenizerKind::Word && in.ConsumeBool();
      break;
    case tp::TokenizerKind::Bpe:
      o.vocab_size = o.num_specials + 256 + v;
      break;
    case tp::TokenizerKind::Byte:
      o.vocab_size = 0;
      break;
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const tp::TokenizerOptions options = options_from(in);
  const std::string text = in.ConsumeRemainingBytesAsString();
  tp::fuzz::run([&] {
    const auto tok = tp::train_tokenizer(options, text);
    FUZZ_EXPECT(tok->kind() == options.kind && tok->num_specials() == options.num_specials);
    tp::fuzz::check_encode(*tok, text);
    tp::fuzz::check_encode(*tok, kProbe);
    tp::fuzz::check_decode(*tok, tp::fuzz::ids_from_bytes(text, tok->vocab_size()));
    tp::fuzz::check_token_texts(*tok);
    tp::fuzz::check_json_round_trip(*tok, text);
  });
  return 0;
}
