// GPT-2's pre-tokenizer, written out by hand: the chunks its pattern
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// finds, tried in that order at each position, as a JavaScript /u regular expression (and the
// Rust one of Hugging Face's ByteLevel pre-tokenizer) finds them. Internal to src/tokenize.
#pragma once

#include <string_view>
#include <vector>

#include "tokenize/tokenizer.h"

namespace tp::detail {

// Byte spans of the chunks, in order, covering the whole text. Bytes that are not valid UTF-8
// count as neither letter, number nor space (as U+FFFD would).
std::vector<Span> gpt2_chunks(std::string_view text);

}  // namespace tp::detail
