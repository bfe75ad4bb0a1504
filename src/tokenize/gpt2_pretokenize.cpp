// gpt2_chunks: the pattern of gpt2_pretokenize.h as a hand-written scanner over UTF-8 units.
//
// Each alternative is a function that returns the end of its match at `pos`, or `pos` when it
// does not match; the first that matches wins, as in the regular expression. The one
// alternative with backtracking, \s+(?!\S), takes a run of white space minus its last unit when
// a non-space follows (that last unit then joins the next chunk as its optional leading space,
// or stands alone), and the whole run at the end of the text.
#include "tokenize/gpt2_pretokenize.h"

#include "tokenize/unicode_tables.h"
#include "tokenize/utf8.h"

namespace tp::detail {
namespace {

enum class Cls { Letter, Number, Space, Other };

struct Scanner {
  std::string_view text;

  Cls cls_at(std::size_t pos, int* length) const {
    const utf8::Unit u = utf8::decode_at(text, pos);
    *length = u.length;
    if (!u.valid) return Cls::Other;
    if (unicode::is_letter(u.code_point)) return Cls::Letter;
    if (unicode::is_number(u.code_point)) return Cls::Number;
    if (unicode::is_space(u.code_point)) return Cls::Space;
    return Cls::Other;
  }

  // 's 't 're 've 'm 'll 'd (ASCII apostrophe, lower case: the pattern is case-sensitive)
  std::size_t contraction(std::size_t pos) const {
    if (text[pos] != '\'' || pos + 1 >= text.size()) return pos;
    const char a = text[pos + 1];
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return pos + 2;
    if (pos + 2 < text.size()) {
      const char b = text[pos + 2];
      if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return pos + 3;
    }
    return pos;
  }

  // ` ?X+` for the class `want`
  std::size_t optional_space_run(std::size_t pos, Cls want) const {
    std::size_t p = pos;
    if (text[p] == ' ') ++p;
    std::size_t end = p;
    int len = 0;
    while (end < text.size() && cls_at(end, &len) == want) end += len;
    return end == p ? pos : end;
  }

  // \s+(?!\S) then \s+
  std::size_t spaces(std::size_t pos) const {
    std::size_t end = pos, last = pos;
    int len = 0;
    while (end < text.size() && cls_at(end, &len) == Cls::Space) {
      last = end;
      end += len;
    }
    if (end == pos) return pos;
    if (end == text.size() || last == pos) return end;  // to the end, or a single unit (\s+)
    return last;                                        // leave the last unit for the chunk after it
  }

  std::size_t match(std::size_t pos) const {
    for (std::size_t end : {contraction(pos), optional_space_run(pos, Cls::Letter),
                            optional_space_run(pos, Cls::Number), optional_space_run(pos, Cls::Other)}) {
      if (end != pos) return end;
    }
    const std::size_t end = spaces(pos);
    if (end != pos) return end;
    int len = 0;
    cls_at(pos, &len);  // not reached for valid input: every unit is in one of the classes
    return pos + len;
  }
};

}  // namespace

std::vector<Span> gpt2_chunks(std::string_view text) {
  std::vector<Span> out;
  const Scanner s{text};
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = s.match(pos);
    out.push_back(Span{static_cast<int>(pos), static_cast<int>(end)});
    pos = end;
  }
  return out;
}

}  // namespace tp::detail
