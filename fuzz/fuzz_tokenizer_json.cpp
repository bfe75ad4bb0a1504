// libFuzzer harness: Tokenizer::from_json on fuzzed JSON, the way a checkpoint's 'tokenizer'
// metadata reaches it (json::parse, then from_json; load_checkpoint and so `tp generate`,
// `tp inspect` and tp.loadModel(bytes) all read it so).
//
// A refused tokenizer is fine. An accepted one is then used as a loaded model's tokenizer is:
// every token's display text (`tp inspect`), encoding a mixed-script probe, decoding ids made
// from the input bytes, and writing it back to JSON; tokenizer_checks.h has the promises.
#include <string>

#include "core/json.h"
#include "fuzz_common.h"
#include "tokenize/tokenizer.h"
#include "tokenizer_checks.h"

namespace {
constexpr std::string_view kProbes[] = {
    "how are you", "The dog bites the man. 개가 사람을 문다.",
    "e\xCC\x81 \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9 \xF0\x9F\x98\x80!\t12,5%\n",
    "\xFF\xC3\x28 \xED\xA0\x80 \xF4\x90\x80\x80",  // invalid UTF-8: a stray byte, a cut sequence, a surrogate, >
                                                   // U+10FFFF
};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = tp::fuzz::as_text(data, size);
  tp::fuzz::run([&] {
    const auto tok = tp::Tokenizer::from_json(tp::json::parse(bytes));
    FUZZ_EXPECT(tok->num_specials() >= 3 && tok->num_specials() <= tp::kAllSpecials);
    tp::fuzz::check_token_texts(*tok);
    for (std::string_view probe : kProbes) {
      tp::fuzz::check_encode(*tok, probe);
      tp::fuzz::check_json_round_trip(*tok, probe);
    }
    tp::fuzz::check_decode(*tok, tp::fuzz::ids_from_bytes(bytes, tok->vocab_size()));
  });
  return 0;
}
