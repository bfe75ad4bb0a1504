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
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_map>

#include "core/error.h"
#include "core/text_escape.h"
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

// A score in JSON: a number, or for the scores JSON has no number for, "NaN", "Infinity" or
// "-Infinity" (a file imported with allow_non_finite keeps them; the checkpoint must load again).
json::Value score_json(float s) {
  if (std::isnan(s)) return json::Value("NaN");
  if (std::isinf(s)) return json::Value(s > 0 ? "Infinity" : "-Infinity");
  return json::Value(static_cast<double>(s));
}

float score_from_json(const json::Value& v) {
  if (v.is_string()) {
    const std::string& t = v.as_string();
    if (t == "NaN") return std::numeric_limits<float>::quiet_NaN();
    if (t == "Infinity") return std::numeric_limits<float>::infinity();
    if (t == "-Infinity") return -std::numeric_limits<float>::infinity();
    TP_FAIL("sentencepiece score must be a number, \"NaN\", \"Infinity\" or \"-Infinity\", got ", quote(t));
  }
  return static_cast<float>(v.as_number("sentencepiece score"));
}

class SentencePieceTokenizer final : public ImportedTokenizer {
 public:
  explicit SentencePieceTokenizer(SentencePieceVocab vocab) : vocab_(std::move(vocab)) {
    const int V = static_cast<int>(vocab_.pieces.size());
    TP_CHECK(V >= 3, "sentencepiece tokenizer: the vocabulary has ", V,
             " pieces; it needs at least <unk>, <s> and </s>");
    TP_CHECK(vocab_.scores.empty() || static_cast<int>(vocab_.scores.size()) == V,
             "sentencepiece tokenizer: ", vocab_.scores.size(), " scores for ", V, " pieces");
    for (int id = 0; id < V; ++id) {
      TP_CHECK(utf8::is_valid(vocab_.pieces[id]), "sentencepiece tokenizer: piece ", id, " ", quote(vocab_.pieces[id]),
               " is not valid UTF-8");
    }
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
    TP_CHECK(vocab_.scores.empty() || vocab_.merges.empty(), "sentencepiece tokenizer: give scores or a merges list, ",
             "not both");
    if (vocab_.scores.empty()) {  // a merges list (tokenizer.json), which may be empty
      for (std::size_t r = 0; r < vocab_.merges.size(); ++r) {
        const auto& [a, b] = vocab_.merges[r];
        const int left = find(a), right = find(b), merged = find(a + b);
        TP_CHECK(left >= 0 && right >= 0 && merged >= 0, "sentencepiece tokenizer: merge ", r + 1, " ",
                 quote(a + " " + b), " joins pieces that are not in the vocabulary");
        if (!table_.add(left, right, static_cast<int>(r), merged)) {
          TP_FAIL("sentencepiece tokenizer: merge ", r + 1, " ", quote(a + " " + b), " repeats merge ",
                  table_.find(left, right)->rank + 1);
        }
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
    // A space with no ▁ piece falls back to bytes: ▁'s, as SentencePiece spells the normalized
    // text — but in llama2.c's tokenizer.bin, whose pieces hold spaces, the space's own byte, as
    // run.c looks " " up and falls back to <0x20>.
    const std::string_view space_char = vocab_.mark_in_text_is_space ? kSpaceMark : " ";
    // The dummy prefix ▁ covers no input byte; it sits at the start of the first token's span.
    if (vocab_.add_dummy_prefix) push_char(symbols, space_char, space, Span{0, 0});
    for (std::size_t i = 0; i < text.size();) {
      const utf8::Unit u = utf8::decode_at(text, i);
      const Span span{static_cast<int>(i), static_cast<int>(i + u.length)};
      const std::string_view ch = text.substr(i, u.length);
      if (ch == " ") {
        push_char(symbols, space_char, space, span);
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
    // ▁ -> space, also where byte pieces spell it (a space in a vocabulary without ▁) — except in
    // llama2.c's tokenizer.bin (mark_in_text_is_space false), whose pieces hold spaces: there byte
    // pieces spelling ▁ are the character itself, as run.c prints them.
    std::string out, bytes;  // bytes: decoded text still to pass through the rewrite
    const auto flush = [&] {
      out.reserve(out.size() + bytes.size());
      for (std::size_t i = 0; i < bytes.size();) {
        if (bytes.compare(i, 3, kSpaceMark) == 0) {
          out += ' ';
          i += 3;
        } else {
          out += bytes[i++];
        }
      }
      bytes.clear();
    };
    for (int id : ids) {
      check_id(id, vocab_size());
      if (id == vocab_.unk) {
        bytes += utf8::kReplacementUtf8;
      } else if (!is_special(id)) {
        const std::string& p = vocab_.pieces[id];
        const int b = byte_piece_value(p);
        if (b >= 0 && !vocab_.mark_in_text_is_space) {
          flush();
          out += static_cast<char>(b);
        } else if (b >= 0) {
          bytes += static_cast<char>(b);
        } else {
          bytes += p;
        }
      }
    }
    flush();
    if (vocab_.add_dummy_prefix && !out.empty() && out[0] == ' ') out.erase(0, 1);
    return out;
  }

  json::Value to_json() const override {
    json::Value v = json_head();
    v.set("pieces", strings_json(vocab_.pieces));
    if (!vocab_.scores.empty()) {
      json::Value scores = json::Value::array();
      for (float s : vocab_.scores) scores.push(score_json(s));
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
    // Each byte covers its own byte of the input. A character spelled by other bytes than the
    // input's (the ▁ of a space, the dummy prefix) puts its whole span on the first byte piece
    // and empty spans at its end on the rest, so spans never overlap or leave the text.
    const bool own_bytes = static_cast<std::size_t>(span.end - span.begin) == ch.size();
    for (std::size_t k = 0; k < ch.size(); ++k) {
      Span b = own_bytes ? Span{span.begin + static_cast<int>(k), span.begin + static_cast<int>(k) + 1}
                         : (k == 0 ? span : Span{span.end, span.end});
      symbols.push_back(Symbol{byte_id_[static_cast<unsigned char>(ch[k])], b});
    }
  }

  // Every split of every piece into two pieces is a merge, ranked by the whole piece's score
  // (higher first; equal scores share a rank, so the leftmost pair merges first, as llama2.c).
  // Which prefixes and suffixes of a piece are pieces is found by narrowing a range of the pieces
  // sorted forwards (and by their reversed bytes) one byte at a time: O(length · log V) per piece
  // rather than hashing every prefix and suffix (O(length²)), so a file of long pieces costs time
  // in proportion to its size.
  void merges_from_scores() {
    const auto higher = [](float a, float b) { return (!std::isnan(a) && std::isnan(b)) || a > b; };  // NaN last
    std::vector<float> distinct;
    std::vector<int> ids;
    for (const auto& [piece, id] : id_of_) {
      distinct.push_back(vocab_.scores[id]);
      ids.push_back(id);
    }
    std::sort(distinct.begin(), distinct.end(), higher);
    distinct.erase(
        std::unique(distinct.begin(), distinct.end(), [&](float a, float b) { return !higher(a, b) && !higher(b, a); }),
        distinct.end());
    const std::vector<std::string>& pieces = vocab_.pieces;
    const auto at = [&](int id, std::size_t d, bool reversed) {
      const std::string& p = pieces[id];
      if (d >= p.size()) return -1;
      return static_cast<int>(static_cast<unsigned char>(reversed ? p[p.size() - 1 - d] : p[d]));
    };
    std::vector<int> forward = ids, backward = ids;
    std::sort(forward.begin(), forward.end(), [&](int a, int b) { return pieces[a] < pieces[b]; });
    std::sort(backward.begin(), backward.end(), [&](int a, int b) {
      const std::string &x = pieces[a], &y = pieces[b];
      return std::lexicographical_compare(x.rbegin(), x.rend(), y.rbegin(), y.rend(), [](char l, char r) {
        return static_cast<unsigned char>(l) < static_cast<unsigned char>(r);
      });
    });
    // found[k]: the piece that is the first k bytes of `p` (or, reversed, its last k bytes), or -1.
    const auto affixes = [&](const std::string& p, const std::vector<int>& sorted, bool reversed,
                             std::vector<int>& found) {
      found.assign(p.size() + 1, -1);
      auto lo = sorted.begin(), hi = sorted.end();
      for (std::size_t d = 0; d + 1 < p.size() && lo != hi; ++d) {
        const int c = static_cast<unsigned char>(reversed ? p[p.size() - 1 - d] : p[d]);
        lo = std::lower_bound(lo, hi, c, [&](int id, int v) { return at(id, d, reversed) < v; });
        hi = std::upper_bound(lo, hi, c, [&](int v, int id) { return v < at(id, d, reversed); });
        if (lo != hi && pieces[*lo].size() == d + 1) found[d + 1] = *lo;  // the shortest sorts first
      }
    };
    std::vector<int> prefix, suffix;
    for (int id : ids) {
      const std::string& piece = pieces[id];
      if (piece.size() < 2) continue;
      const int rank = static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(), vocab_.scores[id], higher) -
                                        distinct.begin());
      affixes(piece, forward, false, prefix);
      affixes(piece, backward, true, suffix);
      for (std::size_t k = 1; k < piece.size(); ++k) {
        if ((static_cast<unsigned char>(piece[k]) & 0xC0) == 0x80) continue;  // inside a character
        const int left = prefix[k], right = suffix[piece.size() - k];
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
      vocab.scores.push_back(score_from_json(s));
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
