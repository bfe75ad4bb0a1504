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

}  // namespace tp::utf8
