// UTF-16 offsets and code-point classes shared by the four tokenizers, on top of the UTF-8 codec
// in core/utf8.h (whose decoding never fails, so every tokenizer accepts arbitrary bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/utf8.h"
#include "tokenize/tokenizer.h"

namespace tp::utf8 {

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
inline bool is_zwj(std::uint32_t code_point) { return code_point == 0x200D; }

// Display form for a chip: ' ' -> "▁", "\n" "\t" "\r" as backslash escapes, other control
// characters and bytes that are not valid UTF-8 as "<0xNN>"; everything else as is.
std::string visible(std::string_view bytes);

}  // namespace tp::utf8
