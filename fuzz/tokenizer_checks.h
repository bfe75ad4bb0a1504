// The promises of docs/TOKENIZERS.md as checks, for the three tokenizer harnesses.
//
// Whatever text a tokenizer encodes, the ids are in its vocabulary and never a special other
// than <UNK>; the byte spans tile the input (char, byte, BPE) or cover words in order (word);
// the UTF-16 spans stay inside the string JavaScript sees; byte and BPE decode back to the exact
// bytes, char does when nothing was unknown; and a tokenizer read back from its own JSON is the
// same tokenizer. A broken promise is a finding (FUZZ_EXPECT aborts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/utf8.h"
#include "fuzz_common.h"
#include "tokenize/tokenizer.h"

namespace tp::fuzz {

// UTF-16 code units of `text` after TextDecoder (an invalid subpart is one U+FFFD).
inline std::size_t utf16_units(std::string_view text) {
  std::size_t units = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const utf8::Unit unit = utf8::decode_at(text, pos);
    units += static_cast<std::size_t>(unit.utf16_length());
    pos += static_cast<std::size_t>(unit.length);
  }
  return units;
}

// The promises of the imported kinds (gpt2, sentencepiece); see import_checks.h.
inline void check_imported_encoding(const Tokenizer& tok, std::string_view text, const Encoding& e) {
  const std::size_t n = e.ids.size();
  FUZZ_EXPECT(e.tokens.size() == n && e.byte_spans.size() == n && e.utf16_spans.size() == n);
  const SpecialTokens specials = tok.specials();
  int end = 0, covered = 0, utf16_begin = 0;
  const int units = static_cast<int>(utf16_units(text));
  bool unknown = false;
  for (std::size_t i = 0; i < n; ++i) {
    const int id = e.ids[i];
    FUZZ_EXPECT(tok.has_token(id));
    FUZZ_EXPECT(id != specials.sos && id != specials.eos);
    unknown |= id == specials.unk;
    const Span b = e.byte_spans[i], u = e.utf16_spans[i];
    FUZZ_EXPECT(b.begin >= end && b.begin <= b.end && b.end <= static_cast<int>(text.size()));
    covered += b.end - b.begin;
    end = b.end;
    FUZZ_EXPECT(u.begin >= utf16_begin && u.begin <= u.end && u.end <= units);
    utf16_begin = u.begin;
    FUZZ_EXPECT(e.tokens[i] == tok.token_text(id));
  }
  FUZZ_EXPECT(covered == static_cast<int>(text.size()));
  const bool space_mark = text.find("\xE2\x96\x81") != std::string_view::npos;
  if (utf8::is_valid(text) && !space_mark && !unknown) FUZZ_EXPECT(tok.decode(e.ids) == text);
  if (tok.kind() == TokenizerKind::Gpt2)
    FUZZ_EXPECT(tok.decode(e.ids) == utf8::well_formed(text));  // every byte has a token
}

inline void check_encoding(const Tokenizer& tok, std::string_view text, const Encoding& e) {
  const std::size_t n = e.ids.size();
  FUZZ_EXPECT(e.tokens.size() == n && e.byte_spans.size() == n && e.utf16_spans.size() == n);
  const TokenizerKind kind = tok.kind();
  const bool tiles = kind != TokenizerKind::Word;
  const bool has_unk = tok.num_specials() > kUnk && (kind == TokenizerKind::Char || kind == TokenizerKind::Word);
  const int size = static_cast<int>(text.size());
  const int units = static_cast<int>(utf16_units(text));
  bool any_unk = false;
  int byte_end = 0, utf16_begin = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int id = e.ids[i];
    FUZZ_EXPECT(tok.has_token(id));
    FUZZ_EXPECT(id >= tok.num_specials() || (has_unk && id == kUnk));
    any_unk |= id == kUnk;
    const Span b = e.byte_spans[i], u = e.utf16_spans[i];
    FUZZ_EXPECT(b.begin < b.end && b.end <= size);
    FUZZ_EXPECT(tiles ? b.begin == byte_end : b.begin >= byte_end);
    byte_end = b.end;
    FUZZ_EXPECT(u.begin < u.end && u.end <= units && u.begin >= utf16_begin);
    utf16_begin = u.begin;
    const std::string shown = tok.token_text(id);
    FUZZ_EXPECT(e.tokens[i] == shown || (kind == TokenizerKind::Bpe && e.tokens[i] == "##" + shown));
    if (tiles && id != kUnk) {
      // Decoded text is well-formed UTF-8: bytes that form no character read as U+FFFD.
      FUZZ_EXPECT(tok.decode({id}) == utf8::well_formed(text.substr(static_cast<std::size_t>(b.begin),
                                                                    static_cast<std::size_t>(b.end - b.begin))));
    }
  }
  if (tiles) FUZZ_EXPECT(byte_end == size);
  const bool exact =
      kind == TokenizerKind::Byte || kind == TokenizerKind::Bpe || (kind == TokenizerKind::Char && !any_unk);
  if (exact) FUZZ_EXPECT(tok.decode(e.ids) == utf8::well_formed(text));
}

