// UTF-16 span mapping and code-point classes; see utf8.h. The class tables are hand-picked ranges rather than full
// Unicode data so the wasm module stays small; they only decide where words and BPE chunks split, never whether text
// can be encoded.
#include "tokenize/utf8.h"

#include "core/error.h"

namespace tp::utf8 {

std::size_t utf16_length(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const Unit u = decode_at(text, pos);
    n += u.utf16_length();
    pos += u.length;
  }
  return n;
}

std::vector<Span> utf16_spans(std::string_view text, const std::vector<Span>& byte_spans) {
  std::vector<Span> out;
  out.reserve(byte_spans.size());
  // The cursor is one unit: bytes [unit_begin, unit_end), code units [u16_begin, u16_end).
  // Spans arrive in order, so it only moves forward and the whole pass is linear.
  std::size_t unit_begin = 0, unit_end = 0;
  int u16_begin = 0, u16_end = 0;
  const auto advance_to = [&](std::size_t byte) {
    while (unit_end <= byte) {
      unit_begin = unit_end;
      u16_begin = u16_end;
      const Unit u = decode_at(text, unit_begin);
      unit_end = unit_begin + u.length;
      u16_end = u16_begin + u.utf16_length();
    }
  };
  for (const Span& s : byte_spans) {
    TP_ASSERT(s.begin >= 0 && s.begin <= s.end && static_cast<std::size_t>(s.end) <= text.size());
    if (s.begin == s.end) {  // never produced by a tokenizer; kept well-defined anyway
      int at = 0;
      if (s.begin > 0) {
        advance_to(s.begin - 1);
        at = static_cast<std::size_t>(s.begin) == unit_end ? u16_end : u16_begin;
      }
      out.push_back(Span{at, at});
      continue;
    }
    advance_to(s.begin);
    const int begin = u16_begin;
    advance_to(s.end - 1);
    out.push_back(Span{begin, u16_end});
  }
  return out;
}

namespace {
bool in(std::uint32_t cp, std::uint32_t lo, std::uint32_t hi) { return cp >= lo && cp <= hi; }
}  // namespace

CharClass classify(std::uint32_t cp) {
  if (cp < 0x80) {
    if (cp == ' ' || in(cp, 0x09, 0x0D)) return CharClass::Space;
    if (in(cp, '0', '9')) return CharClass::Digit;
    if (in(cp, 'a', 'z') || in(cp, 'A', 'Z')) return CharClass::Letter;
    return CharClass::Punct;  // punctuation, symbols and the remaining control characters
  }
  if (cp == 0x85 || cp == 0xA0 || cp == 0x1680 || in(cp, 0x2000, 0x200A) || cp == 0x2028 || cp == 0x2029 ||
      cp == 0x202F || cp == 0x205F || cp == 0x3000) {
    return CharClass::Space;
  }
  // Extenders first: some (skin tones, ZWJ) sit inside the symbol ranges below.
  if (in(cp, 0x0300, 0x036F) || in(cp, 0x1AB0, 0x1AFF) || in(cp, 0x1DC0, 0x1DFF) || in(cp, 0x200C, 0x200D) ||
      in(cp, 0x20D0, 0x20FF) || in(cp, 0x3099, 0x309A) || in(cp, 0xFE00, 0xFE0F) || in(cp, 0xFE20, 0xFE2F) ||
      in(cp, 0x1F3FB, 0x1F3FF) || in(cp, 0xE0020, 0xE007F) || in(cp, 0xE0100, 0xE01EF)) {
    return CharClass::Extender;
  }
  if (in(cp, 0x80, 0x9F) || (in(cp, 0xA1, 0xBF) && cp != 0xAA && cp != 0xB5 && cp != 0xBA) || cp == 0xD7 ||
      cp == 0xF7 || in(cp, 0x2010, 0x2027) || in(cp, 0x2030, 0x205E) || in(cp, 0x20A0, 0x20CF) ||
      in(cp, 0x2190, 0x2BFF) || in(cp, 0x2E00, 0x2E7F) || in(cp, 0x3001, 0x3003) || in(cp, 0x3008, 0x3020) ||
      cp == 0x3030 || cp == 0x303D || cp == 0x30FB || in(cp, 0xFE10, 0xFE1F) || in(cp, 0xFE30, 0xFE6F) ||
      in(cp, 0xFF01, 0xFF0F) || in(cp, 0xFF1A, 0xFF20) || in(cp, 0xFF3B, 0xFF40) || in(cp, 0xFF5B, 0xFF65) ||
      in(cp, 0x1F000, 0x1FAFF)) {
    return CharClass::Punct;
  }
  return CharClass::Letter;
}

std::string visible(std::string_view bytes) {
  static const char* const kHex = "0123456789ABCDEF";
  const auto append_byte = [](std::string& out, unsigned char b) {
    out += "<0x";
    out += kHex[b >> 4];
    out += kHex[b & 15];
    out += '>';
  };
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t pos = 0; pos < bytes.size();) {
    const Unit u = decode_at(bytes, pos);
    if (!u.valid) {
      for (int i = 0; i < u.length; ++i) append_byte(out, static_cast<unsigned char>(bytes[pos + i]));
    } else if (u.code_point == ' ') {
      out += "\xE2\x96\x81";  // U+2581 LOWER ONE EIGHTH BLOCK, SentencePiece's visible space
    } else if (u.code_point == '\n') {
      out += "\\n";
    } else if (u.code_point == '\t') {
      out += "\\t";
    } else if (u.code_point == '\r') {
      out += "\\r";
    } else if (u.code_point < 0x20 || u.code_point == 0x7F) {
      append_byte(out, static_cast<unsigned char>(u.code_point));
    } else {
      out.append(bytes.substr(pos, u.length));
    }
    pos += u.length;
  }
  return out;
}

}  // namespace tp::utf8
