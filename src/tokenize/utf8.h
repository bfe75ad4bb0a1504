// UTF-8 decoding, UTF-16 offsets and code-point classes shared by the four tokenizers.
//
// Every tokenizer must accept arbitrary bytes, so decoding never fails: an ill-formed sequence
// becomes an invalid "unit" made of its maximal subpart, exactly as the WHATWG decoder (and so a
// browser's TextDecoder) would turn it into one U+FFFD. That keeps the UTF-16 offsets we report
// in step with the string JavaScript sees for the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tokenize/tokenizer.h"

namespace tp::utf8 {

constexpr std::uint32_t kReplacement = 0xFFFD;
constexpr const char* kReplacementUtf8 = "\xEF\xBF\xBD";

// One decoded character, or one maximal ill-formed subpart (valid == false, code_point U+FFFD).
struct Unit {
  std::uint32_t code_point = 0;
  int length = 1;  // bytes, 1..4
  bool valid = true;
  int utf16_length() const { return valid && code_point >= 0x10000 ? 2 : 1; }
};

// Decodes the unit starting at byte `pos` (pos < text.size()).
Unit decode_at(std::string_view text, std::size_t pos);

// Appends the UTF-8 encoding of a Unicode scalar value.
void append(std::string& out, std::uint32_t code_point);

// Number of UTF-16 code units JavaScript would see for these bytes (after TextDecoder).
std::size_t utf16_length(std::string_view text);

// UTF-16 spans for byte spans that are ordered and non-overlapping (every tokenizer's output).
// A span that starts or ends inside a unit is widened to the whole unit, so every byte of a
// multi-byte character maps to all the character's code units.
std::vector<Span> utf16_spans(std::string_view text, const std::vector<Span>& byte_spans);

// Coarse Unicode classes, enough to split text into words and punctuation without ICU tables.
enum class CharClass {
  Space,     // ASCII and Unicode white space
  Letter,    // letters, and by default any other non-ASCII character (Hangul, CJK, ...)
  Digit,     // ASCII 0-9
  Punct,     // ASCII punctuation, common Unicode punctuation, symbols and emoji
  Extender,  // combining marks, ZWJ, variation selectors, skin-tone modifiers, tags
};
CharClass classify(std::uint32_t code_point);
inline bool is_zwj(std::uint32_t code_point) {
  return code_point == 0x200D;
}

// Display form for a chip: ' ' -> "▁", "\n" "\t" "\r" as backslash escapes, other control
// characters and bytes that are not valid UTF-8 as "<0xNN>"; everything else as is.
std::string visible(std::string_view bytes);

}  // namespace tp::utf8
