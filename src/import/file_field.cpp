// import::Field and the streaming helpers; see file_field.h.
#include "import/file_field.h"

#include <cmath>

#include "core/text_escape.h"

namespace tp::import {

namespace {

bool is_identifier(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

std::string range_text(std::int64_t min, std::int64_t max, const char* allowed) {
  std::string out = str_cat(min, " .. ", max);
  if (allowed && *allowed) out += str_cat(" (", allowed, ")");
  return out;
}

}  // namespace

std::string child_path(const std::string& path, std::string_view key) {
  if (is_identifier(key)) return path.empty() ? std::string(key) : str_cat(path, ".", key);
  return str_cat(path, "[", quote(key, 40), "]");
}

std::string item_path(const std::string& path, std::size_t index) { return str_cat(path, "[", index, "]"); }

Field Field::operator[](std::string_view key) const {
  const json::Value* v = value_ && value_->is_object() ? value_->find(key) : nullptr;
  return Field(file_, child_path(path_, key), v);
}

Field Field::item(std::size_t index) const {
  const json::Value* v = nullptr;
  if (value_ && value_->is_array() && index < value_->as_array().size()) v = &value_->as_array()[index];
  return Field(file_, item_path(path_, index), v);
}

std::string Field::where() const { return path_.empty() ? file_ : str_cat(file_, ": field ", path_); }

std::string Field::shown() const {
  if (value_ == nullptr) return "nothing (the field is missing)";
  switch (value_->type()) {
    case json::Value::Type::Number:
      return str_cat("the number ", value_->dump());
    case json::Value::Type::String:
      return str_cat("the string ", quote(value_->as_string()));
    case json::Value::Type::Bool:
      return value_->as_bool() ? "true" : "false";
    default:
      return json::type_name(value_->type());
  }
}

void Field::wrong_type(const char* expected) const { fail("must be ", expected, ", got ", shown()); }

const std::string& Field::string() const {
  if (!value_ || !value_->is_string()) wrong_type("a string");
  return value_->as_string();
}

std::string Field::string_or(std::string_view fallback) const { return present() ? string() : std::string(fallback); }

bool Field::boolean() const {
  if (!value_ || !value_->is_bool()) wrong_type("true or false");
  return value_->as_bool();
}

bool Field::boolean_or(bool fallback) const { return present() ? boolean() : fallback; }

std::int64_t Field::integer(std::int64_t min, std::int64_t max, const char* allowed) const {
  if (!value_ || !value_->is_number()) wrong_type(str_cat("a whole number in ", range_text(min, max, allowed)).c_str());
  const double d = value_->as_number();
  // Compared as doubles first: a value beyond int64 (or 2^40 + 259 for an int) never narrows.
  if (!(std::floor(d) == d && d >= static_cast<double>(min) && d <= static_cast<double>(max))) {
    fail("= ", value_->dump(), std::floor(d) == d ? " is out of range" : " is not a whole number",
         "; allowed: ", range_text(min, max, allowed));
  }
  return static_cast<std::int64_t>(d);
}

std::int64_t Field::integer_or(std::int64_t fallback, std::int64_t min, std::int64_t max, const char* allowed) const {
  return present() ? integer(min, max, allowed) : fallback;
}

int Field::int32(int min, int max, const char* allowed) const { return static_cast<int>(integer(min, max, allowed)); }

int Field::int32_or(int fallback, int min, int max, const char* allowed) const {
  return present() ? int32(min, max, allowed) : fallback;
}

double Field::number(double min, double max) const {
  if (!value_ || !value_->is_number()) wrong_type(str_cat("a number in ", min, " .. ", max).c_str());
  const double d = value_->as_number();
  if (!(d >= min && d <= max)) fail("= ", value_->dump(), " is out of range; allowed: ", min, " .. ", max);
  return d;
}

double Field::number_or(double fallback, double min, double max) const {
  return present() ? number(min, max) : fallback;
}

const json::Value::Array& Field::array(std::size_t max_items) const {
  if (!value_ || !value_->is_array()) wrong_type("an array");
  if (value_->as_array().size() > max_items)
    fail("has ", value_->as_array().size(), " items; allowed: at most ", max_items);
  return value_->as_array();
}

const json::Value::Object& Field::object() const {
  if (!value_ || !value_->is_object()) wrong_type("an object");
  return value_->as_object();
}

json::Reader SourceFile::reader(const std::string& path, std::string_view part) const {
  return json::Reader(part, Field(name, path, nullptr).where(), offset_of(part));
}

Part::Part(const SourceFile& file, const std::string& path, std::string_view text, std::size_t max_bytes)
    : field_(file.name, path, &value_) {
  if (text.size() > max_bytes) field_.fail("is ", text.size(), " bytes of JSON; allowed: at most ", max_bytes);
  json::Reader reader = file.reader(path, text);
  value_ = reader.read_value();
  reader.finish();
}

std::vector<Member> members(const SourceFile& file, const std::string& path, std::string_view text,
                            std::size_t max_members) {
  json::Reader reader = file.reader(path, text);
  detail::expect_type(file, path, reader, json::Value::Type::Object, "an object");
  reader.enter_object(true);
  std::vector<Member> out;
  std::string key;
  while (reader.next_key(key)) {
    if (out.size() >= max_members)
      Field(file.name, path, nullptr).fail("has more than ", max_members, " members; allowed: at most ", max_members);
    out.push_back(Member{key, reader.skip()});
  }
  return out;
}

const Member* find_member(const std::vector<Member>& list, std::string_view key) {
  for (const Member& m : list) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

namespace detail {

json::Value::Type expect_type(const SourceFile& file, const std::string& path, json::Reader& reader,
                              json::Value::Type want, const char* described) {
  const json::Value::Type got = reader.peek();
  if (got == want) return got;
  const bool container = got == json::Value::Type::Object || got == json::Value::Type::Array;
  json::Value scalar;
  if (!container) scalar = reader.read_value();  // a number, a string or a literal: no tree
  const Field f(file.name, path, container ? nullptr : &scalar);
  f.fail("must be ", described, ", got ", container ? json::type_name(got) : f.shown());
}

}  // namespace detail

}  // namespace tp::import
