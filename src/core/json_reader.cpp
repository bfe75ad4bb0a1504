// The strict JSON grammar as a pull parser; see json_reader.h. json::parse (json.h) is
// read_value() over a whole document.
#include "core/json_reader.h"

#include <cmath>
#include <cstdlib>

#include "core/error.h"
#include "core/text_escape.h"
#include "core/utf8.h"

namespace tp::json {

namespace {
constexpr std::size_t kMaxDepth = 64;
}

Reader::Reader(std::string_view text, std::string source, std::size_t base)
    : text_(text), source_(std::move(source)), base_(base) {
  if (!utf8::is_valid(text_)) error("JSON text is not valid UTF-8");
  skip_space();
}

void Reader::error(const std::string& message) const {
  if (source_.empty()) throw Error(message);
  throw Error(str_cat(source_, ": ", message));
}

void Reader::fail(const char* expected) const {
  const std::size_t at = base_ + pos_;
  if (pos_ >= text_.size())
    error(str_cat("invalid JSON: expected ", expected, " at byte ", at, ", found end of input"));
  const char c = text_[pos_];
  if (c >= 0x20 && c < 0x7f) error(str_cat("invalid JSON: expected ", expected, " at byte ", at, ", found '", c, "'"));
  error(str_cat("invalid JSON: expected ", expected, " at byte ", at, ", found byte ",
                static_cast<int>(static_cast<unsigned char>(c))));
}

void Reader::skip_space() {
  while (pos_ < text_.size() &&
         (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
    ++pos_;
}

bool Reader::consume(char c) {
  if (pos_ < text_.size() && text_[pos_] == c) {
    ++pos_;
    return true;
  }
  return false;
}

void Reader::expect_word(const char* word) {
  for (const char* p = word; *p; ++p) {
    if (!consume(*p)) fail(word);
  }
  skip_space();
}

Value::Type Reader::peek() {
  if (pos_ >= text_.size()) fail("a value");
  switch (text_[pos_]) {
    case '{':
      return Value::Type::Object;
    case '[':
      return Value::Type::Array;
    case '"':
      return Value::Type::String;
    case 't':
    case 'f':
      return Value::Type::Bool;
    case 'n':
      return Value::Type::Null;
    default:
      return Value::Type::Number;  // or an error, which read_number reports
  }
}

void Reader::enter(bool object, bool check_duplicates) {
  if (!consume(object ? '{' : '[')) fail(object ? "'{'" : "'['");
  if (frames_.size() >= kMaxDepth) error(str_cat("invalid JSON: nesting deeper than ", kMaxDepth, " levels"));
  Frame f;
  f.object = object;
  f.check_duplicates = check_duplicates;
  frames_.push_back(std::move(f));
  skip_space();
}

void Reader::enter_object(bool check_duplicates) { enter(true, check_duplicates); }
void Reader::enter_array() { enter(false, false); }

bool Reader::next_key(std::string& key) {
  TP_ASSERT(!frames_.empty() && frames_.back().object);
  Frame& f = frames_.back();
  skip_space();
  if (consume('}')) {
    frames_.pop_back();
    skip_space();
    return false;
  }
  if (!f.first && !consume(',')) fail("',' or '}'");
  f.first = false;
  skip_space();
  if (pos_ >= text_.size() || text_[pos_] != '"') fail("a string key");
  key.clear();
  scan_string(&key);
  if (f.check_duplicates && !f.keys.insert(key).second)
    error(str_cat("invalid JSON: duplicate key ", quote(key), " at byte ", base_ + pos_));
  skip_space();
  if (!consume(':')) fail("':'");
  skip_space();
  return true;
}

bool Reader::next_item() {
  TP_ASSERT(!frames_.empty() && !frames_.back().object);
  Frame& f = frames_.back();
  skip_space();
  if (consume(']')) {
    frames_.pop_back();
    skip_space();
    return false;
  }
  if (!f.first && !consume(',')) fail("',' or ']'");
  f.first = false;
  skip_space();
  return true;
}

std::string Reader::read_string() {
  if (pos_ >= text_.size() || text_[pos_] != '"') fail("a string");
  std::string out;
  scan_string(&out);
  skip_space();
  return out;
}

double Reader::read_number() {
  double d = 0;
  scan_number(&d);
  skip_space();
  return d;
}

bool Reader::read_bool() {
  if (pos_ < text_.size() && text_[pos_] == 't') {
    expect_word("true");
    return true;
  }
  if (pos_ < text_.size() && text_[pos_] == 'f') {
    expect_word("false");
    return false;
  }
  fail("true or false");
}

void Reader::read_null() { expect_word("null"); }

std::string_view Reader::skip() {
  const std::size_t start = pos_;
  // One value; open containers are a stack of bits (1 = object), so skipping builds nothing.
  std::uint64_t objects = 0;
  std::size_t depth = 0;
  const auto key = [&] {
    if (pos_ >= text_.size() || text_[pos_] != '"') fail("a string key");
    scan_string(nullptr);
    skip_space();
    if (!consume(':')) fail("':'");
    skip_space();
  };
  while (true) {
    if (pos_ >= text_.size()) fail("a value");
    const char c = text_[pos_];
    if (c == '{' || c == '[') {
      ++pos_;
      if (frames_.size() + depth + 1 > kMaxDepth)
        error(str_cat("invalid JSON: nesting deeper than ", kMaxDepth, " levels"));
      const bool object = c == '{';
      objects = (objects << 1) | (object ? 1u : 0u);
      ++depth;
      skip_space();
      if (!consume(object ? '}' : ']')) {
        if (object) key();
        continue;  // the first member's value or the first item
      }
      objects >>= 1;
      --depth;
    } else if (c == '"') {
      scan_string(nullptr);
    } else if (c == 't' || c == 'f') {
      expect_word(c == 't' ? "true" : "false");
    } else if (c == 'n') {
      expect_word("null");
    } else {
      scan_number(nullptr);
    }
    skip_space();
    // After a value inside containers: a comma and the next member or item, or a closing bracket.
    bool next = false;
    while (depth > 0 && !next) {
      const bool object = (objects & 1u) != 0;
      if (consume(',')) {
        skip_space();
        if (object) key();
        next = true;
      } else if (consume(object ? '}' : ']')) {
        objects >>= 1;
        --depth;
        skip_space();
      } else {
        fail(object ? "',' or '}'" : "',' or ']'");
      }
    }
    if (depth == 0) break;
  }
  return text_.substr(start, pos_ - start);
}

Value Reader::read_value() { return read_value(static_cast<int>(frames_.size())); }

Value Reader::read_value(int depth) {
  switch (peek()) {
    case Value::Type::Object: {
      if (static_cast<std::size_t>(depth) >= kMaxDepth)
        error(str_cat("invalid JSON: nesting deeper than ", kMaxDepth, " levels"));
      enter_object(true);
      Value obj = Value::object();
      std::string key;
      while (next_key(key)) obj.members().emplace_back(key, read_value(depth + 1));
      return obj;
    }
    case Value::Type::Array: {
      if (static_cast<std::size_t>(depth) >= kMaxDepth)
        error(str_cat("invalid JSON: nesting deeper than ", kMaxDepth, " levels"));
      enter_array();
      Value arr = Value::array();
      while (next_item()) arr.items().push_back(read_value(depth + 1));
      return arr;
    }
    case Value::Type::String:
      return Value(read_string());
    case Value::Type::Bool:
      return Value(read_bool());
    case Value::Type::Null:
      read_null();
      return Value();
    case Value::Type::Number:
      return Value(read_number());
  }
  return Value();
}

void Reader::finish() {
  skip_space();
  if (pos_ != text_.size()) fail("end of input");
}

unsigned Reader::hex4() {
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

void Reader::scan_string(std::string* out) {
  ++pos_;  // '"'
  const auto put = [&](char c) {
    if (out) *out += c;
  };
  while (true) {
    if (pos_ >= text_.size()) fail("'\"' closing the string");
    const char c = text_[pos_++];
    if (c == '"') return;
    if (static_cast<unsigned char>(c) < 0x20) {
      --pos_;
      fail("an escaped control character");
    }
    if (c != '\\') {
      put(c);
      continue;
    }
    if (pos_ >= text_.size()) fail("an escape character");
    const char e = text_[pos_++];
    switch (e) {
      case '"':
      case '\\':
      case '/':
        put(e);
        break;
      case 'b':
        put('\b');
        break;
      case 'f':
        put('\f');
        break;
      case 'n':
        put('\n');
        break;
      case 'r':
        put('\r');
        break;
      case 't':
        put('\t');
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
        if (out) utf8::append(*out, cp);
        break;
      }
      default:
        pos_ -= 1;
        fail("a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
    }
  }
}

void Reader::scan_number(double* out) {
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
  if (!std::isfinite(d))
    error(str_cat("invalid JSON: number ", quote(literal), " at byte ", base_ + start, " is out of range"));
  if (out) *out = d;
}

}  // namespace tp::json
