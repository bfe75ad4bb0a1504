// A small JSON value, parser and writer: enough for safetensors headers, checkpoint metadata
// (config, tokenizer) and the CLI's --json output.
//
// The parser is strict (RFC 8259: no comments, no trailing commas, valid UTF-8 only, nesting
// limited to 64 levels) because it reads checkpoint headers from untrusted files; every error is
// a tp::Error naming the byte offset and what was expected. Objects keep insertion order, so a
// written file is stable and diffable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tp::json {

class Value {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };
  using Array = std::vector<Value>;
  using Object = std::vector<std::pair<std::string, Value>>;

  Value() = default;  // null
  Value(std::nullptr_t) {}
  Value(bool b) : type_(Type::Bool), bool_(b) {}
  Value(double d) : type_(Type::Number), number_(d) {}
  Value(int i) : type_(Type::Number), number_(i) {}
  Value(std::int64_t i) : type_(Type::Number), number_(static_cast<double>(i)) {}
  Value(const char* s) : type_(Type::String), string_(s) {}
  Value(std::string s) : type_(Type::String), string_(std::move(s)) {}
  static Value array(Array items = {});
  static Value object(Object members = {});

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool is_bool() const { return type_ == Type::Bool; }
  bool is_number() const { return type_ == Type::Number; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }

  // Typed access; a wrong type throws tp::Error naming `what` (e.g. "config field d_model").
  bool as_bool(std::string_view what = "value") const;
  double as_number(std::string_view what = "value") const;
  std::int64_t as_int(std::string_view what = "value") const;  // must be an exact integer
  const std::string& as_string(std::string_view what = "value") const;
  const Array& as_array(std::string_view what = "value") const;
  const Object& as_object(std::string_view what = "value") const;
  Array& items();     // array elements (must be an array)
  Object& members();  // object members (must be an object)

  // Object access. find() returns null when absent; at() throws naming the missing key.
  const Value* find(std::string_view key) const;
  const Value& at(std::string_view key) const;
  Value& set(const std::string& key, Value value);  // replaces or appends
  void push(Value value);                           // arrays only

  // Compact JSON. A number that is not finite (NaN, ±infinity: a diverged loss, the perplexity
  // exp(loss) above ~710 nats) is written as null, as JavaScript's JSON.stringify does, so a
  // report never fails to print; readers must expect null wherever a number can overflow.
  std::string dump() const;

 private:
  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0.0;
  std::string string_;
  Array array_;
  Object object_;
};

Value parse(std::string_view text);

// Human-readable name of a type, for error messages.
const char* type_name(Value::Type type);

// A float as the double of its shortest decimal that reads back as the same float (1e-05, not
// 9.99999974e-06), so files and messages show the number that was written. Doubles pass through.
double shortest(float f);
inline double shortest(double d) { return d; }

}  // namespace tp::json