// Encodes `text` and checks the result. A tokenizer without <UNK> may refuse unknown text.
inline void check_encode(const Tokenizer& tok, std::string_view text) {
  Encoding e;
  try {
    e = tok.encode(text);
  } catch (const InternalError&) {
    throw;
  } catch (const Error&) {
    // Only a char or word tokenizer without <UNK>, or a SentencePiece one without <unk>, may
    // meet a character it cannot spell.
    FUZZ_EXPECT(
        (tok.num_specials() <= kUnk && (tok.kind() == TokenizerKind::Char || tok.kind() == TokenizerKind::Word)) ||
        (tok.kind() == TokenizerKind::SentencePiece && tok.specials().unk < 0));
    return;
  }
  if (is_imported_kind(tok.kind())) {
    check_imported_encoding(tok, text, e);
    return;
  }
  check_encoding(tok, text, e);
}

// decode() of arbitrary ids: a tp::Error exactly when some id is outside [0, vocab_size).
inline void check_decode(const Tokenizer& tok, const std::vector<int>& ids) {
  bool in_range = true;
  for (int id : ids) in_range &= tok.has_token(id);
  bool refused = false;
  try {
    (void)tok.decode(ids);
  } catch (const InternalError&) {
    throw;
  } catch (const Error&) {
    refused = true;
  }
  FUZZ_EXPECT(refused == !in_range);
}

// Every id has a display text (for small vocabularies), and the first id past the end is refused.
inline void check_token_texts(const Tokenizer& tok) {
  constexpr int kMaxChecked = 4096;
  for (int id = 0; id < tok.vocab_size() && id < kMaxChecked; ++id) (void)tok.token_text(id);
  bool refused = false;
  try {
    (void)tok.token_text(tok.vocab_size());
  } catch (const InternalError&) {
    throw;
  } catch (const Error&) {
    refused = true;
  }
  FUZZ_EXPECT(refused);
}

// from_json(to_json()) is the same tokenizer: the same JSON and the same ids for `text`.
inline void check_json_round_trip(const Tokenizer& tok, std::string_view text) {
  const std::string written = tok.to_json().dump();
  std::unique_ptr<Tokenizer> again;
  try {
    again = Tokenizer::from_json(json::parse(written));
  } catch (const Error& e) {
    finding("a tokenizer does not read back from its own JSON", e.what());
  }
  FUZZ_EXPECT(again->kind() == tok.kind() && again->vocab_size() == tok.vocab_size() &&
              again->num_specials() == tok.num_specials());
  FUZZ_EXPECT(again->to_json().dump() == written);
  std::vector<int> ids, ids_again;
  try {
    ids = tok.encode(text).ids;
  } catch (const InternalError&) {
    throw;
  } catch (const Error&) {
    return;  // refused unknown text (no <UNK>); check_encode has judged that already
  }
  ids_again = again->encode(text).ids;
  FUZZ_EXPECT(ids == ids_again);
}

// Fuzz bytes as token ids: little-endian 16-bit values, signed, so that negative ids and ids
// past any vocabulary turn up as well as ordinary ones.
inline std::vector<int> ids_from_bytes(std::string_view bytes, int vocab_size) {
  std::vector<int> ids;
  for (std::size_t i = 0; i + 1 < bytes.size(); i += 2) {
    const int raw =
        static_cast<std::int16_t>(static_cast<std::uint8_t>(bytes[i]) | static_cast<std::uint8_t>(bytes[i + 1]) << 8);
    ids.push_back(raw % (vocab_size + 4));  // mostly in range, sometimes just past it or negative
  }
  return ids;
}

}  // namespace tp::fuzz
