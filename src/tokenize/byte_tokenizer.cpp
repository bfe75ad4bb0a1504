// The byte-level tokenizer (ByT5-style): id = num_specials + byte value, nothing learned.
//
// It is the baseline the page compares the others against: every text, valid UTF-8 or not,
// encodes and decodes exactly, at the cost of one token per byte (three per Hangul syllable).
#include "core/error.h"
#include "tokenize/tokenizer_internal.h"
#include "tokenize/utf8.h"

namespace tp::detail {
namespace {

class ByteTokenizer final : public Tokenizer {
 public:
  explicit ByteTokenizer(int num_specials) : Tokenizer(num_specials) {
    // Precomputed because encode emits one display string per byte of the input.
    for (int id = 0; id < vocab_size(); ++id) {
      if (id < num_specials_) {
        display_.push_back(special_token_text(id));
      } else {
        const char byte = static_cast<char>(id - num_specials_);
        display_.push_back(utf8::visible(std::string_view(&byte, 1)));  // non-ASCII as <0xNN>
      }
    }
  }

  TokenizerKind kind() const override { return TokenizerKind::Byte; }
  int vocab_size() const override { return num_specials_ + 256; }

  Encoding encode(std::string_view text) const override {
    TP_CHECK(text.size() < (1u << 31) - 1, "text of ", text.size(), " bytes is too long to encode");
    Encoding enc;
    enc.ids.reserve(text.size());
    enc.tokens.reserve(text.size());
    enc.byte_spans.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
      const int id = num_specials_ + static_cast<unsigned char>(text[i]);
      enc.ids.push_back(id);
      enc.tokens.push_back(display_[id]);
      enc.byte_spans.push_back(Span{static_cast<int>(i), static_cast<int>(i + 1)});
    }
    enc.utf16_spans = utf8::utf16_spans(text, enc.byte_spans);
    return enc;
  }

  std::string decode_bytes(const std::vector<int>& ids) const override {
    return decode_ids(ids, vocab_size(), num_specials_,
                      [&](std::string& out, int id) { out += static_cast<char>(id - num_specials_); });
  }

  std::string token_text(int id) const override {
    check_id(id, vocab_size());
    return display_[id];
  }

  json::Value to_json() const override { return json_header(TokenizerKind::Byte, num_specials_, vocab_size()); }

 private:
  std::vector<std::string> display_;  // by id
};

}  // namespace

std::unique_ptr<Tokenizer> make_byte_tokenizer(int num_specials) {
  check_num_specials(num_specials);
  return std::make_unique<ByteTokenizer>(num_specials);
}

std::unique_ptr<Tokenizer> byte_tokenizer_from_json(const json::Value& value) {
  const int num_specials = read_json_header(value, TokenizerKind::Byte, {});
  auto tokenizer = make_byte_tokenizer(num_specials);
  check_json_vocab_size(value, tokenizer->vocab_size());
  return tokenizer;
}

}  // namespace tp::detail
