// import::Field: the one way the importers read a value from someone else's JSON file.
//
// A Field is a value with where it came from (the file and the path to it, "model.merges[12]").
// Every typed read checks the type and the range before anything is narrowed or used, and every
// refusal names the file, the field, what it held (quoted, cut and escaped: text from a file is
// never echoed whole or raw) and what is allowed:
//   tokenizer.json: field pre_tokenizer.add_prefix_space must be true or false, got a number (3)
//   config.json: field eos_token_id = 1099511628035 is out of range; allowed: 0 .. 259 (a token id)
// A missing member is a Field too (present() false), so optional fields read as field_or(default).
//
// Large files are not parsed whole (json_reader.h says why): members() lists an object's members
// with the raw text of each value, for_each_item()/for_each_member() stream a large array or
// object with a limit on its length, and Part parses one small piece, bounded in bytes, into a
// Field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "core/json_reader.h"

namespace tp::import {

class Field {
 public:
  Field(std::string file, std::string path, const json::Value* value)
      : file_(std::move(file)), path_(std::move(path)), value_(value) {}

  Field operator[](std::string_view key) const;  // a member (absent: present() is false)
  Field item(std::size_t index) const;           // an array item
  bool present() const { return value_ != nullptr && !value_->is_null(); }
  json::Value::Type type() const { return value_ ? value_->type() : json::Value::Type::Null; }
  const json::Value* value() const { return value_; }
  const std::string& path() const { return path_; }

  // "tokenizer.json: field model.vocab" (or "tokenizer.json" for the whole document).
  std::string where() const;
  // What the field holds, for a message: a number as written, a string quoted, else its type.
  std::string shown() const;

  // Typed reads; absent, null or of another type is a tp::Error naming the field.
  const std::string& string() const;
  std::string string_or(std::string_view fallback) const;
  bool boolean() const;
  bool boolean_or(bool fallback) const;
  // A whole number in [min, max], checked as a double before it becomes an integer, so 2^40 + 259
  // is refused rather than wrapped. `allowed` says what the range means ("a token id").
  std::int64_t integer(std::int64_t min, std::int64_t max, const char* allowed = "") const;
  std::int64_t integer_or(std::int64_t fallback, std::int64_t min, std::int64_t max, const char* allowed = "") const;
  int int32(int min, int max, const char* allowed = "") const;
  int int32_or(int fallback, int min, int max, const char* allowed = "") const;
  double number(double min, double max) const;  // finite, in [min, max]
  double number_or(double fallback, double min, double max) const;
  const json::Value::Array& array(std::size_t max_items) const;
  const json::Value::Object& object() const;

  // tp::Error "<where> <parts...>".
  template <typename... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    TP_FAIL(where(), " ", parts...);
  }

 private:
  [[noreturn]] void wrong_type(const char* expected) const;
  std::string file_, path_;
  const json::Value* value_;
};

// A file being read in parts: its name for messages and its bytes, which every part passed with
// it lies in (so a part's errors count bytes from the start of the file).
struct SourceFile {
  std::string name;
  std::string_view bytes;
  std::size_t offset_of(std::string_view part) const {
    return part.data() >= bytes.data() && part.data() <= bytes.data() + bytes.size()
               ? static_cast<std::size_t>(part.data() - bytes.data())
               : 0;
  }
  // A reader of `part` whose errors name the field at `path` and count from the file's start.
  json::Reader reader(const std::string& path, std::string_view part) const;
};

// "a.b" for an identifier key, "a['key with spaces']" for any other.
std::string child_path(const std::string& path, std::string_view key);
std::string item_path(const std::string& path, std::size_t index);

// One small piece of a file parsed on its own into a Field; refused (naming the field) when its
// text is longer than max_bytes, which bounds the tree it can build.
class Part {
 public:
  Part(const SourceFile& file, const std::string& path, std::string_view text, std::size_t max_bytes);
  Part(const Part&) = delete;
  Part& operator=(const Part&) = delete;
  const Field& field() const { return field_; }

 private:
  json::Value value_;
  Field field_;
};

// The members of the object whose JSON text is `text`, each with its value's raw text, in order;
// refused when it is not an object, repeats a key, or has more than max_members.
struct Member {
  std::string key;
  std::string_view text;
};
std::vector<Member> members(const SourceFile& file, const std::string& path, std::string_view text,
                            std::size_t max_members);
// The member called `key`, or null.
const Member* find_member(const std::vector<Member>& list, std::string_view key);

// Streams a large array: item(index, field) for each item, each parsed on its own (at most
// max_item_bytes of text). Refused at item max_items + 1, saying `limit_why`.
template <typename Item>
void for_each_item(const SourceFile& file, const std::string& path, std::string_view text, std::size_t max_items,
                   const char* limit_why, std::size_t max_item_bytes, Item&& item);
// Streams a large object: member(key, field) for each member, without checking keys for repeats
// (the caller indexes them); refused at member max_members + 1, saying `limit_why`.
template <typename Fn>
void for_each_member(const SourceFile& file, const std::string& path, std::string_view text, std::size_t max_members,
                     const char* limit_why, std::size_t max_value_bytes, Fn&& member);

// ---- implementation of the templates ----------------------------------------------------------

namespace detail {
// The type of the value at the start of `text`, or a tp::Error naming the field.
json::Value::Type expect_type(const SourceFile& file, const std::string& path, json::Reader& reader,
                              json::Value::Type want, const char* described);
}  // namespace detail

template <typename Item>
void for_each_item(const SourceFile& file, const std::string& path, std::string_view text, std::size_t max_items,
                   const char* limit_why, std::size_t max_item_bytes, Item&& item) {
  json::Reader reader = file.reader(path, text);
  detail::expect_type(file, path, reader, json::Value::Type::Array, "an array");
  reader.enter_array();
  std::size_t index = 0;
  while (reader.next_item()) {
    const std::string at = item_path(path, index);
    if (index >= max_items) Field(file.name, path, nullptr).fail("has more than ", max_items, " items; ", limit_why);
    const Part part(file, at, reader.skip(), max_item_bytes);
    item(index, part.field());
    ++index;
  }
}

template <typename Fn>
void for_each_member(const SourceFile& file, const std::string& path, std::string_view text, std::size_t max_members,
                     const char* limit_why, std::size_t max_value_bytes, Fn&& member) {
  json::Reader reader = file.reader(path, text);
  detail::expect_type(file, path, reader, json::Value::Type::Object, "an object");
  reader.enter_object(false);
  std::size_t count = 0;
  std::string key;
  while (reader.next_key(key)) {
    if (count >= max_members)
      Field(file.name, path, nullptr).fail("has more than ", max_members, " members; ", limit_why);
    const Part part(file, child_path(path, key), reader.skip(), max_value_bytes);
    member(key, part.field());
    ++count;
  }
}

}  // namespace tp::import
