// json::Reader: the strict JSON grammar of json.h as a pull parser, for files too large or too
// hostile to hold whole as a Value tree.
//
// A Value costs about a hundred bytes whatever it holds, so a tree of `[[],[],...]` needs some
// thirty times the bytes of its text. The importers read other projects' files (a tokenizer.json
// with a vocabulary of millions, a safetensors header of a million entries) and must refuse them
// before spending that: they walk the document with a Reader, count what they read against what
// the model's config allows, and stop at the first thing too many. Only the parts they keep take
// memory; skip() checks a value's syntax without building anything, and read_value() builds the
// tree of one (small) value. json::parse is read_value() over a whole document, so both readers
// accept exactly the same texts and give the same messages ("invalid JSON: expected ... at byte N").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/json.h"

namespace tp::json {

class Reader {
 public:
  // Checks that the whole text is UTF-8 (tp::Error otherwise) and stands before its first value.
  // A reader of part of a file can name it: errors then start with `source` ("tokenizer.json")
  // and count bytes from `base`, the part's offset in that file.
  explicit Reader(std::string_view text, std::string source = "", std::size_t base = 0);

  // The type of the value at the cursor (tp::Error when there is none).
  Value::Type peek();
  std::size_t offset() const { return pos_; }

  // An object: enter_object(), then while (next_key(key)) { read or skip the value }. Keys are
  // checked for repeats unless the caller keeps its own index of them (a vocabulary).
  void enter_object(bool check_duplicates = true);
  bool next_key(std::string& key);  // false after the closing '}'
  // An array: enter_array(), then while (next_item()) { read or skip the item }.
  void enter_array();
  bool next_item();  // false after the closing ']'

  std::string read_string();
  double read_number();
  bool read_bool();
  void read_null();
  // Skips one value, checking its syntax (nesting included) but building nothing, and returns its
  // text. Repeated keys inside it are not looked for: nothing inside it is read.
  std::string_view skip();
  // The value at the cursor as a tree.
  Value read_value();
  // tp::Error unless only white space follows the document's value.
  void finish();

 private:
  struct Frame {
    bool object = false, first = true, check_duplicates = true;
    std::unordered_set<std::string> keys;
  };
  std::string_view text_;
  std::string source_;
  std::size_t base_ = 0;
  std::size_t pos_ = 0;
  std::vector<Frame> frames_;

  [[noreturn]] void fail(const char* expected) const;
  [[noreturn]] void error(const std::string& message) const;  // "<source>: <message>"
  void skip_space();
  bool consume(char c);
  void expect_word(const char* word);
  void enter(bool object, bool check_duplicates);
  unsigned hex4();
  void scan_string(std::string* out);  // out null: only checks it
  void scan_number(double* out);
  Value read_value(int depth);
};

}  // namespace tp::json
