// SentencePiece-style BPE with byte fallback, for imported Llama-family and llama2.c models.
//
// Encoding, as SentencePiece (and Hugging Face's Llama tokenizer, and llama2.c) do it: the text
// gets a leading space (the "dummy prefix"), every space becomes ▁ (U+2581), each character
// becomes its piece — or, when the vocabulary has no such piece, one <0xNN> piece per UTF-8 byte
// — and adjacent pieces merge: in the order of an explicit merges list (tokenizer.json) when
// there is one, otherwise by the score of the merged piece, highest first (tokenizer.bin; SentencePiece's
// own order), leftmost first among equals (ranked_merges.h). Decoding joins the pieces, turns ▁
// back into spaces and byte pieces into their bytes, and drops the dummy prefix's space, so
// decode(encode(t)) == t for every valid UTF-8 text. A ▁ in the text itself is a space too, except
// for llama2.c's tokenizer.bin (mark_in_text_is_space false): its run.c looks the character up
// among pieces written with spaces, finds none and falls back to its three bytes. <unk>, <s> and </s> are the specials
// (<UNK>, <SOS>, <EOS>); they are never produced from text.
#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "core/error.h"
#include "tokenize/ranked_merges.h"
#include "tokenize/tokenizer_internal.h"
#include "tokenize/utf8.h"

