// Word and BPE-chunk splitting; see pretokenize.h. Both are single linear passes over the UTF-8
// units so that encoding a megabyte of text stays cheap.
#include "tokenize/pretokenize.h"

#include "tokenize/utf8.h"

namespace tp {

std::vector<WordPiece> split_words(std::string_view text) {
  std::vector<WordPiece> pieces;
  bool open = false;       // pieces.back() can still grow
  bool join_next = false;  // the previous character was a ZWJ
  for (std::size_t pos = 0; pos < text.size();) {
    const utf8::Unit u = utf8::decode_at(text, pos);
    const int begin = static_cast<int>(pos);
    const int end = static_cast<int>(pos + u.length);
    pos += u.length;
    if (!u.valid) {
      for (int b = begin; b < end; ++b) pieces.push_back({{b, b + 1}, WordPiece::Kind::InvalidByte});
      open = join_next = false;
      continue;
    }
    const utf8::CharClass cls = utf8::classify(u.code_point);
    if (cls == utf8::CharClass::Space) {
      open = join_next = false;
      continue;
    }
    const bool extends = cls == utf8::CharClass::Extender || join_next;
    join_next = utf8::is_zwj(u.code_point);
    if (open && extends) {
      pieces.back().bytes.end = end;
      continue;
    }
    if (cls == utf8::CharClass::Letter || cls == utf8::CharClass::Digit) {
      if (open && pieces.back().kind == WordPiece::Kind::Word) {
        pieces.back().bytes.end = end;
      } else {
        pieces.push_back({{begin, end}, WordPiece::Kind::Word});
        open = true;
      }
      continue;
    }
    // Punctuation, a symbol, or an extender with nothing to extend: a piece of its own that
    // only extenders may grow.
    pieces.push_back({{begin, end}, WordPiece::Kind::Punct});
    open = true;
  }
  return pieces;
}

namespace {
enum class RunClass { None, Space, Letter, Digit, Punct };
}  // namespace

std::vector<Span> split_chunks(std::string_view text) {
  std::vector<Span> chunks;
  RunClass current = RunClass::None;
  bool join_next = false;
  for (std::size_t pos = 0; pos < text.size();) {
    const utf8::Unit u = utf8::decode_at(text, pos);
    const int begin = static_cast<int>(pos);
    const int end = static_cast<int>(pos + u.length);
    pos += u.length;

    RunClass cls = RunClass::Letter;  // invalid bytes join letter runs
    bool extends = false;
    if (u.valid) {
      switch (utf8::classify(u.code_point)) {
        case utf8::CharClass::Space:
          cls = RunClass::Space;
          break;
        case utf8::CharClass::Letter:
          cls = RunClass::Letter;
          break;
        case utf8::CharClass::Digit:
          cls = RunClass::Digit;
          break;
        case utf8::CharClass::Punct:
          cls = RunClass::Punct;
          break;
        case utf8::CharClass::Extender:
          cls = RunClass::Punct;
          extends = true;
          break;
      }
      extends = (extends || join_next) && cls != RunClass::Space;
      join_next = utf8::is_zwj(u.code_point);
    } else {
      join_next = false;
    }

    if (current != RunClass::None && (cls == current || (extends && current != RunClass::Space))) {
      chunks.back().end = end;
      continue;
    }
    // A new run starts. If it follows white space ending in ' ', that space becomes its prefix.
    if (current == RunClass::Space && cls != RunClass::Space && text[begin - 1] == ' ') {
      Span& space_run = chunks.back();
      if (space_run.end - space_run.begin == 1) {
        chunks.pop_back();
      } else {
        --space_run.end;
      }
      chunks.push_back(Span{begin - 1, end});
    } else {
      chunks.push_back(Span{begin, end});
    }
    current = cls;
  }
  return chunks;
}

}  // namespace tp
