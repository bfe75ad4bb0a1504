// Strict JSON parsing and compact writing; see json.h.
#include "core/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>

#include "core/error.h"
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

// ---- parsing ------------------------------------------------------------------------------------

namespace {

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Value parse_document() {
    TP_CHECK(utf8::is_valid(text_), "JSON text is not valid UTF-8");
    skip_space();
    Value v = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("end of input");
    return v;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;

  [[noreturn]] void fail(const char* expected) {
    if (pos_ >= text_.size()) TP_FAIL("invalid JSON: expected ", expected, " at byte ", pos_, ", found end of input");
    const char c = text_[pos_];
    if (c >= 0x20 && c < 0x7f) TP_FAIL("invalid JSON: expected ", expected, " at byte ", pos_, ", found '", c, "'");
    TP_FAIL("invalid JSON: expected ", expected, " at byte ", pos_, ", found byte ",
            static_cast<int>(static_cast<unsigned char>(c)));
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect_word(const char* word) {
    for (const char* p = word; *p; ++p) {
      if (!consume(*p)) fail(word);
    }
  }

  Value parse_value(int depth) {
    if (depth > kMaxDepth) TP_FAIL("invalid JSON: nesting deeper than ", kMaxDepth, " levels");
    if (pos_ >= text_.size()) fail("a value");
    switch (text_[pos_]) {
      case '{':
        return parse_object(depth);
      case '[':
        return parse_array(depth);
      case '"':
        return Value(parse_string());
      case 't':
        expect_word("true");
        return Value(true);
      case 'f':
        expect_word("false");
        return Value(false);
      case 'n':
        expect_word("null");
        return Value();
      default:
        return Value(parse_number());
    }
  }

  static constexpr std::size_t kLinearKeyCheck = 16;

  Value parse_object(int depth) {
    ++pos_;  // '{'
    Value obj = Value::object();
    std::unordered_set<std::string> seen;
    skip_space();
    if (consume('}')) return obj;
    while (true) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') fail("a string key");
      std::string key = parse_string();
      // Small objects (configs, tensor entries) are searched; large ones (a 50,000-token
      // vocabulary) keep a set, so parsing stays linear.
      bool duplicate;
      if (obj.members().size() < kLinearKeyCheck) {
        duplicate = obj.find(key) != nullptr;
      } else {
        if (seen.empty()) {
          for (const auto& m : obj.members()) seen.insert(m.first);
        }
        duplicate = !seen.insert(key).second;
      }
      TP_CHECK(!duplicate, "invalid JSON: duplicate key '", key, "' at byte ", pos_);
      skip_space();
      if (!consume(':')) fail("':'");
      skip_space();
      obj.members().emplace_back(std::move(key), parse_value(depth + 1));
      skip_space();
      if (consume('}')) return obj;
      if (!consume(',')) fail("',' or '}'");
    }
  }

  Value parse_array(int depth) {
    ++pos_;  // '['
    Value arr = Value::array();
    skip_space();
    if (consume(']')) return arr;
    while (true) {
      skip_space();
      arr.items().push_back(parse_value(depth + 1));
      skip_space();
      if (consume(']')) return arr;
      if (!consume(',')) fail("',' or ']'");
    }
  }

  unsigned hex4() {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      if (pos_ >= text_.size()) fail("4 hex digits");
      const char c = text_[pos_];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= c - '0';
      else if (c >= 'a' && c <= 'f')
        v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        v |= c - 'A' + 10;
      else
        fail("a hex digit");
      ++pos_;
    }
    return v;
  }

  std::string parse_string() {
    ++pos_;  // '"'
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("'\"' closing the string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        fail("an escaped control character");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("an escape character");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (!consume('\\') || !consume('u')) fail("a low surrogate escape");
            const unsigned low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("a low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail("a high surrogate before a low one");
          }
          utf8::append(out, cp);
          break;
        }
        default:
          pos_ -= 1;
          fail("a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
      }
    }
  }

  double parse_number() {
    const std::size_t start = pos_;
    consume('-');
    if (consume('0')) {
      // no leading zeros
    } else if (pos_ < text_.size() && text_[pos_] >= '1' && text_[pos_] <= '9') {
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    } else {
      pos_ = start;
      fail("a value");
    }
    if (consume('.')) {
      if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') fail("a digit");
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (!consume('+')) consume('-');
      if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') fail("an exponent digit");
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    }
    const std::string literal(text_.substr(start, pos_ - start));
    const double d = std::strtod(literal.c_str(), nullptr);
    TP_CHECK(std::isfinite(d), "invalid JSON: number ", literal, " at byte ", start, " is out of range");
    return d;
  }
};

}  // namespace

Value parse(std::string_view text) { return Parser(text).parse_document(); }

}  // namespace tp::json