namespace tp {
namespace detail {
namespace {

constexpr const char* kSpaceMark = "\xE2\x96\x81";  // ▁

// "<0x0A>" -> 10, anything else -> -1.
int byte_piece_value(const std::string& piece) {
  if (piece.size() != 6 || piece.compare(0, 3, "<0x") != 0 || piece[5] != '>') return -1;
  int v = 0;
  for (int i = 3; i < 5; ++i) {
    const char c = piece[i];
    const int d = c >= '0' && c <= '9' ? c - '0' : (c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

class SentencePieceTokenizer final : public ImportedTokenizer {
 public:
  explicit SentencePieceTokenizer(SentencePieceVocab vocab) : vocab_(std::move(vocab)) {
    const int V = static_cast<int>(vocab_.pieces.size());
    TP_CHECK(V >= 3, "sentencepiece tokenizer: the vocabulary has ", V,
             " pieces; it needs at least <unk>, <s> and </s>");
    TP_CHECK(vocab_.scores.empty() || static_cast<int>(vocab_.scores.size()) == V,
             "sentencepiece tokenizer: ", vocab_.scores.size(), " scores for ", V, " pieces");
    for (int id : {vocab_.unk, vocab_.bos, vocab_.eos}) {
      TP_CHECK(id >= -1 && id < V, "sentencepiece tokenizer: special id ", id, " is outside the vocabulary (0..", V - 1,
               ")");
    }
    std::fill(std::begin(byte_id_), std::end(byte_id_), -1);
    for (int id = 0; id < V; ++id) {
      if (is_special(id)) continue;
      const std::string& p = vocab_.pieces[id];
      const int b = byte_piece_value(p);
      if (b >= 0) {
        byte_id_[b] = id;
      } else {
        id_of_.emplace(p, id);  // the first id of a repeated piece wins, as in SentencePiece
      }
    }
    if (!vocab_.merges.empty()) {
      for (std::size_t r = 0; r < vocab_.merges.size(); ++r) {
        const auto& [a, b] = vocab_.merges[r];
        const int left = find(a), right = find(b), merged = find(a + b);
        TP_CHECK(left >= 0 && right >= 0 && merged >= 0, "sentencepiece tokenizer: merge ", r + 1, " '", a, " ", b,
                 "' joins pieces that are not in the vocabulary");
        table_.add(left, right, static_cast<int>(r), merged);
      }
    } else {
      merges_from_scores();
    }
    display_.resize(V);
    for (int id = 0; id < V; ++id) display_[id] = vocab_.pieces[id];
  }

  TokenizerKind kind() const override { return TokenizerKind::SentencePiece; }
  int vocab_size() const override { return static_cast<int>(vocab_.pieces.size()); }
  SpecialTokens specials() const override {
    SpecialTokens s;
    s.unk = vocab_.unk;
    s.sos = vocab_.bos;
    s.eos = vocab_.eos;
    return s;
  }

  Encoding encode(std::string_view text) const override {
    TP_CHECK(text.size() < (1u << 31) - 1, "text of ", text.size(), " bytes is too long to encode");
    Encoding enc;
    if (text.empty()) return enc;
    std::vector<Symbol> symbols;
    const int space = find(kSpaceMark);
    // The dummy prefix ▁ covers no input byte; it sits at the start of the first token's span.
    if (vocab_.add_dummy_prefix) push_char(symbols, kSpaceMark, space, Span{0, 0});
    for (std::size_t i = 0; i < text.size();) {
      const utf8::Unit u = utf8::decode_at(text, i);
      const Span span{static_cast<int>(i), static_cast<int>(i + u.length)};
      const std::string_view ch = text.substr(i, u.length);
      if (ch == " ") {
        push_char(symbols, kSpaceMark, space, span);
      } else if (ch == kSpaceMark && !vocab_.mark_in_text_is_space) {
        push_char(symbols, ch, -1, span);  // its bytes, as run.c finds no piece for it
      } else {
        push_char(symbols, ch, u.valid ? find(std::string(ch)) : -1, span);
      }
      i += u.length;
    }
    apply_merges(symbols, table_);
    for (const Symbol& s : symbols) {
      enc.ids.push_back(s.id);
      enc.tokens.push_back(display_[s.id]);
      enc.byte_spans.push_back(s.span);
    }
    enc.utf16_spans = utf8::utf16_spans(text, enc.byte_spans);
    return enc;
  }

  std::string decode_bytes(const std::vector<int>& ids) const override {
    std::string out;
    for (int id : ids) {
      check_id(id, vocab_size());
      if (id == vocab_.unk) {
        out += utf8::kReplacementUtf8;
      } else if (!is_special(id)) {
        const std::string& p = vocab_.pieces[id];
        const int b = byte_piece_value(p);
        if (b >= 0) {
          out += static_cast<char>(b);
        } else {
          for (std::size_t i = 0; i < p.size();) {  // ▁ -> space
            if (p.compare(i, 3, kSpaceMark) == 0) {
              out += ' ';
              i += 3;
            } else {
              out += p[i++];
            }
          }
        }
      }
    }
    if (vocab_.add_dummy_prefix && !out.empty() && out[0] == ' ') out.erase(0, 1);
    return out;
  }

  json::Value to_json() const override {
    json::Value v = json_head();
    v.set("pieces", strings_json(vocab_.pieces));
    if (vocab_.merges.empty()) {
      json::Value scores = json::Value::array();
      for (float s : vocab_.scores) scores.push(static_cast<double>(s));
      v.set("scores", std::move(scores));
    } else {
      v.set("merges", merges_json(vocab_.merges));
    }
    v.set("unk", vocab_.unk);
    v.set("bos", vocab_.bos);
    v.set("eos", vocab_.eos);
    v.set("add_dummy_prefix", vocab_.add_dummy_prefix);
    if (!vocab_.mark_in_text_is_space) v.set("mark_in_text_is_space", false);
    template_to_json(specials_template(), v);
    return v;
  }

 private:
  bool is_special(int id) const { return id == vocab_.unk || id == vocab_.bos || id == vocab_.eos; }
  int find(const std::string& piece) const {
    const auto it = id_of_.find(piece);
    return it == id_of_.end() ? -1 : it->second;
  }

  // One character: its piece, else its bytes' <0xNN> pieces, else <unk>.
  void push_char(std::vector<Symbol>& symbols, std::string_view ch, int id, Span span) const {
    if (id >= 0) {
      symbols.push_back(Symbol{id, span});
      return;
    }
    bool all = true;
    for (char c : ch) all = all && byte_id_[static_cast<unsigned char>(c)] >= 0;
    if (!all) {
      TP_CHECK(vocab_.unk >= 0, "sentencepiece tokenizer: the text has a character with neither a piece, byte ",
               "pieces nor <unk>");
      symbols.push_back(Symbol{vocab_.unk, span});
      return;
    }
    for (std::size_t k = 0; k < ch.size(); ++k) {
      // Each byte covers its own byte of the input; the prefix (empty span) stays empty.
      const int begin = span.begin == span.end ? span.begin : span.begin + static_cast<int>(k);
      const int end = span.begin == span.end ? span.end : begin + 1;
      symbols.push_back(Symbol{byte_id_[static_cast<unsigned char>(ch[k])], Span{begin, end}});
    }
  }

  // Every split of every piece into two pieces is a merge, ranked by the whole piece's score
  // (higher first; equal scores share a rank, so the leftmost pair merges first, as llama2.c).
  void merges_from_scores() {
    TP_CHECK(!vocab_.scores.empty(), "sentencepiece tokenizer: needs scores or a merges list");
    std::vector<float> distinct;
    for (const auto& [piece, id] : id_of_) distinct.push_back(vocab_.scores[id]);
    std::sort(distinct.begin(), distinct.end(), std::greater<float>());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (const auto& [piece, id] : id_of_) {
      const int rank = static_cast<int>(
          std::lower_bound(distinct.begin(), distinct.end(), vocab_.scores[id], std::greater<float>()) -
          distinct.begin());
      for (std::size_t k = 1; k < piece.size(); ++k) {
        if ((static_cast<unsigned char>(piece[k]) & 0xC0) == 0x80) continue;  // inside a character
        const int left = find(piece.substr(0, k)), right = find(piece.substr(k));
        if (left >= 0 && right >= 0) table_.add(left, right, rank, id);
      }
    }
  }

  SentencePieceVocab vocab_;
  std::unordered_map<std::string, int> id_of_;  // ordinary pieces (not specials, not <0xNN>)
  int byte_id_[256];
  MergeTable table_;
};

}  // namespace

std::unique_ptr<Tokenizer> sentencepiece_tokenizer_from_json(const json::Value& value) {
  check_json_keys(value, "sentencepiece",
                  {"kind", "vocab_size", "pieces", "scores", "merges", "unk", "bos", "eos", "add_dummy_prefix",
                   "template", "mark_in_text_is_space"});
  SentencePieceVocab vocab;
  vocab.pieces = strings_from_json(value, "pieces", "sentencepiece");
  if (value.find("merges") != nullptr) {
    vocab.merges = merges_from_json(value, "merges", "sentencepiece");
  } else {
    for (const json::Value& s : json_field(value, "scores").as_array("sentencepiece tokenizer field scores")) {
      vocab.scores.push_back(static_cast<float>(s.as_number("sentencepiece score")));
    }
  }
  vocab.unk = static_cast<int>(json_field(value, "unk").as_int("sentencepiece tokenizer field unk"));
  vocab.bos = static_cast<int>(json_field(value, "bos").as_int("sentencepiece tokenizer field bos"));
  vocab.eos = static_cast<int>(json_field(value, "eos").as_int("sentencepiece tokenizer field eos"));
  vocab.add_dummy_prefix =
      json_field(value, "add_dummy_prefix").as_bool("sentencepiece tokenizer field add_dummy_prefix");
  if (const json::Value* mark = value.find("mark_in_text_is_space")) {
    vocab.mark_in_text_is_space = mark->as_bool("sentencepiece tokenizer field mark_in_text_is_space");
  }
  auto tokenizer = make_sentencepiece_tokenizer(std::move(vocab));
  check_json_vocab_size(value, tokenizer->vocab_size());
  tokenizer->set_specials_template(template_from_json(value));
  return tokenizer;
}

}  // namespace detail

std::unique_ptr<Tokenizer> make_sentencepiece_tokenizer(SentencePieceVocab vocab) {
  return std::make_unique<detail::SentencePieceTokenizer>(std::move(vocab));
}

}  // namespace tp
