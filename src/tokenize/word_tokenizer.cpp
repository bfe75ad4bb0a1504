// The word tokenizer: white space separates words, every punctuation or symbol character is a
// token of its own, and the vocabulary is either learned (most frequent first) or given exactly
// (the seed's Q&A toy, whose published ids the page reproduces).
//
// Decoding cannot restore the original spacing, so it writes words separated by single spaces
// and glues punctuation to its neighbours by a small fixed table (see docs/TOKENIZERS.md).
#include <algorithm>
#include <unordered_map>

#include "core/error.h"
#include "tokenize/pretokenize.h"
#include "tokenize/tokenizer_internal.h"
#include "tokenize/utf8.h"

namespace tp::detail {
namespace {

std::string fold_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool is_one_of(std::string_view token, std::initializer_list<const char*> set) {
  for (const char* s : set) {
    if (token == s) return true;
  }
  return false;
}

// No space before these: closing brackets, sentence punctuation, and joiners like ' - /.
bool glues_left(std::string_view t) {
  return is_one_of(t, {".",
                       ",",
                       "!",
                       "?",
                       ";",
                       ":",
                       ")",
                       "]",
                       "}",
                       "%",
                       "'",
                       "-",
                       "/",
                       "\xE2\x80\xA6" /* … */,
                       "\xE3\x80\x82" /* 。 */,
                       "\xE3\x80\x81" /* 、 */,
                       "\xEF\xBC\x8C" /* ， */,
                       "\xEF\xBC\x81" /* ！ */,
                       "\xEF\xBC\x9F" /* ？ */,
                       "\xEF\xBC\x89" /* ） */,
                       "\xE3\x80\x8D" /* 」 */,
                       "\xE3\x80\x8F" /* 』 */,
                       "\xE2\x80\x9D" /* ” */,
                       "\xE2\x80\x99" /* ’ */,
                       "\xC2\xBB" /* » */});
}

// No space after these: opening brackets, prefixes like $ and #, and the joiners again.
bool glues_right(std::string_view t) {
  return is_one_of(t, {"(", "[", "{", "'", "-", "/", "$", "#", "@", "\xEF\xBC\x88" /* （ */, "\xE3\x80\x8C" /* 「 */,
                       "\xE3\x80\x8E" /* 『 */, "\xE2\x80\x9C" /* “ */, "\xE2\x80\x98" /* ‘ */, "\xC2\xAB" /* « */});
}

class WordTokenizer final : public Tokenizer {
 public:
  WordTokenizer(std::vector<std::string> words, int num_specials, bool lowercase)
      : Tokenizer(num_specials), words_(std::move(words)), lowercase_(lowercase) {
    for (int id = 0; id < num_specials_; ++id) display_.push_back(special_token_text(id));
    for (std::size_t i = 0; i < words_.size(); ++i) {
      const std::string& w = words_[i];
      const int id = num_specials_ + static_cast<int>(i);
      // Each entry must be something encode can produce, or its id could never appear.
      const std::vector<WordPiece> pieces = split_words(w);
      const bool single = utf8::is_valid(w) && pieces.size() == 1 && pieces[0].bytes.begin == 0 &&
                          pieces[0].bytes.end == static_cast<int>(w.size());
      TP_CHECK(single, "word tokenizer token ", id, " (\"", utf8::visible(w),
               "\") must be one word or one punctuation character: non-empty, valid UTF-8, ",
               "no white space, letters/digits not mixed with punctuation");
      TP_CHECK(!lowercase_ || fold_ascii(w) == w, "word tokenizer token ", id, " (\"", w,
               "\") has upper-case letters, but the tokenizer lowercases its input so it could "
               "never match");
      TP_CHECK(index_.emplace(w, id).second, "word tokenizer vocabulary repeats \"", w, "\" (ids ", index_.at(w),
               " and ", id, ")");
      display_.push_back(utf8::visible(w));
    }
  }

  TokenizerKind kind() const override { return TokenizerKind::Word; }
  int vocab_size() const override { return num_specials_ + static_cast<int>(words_.size()); }

