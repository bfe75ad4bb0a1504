// Unicode classes of GPT-2's pre-tokenizer pattern (\p{L}, \p{N}, \s), from generated tables
// (unicode_tables.cpp, written by tools/gen_unicode_tables.mjs).
#pragma once

#include <cstdint>

namespace tp::unicode {

bool is_letter(std::uint32_t code_point);  // \p{L}
bool is_number(std::uint32_t code_point);  // \p{N}
bool is_space(std::uint32_t code_point);   // \s of JavaScript's /u regular expressions

}  // namespace tp::unicode
