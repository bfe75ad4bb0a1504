// GPT-2's byte-level BPE, for imported GPT-2-family models.
//
// Text is split into chunks by GPT-2's pattern (gpt2_pretokenize.h); each chunk's UTF-8 bytes
// start as one symbol per byte, and the merges of merges.txt apply by rank (ranked_merges.h).
// The vocabulary (vocab.json) writes each token's bytes through GPT-2's byte-to-unicode map — the
// 188 printable Latin-1 bytes stand for themselves, the other 68 become U+0100.. in byte order —
// so a token's bytes are the inverse map of its text. Every text encodes (every byte is a base
// symbol) and decodes back exactly. The one special token is the end-of-text token
// (<|endoftext|>, GPT-2's end and start of a document), known by its id; it is reported as
// <EOS> and is never produced from text.
#include <unordered_map>

#include "core/error.h"
#include "core/text_escape.h"
#include "tokenize/gpt2_pretokenize.h"
#include "tokenize/ranked_merges.h"
#include "tokenize/tokenizer_internal.h"
#include "tokenize/utf8.h"

namespace tp {
namespace detail {
namespace {

// byte -> the code point GPT-2 writes it as.
std::vector<std::uint32_t> byte_to_unicode() {
  std::vector<std::uint32_t> map(256, 0);
  std::vector<bool> printable(256, false);
  for (int b = '!'; b <= '~'; ++b) printable[b] = true;
  for (int b = 0xA1; b <= 0xAC; ++b) printable[b] = true;
  for (int b = 0xAE; b <= 0xFF; ++b) printable[b] = true;
  std::uint32_t next = 256;
  for (int b = 0; b < 256; ++b) map[b] = printable[b] ? static_cast<std::uint32_t>(b) : next++;
  return map;
}

class Gpt2Tokenizer final : public ImportedTokenizer {
 public:
  explicit Gpt2Tokenizer(Gpt2Vocab vocab) : vocab_(std::move(vocab)) {
    const int V = static_cast<int>(vocab_.tokens.size());
    TP_CHECK(V >= 256, "gpt2 tokenizer: the vocabulary has ", V, " tokens; it needs at least the 256 byte tokens");
    TP_CHECK(vocab_.eos >= -1 && vocab_.eos < V, "gpt2 tokenizer: the end-of-text id ", vocab_.eos,
             " is outside the vocabulary (0..", V - 1, ")");
    TP_CHECK(vocab_.merges.size() <= static_cast<std::size_t>(V), "gpt2 tokenizer: ", vocab_.merges.size(),
             " merges for ", V, " tokens; each merge makes a token, so there can be at most ", V);
    eos_ = vocab_.eos;
    std::unordered_map<std::uint32_t, int> unicode_to_byte;
    const std::vector<std::uint32_t> map = byte_to_unicode();
    for (int b = 0; b < 256; ++b) unicode_to_byte[map[b]] = b;
    std::unordered_map<std::string, int> id_of;
    bytes_.resize(V);
    for (int id = 0; id < V; ++id) {
      const std::string& text = vocab_.tokens[id];
      TP_CHECK(id_of.emplace(text, id).second, "gpt2 tokenizer: token ", quote(text), " appears twice (ids ",
               id_of[text], " and ", id, ")");
      if (id == eos_) continue;  // the special: its text is a name, not bytes
      std::string bytes;
      for (std::size_t i = 0; i < text.size();) {
        const utf8::Unit u = utf8::decode_at(text, i);
        const auto it = unicode_to_byte.find(u.code_point);
        TP_CHECK(u.valid && it != unicode_to_byte.end(), "gpt2 tokenizer: token ", id, " ", quote(text),
                 " has a character outside GPT-2's byte-to-unicode map");
        bytes += static_cast<char>(it->second);
        i += u.length;
      }
      bytes_[id] = std::move(bytes);
    }
    for (int b = 0; b < 256; ++b) {
      std::string one;
      utf8::append(one, map[b]);
      const auto it = id_of.find(one);
      TP_CHECK(it != id_of.end(), "gpt2 tokenizer: the vocabulary lacks the token of byte ", b, " (", quote(one), ")");
      TP_CHECK(it->second != eos_, "gpt2 tokenizer: the end-of-text id ", eos_, " is the token of byte ", b, " (",
               quote(one), "); every byte needs its own ordinary token");
      byte_id_[b] = it->second;
    }
    for (std::size_t r = 0; r < vocab_.merges.size(); ++r) {
      const auto& [a, b] = vocab_.merges[r];
      const auto left = id_of.find(a), right = id_of.find(b), merged = id_of.find(a + b);
      TP_CHECK(left != id_of.end() && right != id_of.end() && merged != id_of.end() && left->second != eos_ &&
                   right->second != eos_ && merged->second != eos_,
               "gpt2 tokenizer: merge ", r + 1, " ", quote(a + " " + b),
               " joins tokens that are not ordinary tokens of the vocabulary");
      if (!table_.add(left->second, right->second, static_cast<int>(r), merged->second)) {
        TP_FAIL("gpt2 tokenizer: merge ", r + 1, " ", quote(a + " " + b), " repeats merge ",
                table_.find(left->second, right->second)->rank + 1);
      }
    }
    display_.resize(V);
    for (int id = 0; id < V; ++id) display_[id] = id == eos_ ? vocab_.tokens[id] : utf8::visible(bytes_[id]);
  }