  Encoding encode(std::string_view text) const override {
    TP_CHECK(text.size() < (1u << 31) - 1, "text of ", text.size(), " bytes is too long to encode");
    Encoding enc;
    const std::vector<WordPiece> pieces = split_words(text);
    enc.ids.reserve(pieces.size());
    enc.tokens.reserve(pieces.size());
    enc.byte_spans.reserve(pieces.size());
    std::string key;
    for (const WordPiece& p : pieces) {
      const std::string_view piece = text.substr(p.bytes.begin, p.bytes.end - p.bytes.begin);
      int id = kUnk;
      if (p.kind == WordPiece::Kind::InvalidByte) {
        check_unk(str_cat("byte ", utf8::visible(piece), " at byte offset ", p.bytes.begin, " is not valid UTF-8"));
      } else {
        key = lowercase_ ? fold_ascii(piece) : std::string(piece);
        const auto it = index_.find(key);
        if (it != index_.end()) {
          id = it->second;
        } else {
          check_unk(str_cat(p.kind == WordPiece::Kind::Word ? "word \"" : "punctuation \"", utf8::visible(piece),
                            "\" at byte offset ", p.bytes.begin, " is not in the vocabulary"));
        }
      }
      enc.ids.push_back(id);
      enc.tokens.push_back(display_[id]);
      enc.byte_spans.push_back(p.bytes);
    }
    enc.utf16_spans = utf8::utf16_spans(text, enc.byte_spans);
    return enc;
  }

  std::string decode_bytes(const std::vector<int>& ids) const override {
    std::string out;
    bool glue_next = true;    // nothing before the first token
    bool quote_open = false;  // '"' alternates between opening and closing
    for (int id : ids) {
      check_id(id, vocab_size());
      std::string_view t;
      if (id < num_specials_) {
        if (id != kUnk) continue;
        t = utf8::kReplacementUtf8;
      } else {
        t = words_[id - num_specials_];
      }
      bool left = glues_left(t), right = glues_right(t);
      if (t == "\"") {
        left = quote_open;
        right = !quote_open;
        quote_open = !quote_open;
      }
      if (!glue_next && !left) out += ' ';
      out += t;
      glue_next = right;
    }
    return out;
  }

  std::string token_text(int id) const override {
    check_id(id, vocab_size());
    return display_[id];
  }

  json::Value to_json() const override {
    json::Value v = json_header(TokenizerKind::Word, num_specials_, vocab_size());
    v.set("lowercase", lowercase_);
    json::Value tokens = json::Value::array();
    for (const std::string& w : words_) tokens.push(w);
    v.set("tokens", std::move(tokens));
    return v;
  }

 private:
  void check_unk(const std::string& what) const {
    TP_CHECK(num_specials_ > kUnk, what, " and this tokenizer has no <UNK> token (", vocabulary_preview(*this), ")");
  }

  std::vector<std::string> words_;  // ordinary tokens, id = num_specials + index
  bool lowercase_;
  std::vector<std::string> display_;            // by id, specials included
  std::unordered_map<std::string, int> index_;  // lookup only, never iterated
};

}  // namespace

std::unique_ptr<Tokenizer> train_word_tokenizer(std::string_view text, int num_specials, int max_vocab,
                                                bool lowercase) {
  struct Seen {
    std::string word;
    std::int64_t count;  // first appearance is the index in `seen`
  };
  std::vector<Seen> seen;
  std::unordered_map<std::string, std::size_t> slot;
  for (const WordPiece& p : split_words(text)) {
    if (p.kind == WordPiece::Kind::InvalidByte) continue;  // bytes are not words
    std::string_view piece = text.substr(p.bytes.begin, p.bytes.end - p.bytes.begin);
    std::string key = lowercase ? fold_ascii(piece) : std::string(piece);
    const auto [it, inserted] = slot.emplace(key, seen.size());
    if (inserted) seen.push_back(Seen{std::move(key), 0});
    ++seen[it->second].count;
  }
  // Frequency first; stable_sort keeps first-appearance order among equal counts.
  std::stable_sort(seen.begin(), seen.end(), [](const Seen& a, const Seen& b) { return a.count > b.count; });
  if (max_vocab > 0 && static_cast<int>(seen.size()) > max_vocab - num_specials) {
    seen.resize(max_vocab - num_specials);
  }
  std::vector<std::string> words;
  for (Seen& s : seen) words.push_back(std::move(s.word));
  return std::make_unique<WordTokenizer>(std::move(words), num_specials, lowercase);
}

std::unique_ptr<Tokenizer> make_word_tokenizer(std::vector<std::string> words, int num_specials, bool lowercase) {
  return std::make_unique<WordTokenizer>(std::move(words), num_specials, lowercase);
}

std::unique_ptr<Tokenizer> word_tokenizer_from_json(const json::Value& value) {
  const int num_specials = read_json_header(value, TokenizerKind::Word, {"lowercase", "tokens"});
  const bool lowercase = json_field(value, "lowercase").as_bool("word tokenizer field lowercase");
  std::vector<std::string> words;
  for (const json::Value& t : json_field(value, "tokens").as_array("word tokenizer field tokens")) {
    words.push_back(t.as_string("word tokenizer token"));
  }
  auto tokenizer = std::make_unique<WordTokenizer>(std::move(words), num_specials, lowercase);
  check_json_vocab_size(value, tokenizer->vocab_size());
  return tokenizer;
}

}  // namespace tp::detail
