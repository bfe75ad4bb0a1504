// Strict JSON parsing and compact writing; see json.h.
#include "core/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "core/json_reader.h"
#include "core/utf8.h"

namespace tp::json {

const char* type_name(Value::Type type) {
  switch (type) {
    case Value::Type::Null:
      return "null";
    case Value::Type::Bool:
      return "a boolean";
    case Value::Type::Number:
      return "a number";
    case Value::Type::String:
      return "a string";
    case Value::Type::Array:
      return "an array";
    case Value::Type::Object:
      return "an object";
  }
  return "?";
}

Value Value::array(Array items) {
  Value v;
  v.type_ = Type::Array;
  v.array_ = std::move(items);
  return v;
}

Value Value::object(Object members) {
  Value v;
  v.type_ = Type::Object;
  v.object_ = std::move(members);
  return v;
}

namespace {
[[noreturn]] void wrong_type(std::string_view what, const char* expected, Value::Type got) {
  TP_FAIL(what, " must be ", expected, ", got ", type_name(got));
}
}  // namespace

bool Value::as_bool(std::string_view what) const {
  if (type_ != Type::Bool) wrong_type(what, "a boolean", type_);
  return bool_;
}

double Value::as_number(std::string_view what) const {
  if (type_ != Type::Number) wrong_type(what, "a number", type_);
  return number_;
}

std::int64_t Value::as_int(std::string_view what) const {
  if (type_ != Type::Number) wrong_type(what, "an integer", type_);
  TP_CHECK(std::floor(number_) == number_ && std::fabs(number_) < 9007199254740992.0, what, " must be an integer, got ",
           number_);
  return static_cast<std::int64_t>(number_);
}

const std::string& Value::as_string(std::string_view what) const {
  if (type_ != Type::String) wrong_type(what, "a string", type_);
  return string_;
}

const Value::Array& Value::as_array(std::string_view what) const {
  if (type_ != Type::Array) wrong_type(what, "an array", type_);
  return array_;
}

const Value::Object& Value::as_object(std::string_view what) const {
  if (type_ != Type::Object) wrong_type(what, "an object", type_);
  return object_;
}

Value::Array& Value::items() {
  TP_ASSERT(type_ == Type::Array);
  return array_;
}

Value::Object& Value::members() {
  TP_ASSERT(type_ == Type::Object);
  return object_;
}

const Value* Value::find(std::string_view key) const {
  if (type_ != Type::Object) return nullptr;
  for (const auto& [k, v] : object_) {
    if (k == key) return &v;
  }
  return nullptr;
}

const Value& Value::at(std::string_view key) const {
  if (type_ != Type::Object) wrong_type(str_cat("the value holding '", key, "'"), "an object", type_);
  const Value* v = find(key);
  TP_CHECK(v != nullptr, "missing key '", key, "'");
  return *v;
}

Value& Value::set(const std::string& key, Value value) {
  TP_ASSERT(type_ == Type::Object);
  for (auto& [k, v] : object_) {
    if (k == key) return v = std::move(value);
  }
  object_.emplace_back(key, std::move(value));
  return object_.back().second;
}

void Value::push(Value value) {
  TP_ASSERT(type_ == Type::Array);
  array_.push_back(std::move(value));
}

// ---- writing ------------------------------------------------------------------------------------

namespace {

void write_string(const std::string& s, std::string& out) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

void write_number(double d, std::string& out) {
  // JSON has no NaN or infinity; like JavaScript's JSON.stringify, write null (see json.h).
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  char buf[32];
  if (std::floor(d) == d && std::fabs(d) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", d);
  } else {
    std::snprintf(buf, sizeof buf, "%.9g", d);  // round-trips every float
    // %.9g is exact for floats; use 17 digits when the double needs them.
    if (std::strtod(buf, nullptr) != d) std::snprintf(buf, sizeof buf, "%.17g", d);
  }
  out += buf;
}

void write(const Value& v, std::string& out) {
  switch (v.type()) {
    case Value::Type::Null:
      out += "null";
      break;
    case Value::Type::Bool:
      out += v.as_bool() ? "true" : "false";
      break;
    case Value::Type::Number:
      write_number(v.as_number(), out);
      break;
    case Value::Type::String:
      write_string(v.as_string(), out);
      break;
    case Value::Type::Array: {
      out += '[';
      bool first = true;
      for (const Value& item : v.as_array()) {
        if (!first) out += ',';
        first = false;
        write(item, out);
      }
      out += ']';
      break;
    }
    case Value::Type::Object: {
      out += '{';
      bool first = true;
      for (const auto& [k, item] : v.as_object()) {
        if (!first) out += ',';
        first = false;
        write_string(k, out);
        out += ':';
        write(item, out);
      }
      out += '}';
      break;
    }
  }
}

}  // namespace

double shortest(float f) {
  for (int digits = 1; digits <= 9; ++digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(f));
    if (std::strtof(text, nullptr) == f) return std::strtod(text, nullptr);
  }
  return static_cast<double>(f);
}

std::string Value::dump() const {
  std::string out;
  write(*this, out);
  return out;
}

// ---- parsing: json_reader.cpp holds the grammar ------------------------------------------------

Value parse(std::string_view text) {
  Reader reader(text);
  Value v = reader.read_value();
  reader.finish();
  return v;
}

}  // namespace tp::json
