// The UTF-8 codec of utf8.h.
#include "core/utf8.h"

#include "core/error.h"

namespace tp::utf8 {

Unit decode_at(std::string_view text, std::size_t pos) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned b0 = byte(pos);
  if (b0 < 0x80) return Unit{b0, 1, true};

  // The allowed range of the second byte depends on the lead byte (this is what rules out
  // overlongs, surrogates and values above U+10FFFF); later bytes are plain 80..BF.
  unsigned lower = 0x80, upper = 0xBF;
  int needed = 0;
  std::uint32_t cp = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    needed = 1;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (b0 == 0xE0) lower = 0xA0;
    if (b0 == 0xED) upper = 0x9F;
    needed = 2;
    cp = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (b0 == 0xF0) lower = 0x90;
    if (b0 == 0xF4) upper = 0x8F;
    needed = 3;
    cp = b0 & 0x07;
  } else {
    return Unit{kReplacement, 1, false};
  }
  int length = 1;
  for (int i = 0; i < needed; ++i) {
    // A bad or missing continuation ends the maximal subpart; the offending byte is not part of
    // it and starts the next unit.
    if (pos + length >= text.size()) return Unit{kReplacement, length, false};
    const unsigned b = byte(pos + length);
    if (b < lower || b > upper) return Unit{kReplacement, length, false};
    lower = 0x80;
    upper = 0xBF;
    cp = (cp << 6) | (b & 0x3F);
    ++length;
  }
  return Unit{cp, length, true};
}

void append(std::string& out, std::uint32_t cp) {
  TP_ASSERT(cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF));
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_valid(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();) {
    const Unit u = decode_at(text, pos);
    if (!u.valid) return false;
    pos += u.length;
  }
  return true;
}

std::string well_formed(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t pos = 0; pos < bytes.size();) {
    const Unit u = decode_at(bytes, pos);
    if (u.valid)
      out.append(bytes.data() + pos, static_cast<std::size_t>(u.length));
    else
      out += kReplacementUtf8;
    pos += u.length;
  }
  return out;
}

std::string StreamDecoder::feed(std::string_view piece) {
  std::string text = held_;
  text.append(piece.data(), piece.size());
  held_.clear();
  std::string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) {
    const Unit u = decode_at(text, pos);
    const unsigned lead = static_cast<unsigned char>(text[pos]);
    // An ill-formed unit that runs to the end and starts with a lead byte is a character's start
    // whose remaining bytes have not come yet (decode_at stops a subpart at the first byte that
    // cannot continue it, so every byte it holds fits).
    if (!u.valid && pos + u.length == text.size() && lead >= 0xC2 && lead <= 0xF4) {
      held_ = text.substr(pos);
      break;
    }
    if (u.valid)
      out.append(text, pos, static_cast<std::size_t>(u.length));
    else
      out += kReplacementUtf8;
    pos += u.length;
  }
  return out;
}

std::string StreamDecoder::finish() {
  const bool cut = !held_.empty();
  held_.clear();
  return cut ? std::string(kReplacementUtf8) : std::string();
}

}  // namespace tp::utf8
