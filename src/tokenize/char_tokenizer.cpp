// The character tokenizer: one token per Unicode code point of the training text.
//
// The vocabulary is sorted by code point (as nanoGPT's sorted(set(text))), so it does not depend
// on where characters first appear. A character outside it, and every byte of ill-formed UTF-8,
// becomes <UNK> when the tokenizer has one; without <UNK> encode throws, naming the character.
#include <algorithm>
#include <array>
#include <unordered_map>

#include "core/error.h"
#include "tokenize/tokenizer_internal.h"
#include "tokenize/utf8.h"

namespace tp::detail {
namespace {

std::string code_point_label(std::uint32_t cp) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string hex;
  for (int shift = cp > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4) hex += kHex[(cp >> shift) & 15];
  std::string text;
  utf8::append(text, cp);
  return str_cat("'", utf8::visible(text), "' (U+", hex, ")");
}

class CharTokenizer final : public Tokenizer {
 public:
  CharTokenizer(std::vector<std::uint32_t> code_points, int num_specials)
      : Tokenizer(num_specials), code_points_(std::move(code_points)) {
    ascii_.fill(-1);
    for (int id = 0; id < num_specials_; ++id) display_.push_back(special_token_text(id));
    for (std::size_t i = 0; i < code_points_.size(); ++i) {
      const std::uint32_t cp = code_points_[i];
      const int id = num_specials_ + static_cast<int>(i);
      TP_CHECK(cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF), "char tokenizer token ", id,
               " is not a Unicode scalar value");
      TP_CHECK(index_.emplace(cp, id).second, "char tokenizer vocabulary repeats the character ", code_point_label(cp),
               " (ids ", index_.at(cp), " and ", id, ")");
      if (cp < 128) ascii_[cp] = id;
      std::string text;
      utf8::append(text, cp);
      display_.push_back(utf8::visible(text));
      texts_.push_back(std::move(text));
    }
  }

  TokenizerKind kind() const override { return TokenizerKind::Char; }
  int vocab_size() const override { return num_specials_ + static_cast<int>(code_points_.size()); }

  Encoding encode(std::string_view text) const override {
    TP_CHECK(text.size() < (1u << 31) - 1, "text of ", text.size(), " bytes is too long to encode");
    Encoding enc;
    enc.ids.reserve(text.size());
    enc.byte_spans.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
      const utf8::Unit u = utf8::decode_at(text, pos);
      const int begin = static_cast<int>(pos);
      pos += u.length;
      if (!u.valid) {
        for (int b = begin; b < begin + u.length; ++b) {
          check_unk(str_cat("byte 0x", byte_hex(text[b]), " at byte offset ", b, " is not valid UTF-8"));
          enc.ids.push_back(kUnk);
          enc.byte_spans.push_back(Span{b, b + 1});
        }
        continue;
      }
      int id = u.code_point < 128 ? ascii_[u.code_point] : -1;
      if (id < 0 && u.code_point >= 128) {
        const auto it = index_.find(u.code_point);
        if (it != index_.end()) id = it->second;
      }
      if (id < 0) {
        check_unk(str_cat("character ", code_point_label(u.code_point), " at byte offset ", begin,
                          " is not in the vocabulary"));
        id = kUnk;
      }
      enc.ids.push_back(id);
      enc.byte_spans.push_back(Span{begin, static_cast<int>(pos)});
    }
    enc.tokens.reserve(enc.ids.size());
    for (int id : enc.ids) enc.tokens.push_back(display_[id]);
    enc.utf16_spans = utf8::utf16_spans(text, enc.byte_spans);
    return enc;
  }

  std::string decode_bytes(const std::vector<int>& ids) const override {
    return decode_ids(ids, vocab_size(), num_specials_,
                      [&](std::string& out, int id) { out += texts_[id - num_specials_]; });
  }

  std::string token_text(int id) const override {
    check_id(id, vocab_size());
    return display_[id];
  }

  json::Value to_json() const override {
    json::Value v = json_header(TokenizerKind::Char, num_specials_, vocab_size());
    json::Value tokens = json::Value::array();
    for (const std::string& t : texts_) tokens.push(t);
    v.set("tokens", std::move(tokens));
    return v;
  }

 private:
  static std::string byte_hex(char c) {
    static const char* const kHex = "0123456789ABCDEF";
    const auto b = static_cast<unsigned char>(c);
    return std::string{kHex[b >> 4], kHex[b & 15]};
  }

  void check_unk(const std::string& what) const {
    TP_CHECK(num_specials_ > kUnk, what, " and this tokenizer has no <UNK> token (", vocabulary_preview(*this), ")");
  }

  std::vector<std::uint32_t> code_points_;        // ordinary tokens, id = num_specials + index
  std::vector<std::string> texts_;                // their UTF-8
  std::vector<std::string> display_;              // by id, specials included
  std::unordered_map<std::uint32_t, int> index_;  // lookup only, never iterated
  std::array<int, 128> ascii_{};                  // fast path for the common case
};

}  // namespace

std::unique_ptr<Tokenizer> train_char_tokenizer(std::string_view text, int num_specials, int max_vocab) {
  struct Seen {
    std::uint32_t cp;
    std::int64_t count;
    std::size_t first;
  };
  std::vector<Seen> seen;
  std::unordered_map<std::uint32_t, std::size_t> slot;
  for (std::size_t pos = 0; pos < text.size();) {
    const utf8::Unit u = utf8::decode_at(text, pos);
    if (u.valid) {  // ill-formed bytes are not characters and never join the vocabulary
      const auto [it, inserted] = slot.emplace(u.code_point, seen.size());
      if (inserted) seen.push_back(Seen{u.code_point, 0, pos});
      ++seen[it->second].count;
    }
    pos += u.length;
  }
  if (max_vocab > 0 && static_cast<int>(seen.size()) > max_vocab - num_specials) {
    // Keep the most frequent; equal counts keep the earlier first appearance.
    std::stable_sort(seen.begin(), seen.end(), [](const Seen& a, const Seen& b) { return a.count > b.count; });
    seen.resize(max_vocab - num_specials);
  }
  std::vector<std::uint32_t> code_points;
  for (const Seen& s : seen) code_points.push_back(s.cp);
  std::sort(code_points.begin(), code_points.end());
  return std::make_unique<CharTokenizer>(std::move(code_points), num_specials);
}

std::unique_ptr<Tokenizer> char_tokenizer_from_json(const json::Value& value) {
  const int num_specials = read_json_header(value, TokenizerKind::Char, {"tokens"});
  const auto& tokens = json_field(value, "tokens").as_array("char tokenizer field tokens");
  std::vector<std::uint32_t> code_points;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i].as_string("char tokenizer token");
    const bool one_char =
        !t.empty() && utf8::decode_at(t, 0).valid && static_cast<std::size_t>(utf8::decode_at(t, 0).length) == t.size();
    TP_CHECK(one_char, "char tokenizer token ", num_specials + i, " must be exactly one character, got \"",
             utf8::visible(t), "\"");
    code_points.push_back(utf8::decode_at(t, 0).code_point);
  }
  auto tokenizer = std::make_unique<CharTokenizer>(std::move(code_points), num_specials);
  check_json_vocab_size(value, tokenizer->vocab_size());
  return tokenizer;
}

}  // namespace tp::detail
