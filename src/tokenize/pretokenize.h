// Pre-tokenisation: cutting text into words (word tokenizer) and into chunks (BPE) before any
// vocabulary is involved.
//
// Both splitters keep a character together with what extends it (combining marks, variation
// selectors, skin tones, and anything joined by a ZWJ), so an emoji family or an accented letter
// written with a combining mark is never cut apart at this stage.
#pragma once

#include <string_view>
#include <vector>

#include "tokenize/tokenizer.h"

namespace tp {

struct WordPiece {
  enum class Kind { Word, Punct, InvalidByte };
  Span bytes;
  Kind kind;
};

// Words are runs of letters and digits; each punctuation or symbol character is a piece of its
// own; each byte that is not valid UTF-8 is a piece of its own; white space separates pieces and
// belongs to none.
std::vector<WordPiece> split_words(std::string_view text);

// BPE chunks tile the text (every byte in exactly one chunk). A chunk is a run of letters, of
// digits, of punctuation/symbols or of white space; a single ' ' just before a non-space run
// moves into that run (" the"), GPT-2 style, so a word and its leading space can merge. Invalid
// UTF-8 bytes count as letters, so text in a legacy 8-bit encoding still forms words.
std::vector<Span> split_chunks(std::string_view text);

}  // namespace tp
