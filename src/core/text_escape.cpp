// escape_controls and quote; see text_escape.h.
#include "core/text_escape.h"

#include <cstdio>

#include "core/utf8.h"

namespace tp {

namespace {

bool hidden_or_bidi(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF;
}

void append_byte_escape(std::string& out, unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", b);
  out += buf;
}

// Appends one unit of `text` at `pos` (escaped as needed) and returns its length in bytes.
std::size_t append_unit(std::string& out, std::string_view text, std::size_t pos, bool escape_backslash = true) {
  const utf8::Unit u = utf8::decode_at(text, pos);
  if (!u.valid) {
    for (int i = 0; i < u.length; ++i) append_byte_escape(out, static_cast<unsigned char>(text[pos + i]));
    return static_cast<std::size_t>(u.length);
  }
  const std::uint32_t cp = u.code_point;
  if (cp == '\\' && escape_backslash) {
    out += "\\\\";
  } else if (cp == '\n') {
    out += "\\n";
  } else if (cp == '\t') {
    out += "\\t";
  } else if (cp == '\r') {
    out += "\\r";
  } else if (cp < 0x20 || cp == 0x7F) {
    append_byte_escape(out, static_cast<unsigned char>(cp));
  } else if (hidden_or_bidi(cp)) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\u{%04x}", static_cast<unsigned>(cp));
    out += buf;
  } else {
    out.append(text.substr(pos, static_cast<std::size_t>(u.length)));
  }
  return static_cast<std::size_t>(u.length);
}

}  // namespace

std::string escape_controls(std::string_view text, bool escape_backslash) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) pos += append_unit(out, text, pos, escape_backslash);
  return out;
}

std::string quote(std::string_view text, std::size_t max_chars) {
  std::string out = "'";
  std::size_t pos = 0, chars = 0;
  while (pos < text.size() && chars < max_chars) {
    pos += append_unit(out, text, pos);
    ++chars;
  }
  out += '\'';
  if (pos < text.size()) out += "... (" + std::to_string(text.size()) + " bytes in all)";
  return out;
}

}  // namespace tp
