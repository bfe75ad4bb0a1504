// UTF-8 decoding and encoding with WHATWG error handling, shared by the tokenizers (which must
// accept arbitrary bytes) and the JSON parser (which must reject invalid ones).
//
// Decoding never fails: an ill-formed sequence becomes an invalid "unit" made of its maximal
// subpart, exactly as the WHATWG decoder (and so a browser's TextDecoder) would turn it into one
// U+FFFD, which keeps the UTF-16 offsets we report in step with the string JavaScript sees.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

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

// True if every byte belongs to a well-formed character (no overlongs, surrogates or values
// above U+10FFFF).
bool is_valid(std::string_view text);

// `bytes` as well-formed UTF-8: each maximal ill-formed subpart replaced by one U+FFFD — the
// string a browser's `new TextDecoder().decode(bytes)` gives (fatal: false).
std::string well_formed(std::string_view bytes);

// The same conversion for bytes that arrive in pieces (a token at a time), as TextDecoder's
// decode(piece, { stream: true }) does it: a character cut off at the end of a piece is held back
// until the next piece completes it (or shows it never will), and finish() turns what is still
// held into U+FFFD. The concatenated outputs equal well_formed() of the concatenated input.
class StreamDecoder {
 public:
  std::string feed(std::string_view piece);
  std::string finish();

 private:
  std::string held_;  // the start of a character still to be completed (at most 3 bytes)
};

}  // namespace tp::utf8