  TokenizerKind kind() const override { return TokenizerKind::Gpt2; }
  int vocab_size() const override { return static_cast<int>(vocab_.tokens.size()); }
  SpecialTokens specials() const override {
    SpecialTokens s;
    s.eos = eos_;
    return s;
  }

  Encoding encode(std::string_view text) const override {
    TP_CHECK(text.size() < (1u << 31) - 1, "text of ", text.size(), " bytes is too long to encode");
    Encoding enc;
    std::unordered_map<std::string_view, std::vector<int>> cache;  // texts repeat their words
    std::vector<Symbol> symbols;
    for (const Span& c : gpt2_chunks(text)) {
      const std::string_view chunk = text.substr(c.begin, c.end - c.begin);
      auto it = cache.find(chunk);
      if (it == cache.end()) {
        symbols.clear();
        for (int i = c.begin; i < c.end; ++i) {
          symbols.push_back(Symbol{byte_id_[static_cast<unsigned char>(text[i])], Span{i, i + 1}});
        }
        apply_merges(symbols, table_);
        std::vector<int> ids;
        for (const Symbol& s : symbols) ids.push_back(s.id);
        it = cache.emplace(chunk, std::move(ids)).first;
      }
      int pos = c.begin;
      for (int id : it->second) {
        const int end = pos + static_cast<int>(bytes_[id].size());
        enc.ids.push_back(id);
        enc.tokens.push_back(display_[id]);
        enc.byte_spans.push_back(Span{pos, end});
        pos = end;
      }
    }
    enc.utf16_spans = utf8::utf16_spans(text, enc.byte_spans);
    return enc;
  }

  std::string decode_bytes(const std::vector<int>& ids) const override {
    std::string out;
    for (int id : ids) {
      check_id(id, vocab_size());
      out += bytes_[id];  // empty for the end-of-text token
    }
    return out;
  }

  json::Value to_json() const override {
    json::Value v = json_head();
    v.set("tokens", strings_json(vocab_.tokens));
    v.set("merges", merges_json(vocab_.merges));
    v.set("eos", eos_);
    template_to_json(specials_template(), v);
    return v;
  }

 private:
  Gpt2Vocab vocab_;
  MergeTable table_;
  int byte_id_[256] = {};
  int eos_ = -1;
  std::vector<std::string> bytes_;  // by id (empty for the end-of-text token)
};

}  // namespace

std::unique_ptr<Tokenizer> gpt2_tokenizer_from_json(const json::Value& value) {
  check_json_keys(value, "gpt2", {"kind", "vocab_size", "tokens", "merges", "eos", "eos_token", "template"});
  Gpt2Vocab vocab;
  vocab.tokens = strings_from_json(value, "tokens", "gpt2");
  vocab.merges = merges_from_json(value, "merges", "gpt2");
  if (const json::Value* eos = value.find("eos")) {
    const std::int64_t id = eos->as_int("gpt2 tokenizer field eos");
    TP_CHECK(id >= -1 && id < static_cast<std::int64_t>(vocab.tokens.size()), "gpt2 tokenizer field eos = ", id,
             " is outside the vocabulary (-1 for none, or 0..", vocab.tokens.size() - 1, ")");
    vocab.eos = static_cast<int>(id);
  } else {  // files written before the id was stored name the token by its text
    const std::string& text = json_field(value, "eos_token").as_string("gpt2 tokenizer field eos_token");
    for (std::size_t i = 0; i < vocab.tokens.size() && vocab.eos < 0; ++i) {
      if (vocab.tokens[i] == text) vocab.eos = static_cast<int>(i);
    }
  }
  auto tokenizer = make_gpt2_tokenizer(std::move(vocab));
  check_json_vocab_size(value, tokenizer->vocab_size());
  tokenizer->set_specials_template(template_from_json(value));
  return tokenizer;
}

}  // namespace detail

std::unique_ptr<Tokenizer> make_gpt2_tokenizer(Gpt2Vocab vocab) {
  return std::make_unique<detail::Gpt2Tokenizer>(std::move(vocab));
}

}  // namespace tp
