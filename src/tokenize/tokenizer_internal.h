// What the tokenizer implementation files share and the public header need not show: the
// per-kind constructors behind train_tokenizer / from_json, id checks, error texts and JSON
// field helpers. Only src/tokenize/*.cpp include it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json.h"
#include "tokenize/tokenizer.h"

namespace tp::detail {

constexpr int kMaxPreviewTokens = 20;
constexpr int kMaxBpeVocab = 65536;

void check_num_specials(int num_specials);
[[noreturn]] void fail_id_out_of_range(int id, int vocab_size);
inline void check_id(int id, int vocab_size) {
  if (id < 0 || id >= vocab_size) fail_id_out_of_range(id, vocab_size);
}
// decode's handling of a special id: <UNK> appends U+FFFD, the others append nothing.
void append_special(std::string& out, int id);

// The decode loop the char, byte and BPE tokenizers share: every id is checked, specials go
// through append_special, and append_piece(out, id) appends the bytes of an ordinary token.
template <typename AppendPiece>
std::string decode_ids(const std::vector<int>& ids, int vocab_size, int num_specials, AppendPiece append_piece) {
  std::string out;
  out.reserve(ids.size());
  for (int id : ids) {
    check_id(id, vocab_size);
    if (id < num_specials) {
      append_special(out, id);
    } else {
      append_piece(out, id);
    }
  }
  return out;
}

// "<SOS> <EOS> <PAD> am fine ..." — the first tokens, for "not in the vocabulary" errors.
std::string vocabulary_preview(const Tokenizer& tokenizer);

// JSON: every tokenizer object has "kind", "num_specials" and "vocab_size"; the rest is per kind.
json::Value json_header(TokenizerKind kind, int num_specials, int vocab_size);
// Checks the object has only `allowed` keys (plus the header's) and returns num_specials.
int read_json_header(const json::Value& value, TokenizerKind kind, std::initializer_list<const char*> allowed);
const json::Value& json_field(const json::Value& value, const char* key);
void check_json_vocab_size(const json::Value& value, int actual);
// The specials template as JSON ({"before": [...], "after": [...]}) into v's "template" field
// when it is not empty, and back from that field (empty when absent): the imported kinds'
// to_json / from_json (set_specials_template checks the ids).
void template_to_json(const SpecialsTemplate& t, json::Value& v);
SpecialsTemplate template_from_json(const json::Value& v);

// Per-kind constructors. max_vocab == 0 means "no limit" for char and word.
std::unique_ptr<Tokenizer> train_char_tokenizer(std::string_view text, int num_specials, int max_vocab);
std::unique_ptr<Tokenizer> char_tokenizer_from_json(const json::Value& value);

std::unique_ptr<Tokenizer> train_word_tokenizer(std::string_view text, int num_specials, int max_vocab, bool lowercase);
std::unique_ptr<Tokenizer> make_word_tokenizer(std::vector<std::string> words, int num_specials, bool lowercase);
std::unique_ptr<Tokenizer> word_tokenizer_from_json(const json::Value& value);

using BpeMerge = std::pair<int, int>;  // (left id, right id); merge i makes id specials+256+i
std::vector<BpeMerge> learn_bpe_merges(std::string_view text, int num_specials, int num_merges);
std::unique_ptr<Tokenizer> make_bpe_tokenizer(std::vector<BpeMerge> merges, int num_specials);
std::unique_ptr<Tokenizer> bpe_tokenizer_from_json(const json::Value& value);

// What the imported kinds (gpt2, sentencepiece) share: their specials sit wherever their
// vocabulary puts them (num_specials 0), a display string per id, decode_continuation as
// decode(context + ids) past decode(context), and the JSON of their string lists and merges.
class ImportedTokenizer : public Tokenizer {
 public:
  std::string token_text(int id) const override {
    check_id(id, vocab_size());
    return display_[id];
  }

 protected:
  ImportedTokenizer() : Tokenizer(0) {}
  // decode_bytes(context + ids) past decode_bytes(context): bytes and a leading-space convention
  // may straddle the boundary.
  std::string continuation_bytes(const std::vector<int>& context, const std::vector<int>& ids,
                                 std::string& before) const override;
  json::Value json_head() const;  // {"kind", "vocab_size"}
  std::vector<std::string> display_;
};
using Merges = std::vector<std::pair<std::string, std::string>>;
json::Value strings_json(const std::vector<std::string>& items);
json::Value merges_json(const Merges& merges);  // ["a b", ...]
std::vector<std::string> strings_from_json(const json::Value& value, const char* key, const char* kind);
Merges merges_from_json(const json::Value& value, const char* key, const char* kind);
// Only `allowed` keys.
void check_json_keys(const json::Value& value, const char* kind, std::initializer_list<const char*> allowed);
// "a b" -> {"a", "b"} (tp::Error naming `what` otherwise).
std::pair<std::string, std::string> split_merge(std::string_view merge, const char* what);
std::unique_ptr<Tokenizer> gpt2_tokenizer_from_json(const json::Value& value);
std::unique_ptr<Tokenizer> sentencepiece_tokenizer_from_json(const json::Value& value);

std::unique_ptr<Tokenizer> make_byte_tokenizer(int num_specials);
std::unique_ptr<Tokenizer> byte_tokenizer_from_json(const json::Value& value);

}  // namespace tp::detail
