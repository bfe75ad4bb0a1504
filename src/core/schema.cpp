// The non-template half of schema.h: the process's naming, option names, number formatting and
// range messages.
#include "core/schema.h"

#include <cmath>
#include <cstdio>

namespace tp::schema {

namespace {
Naming g_naming = Naming::Snake;
}

Naming naming() { return g_naming; }
void set_naming(Naming n) { g_naming = n; }

const char* type_name(Type type) {
  switch (type) {
    case Type::Int:
      return "int";
    case Type::Real:
      return "real";
    case Type::Flag:
      return "bool";
    case Type::Text:
      return "text";
    case Type::Choice:
      return "choice";
  }
  return "?";
}

std::string Meta::option() const {
  std::string out = "--";
  out += cli_name ? cli_name : name;
  for (char& c : out) {
    if (c == '_') c = '-';
  }
  return out;
}

namespace detail {

std::string list(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string number_text(double value) {
  char buf[32];
  if (std::floor(value) == value && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.9g", value);
  }
  return buf;
}

std::string quoted_characters(const char* alphabet) {
  std::string out;
  for (const char* c = alphabet; *c; ++c) {
    out += str_cat(c == alphabet ? "" : (c[1] ? ", " : " and "), "'", *c, "'");
  }
  return out;
}

std::string min_note_text(double min, const char* note) {
  const std::string value = number_text(min);
  if (std::string(note).compare(0, value.size(), value) == 0) return note;
  return str_cat(value, ": ", note);
}

std::string range_message(const char* key, double value, double min, double max, bool min_open, bool max_open,
                          const char* min_note, bool unbounded) {
  const std::string low = min_note ? str_cat(number_text(min), " (", min_note, ")") : number_text(min);
  if (unbounded) return str_cat(key, " = ", number_text(value), " must be ", min_open ? "> " : ">= ", low);
  std::string allowed;
  if (min_open || max_open) {
    allowed = str_cat(low, min_open ? " < " : " <= ", key, max_open ? " < " : " <= ", number_text(max));
  } else {
    allowed = str_cat(low, " .. ", number_text(max));
  }
  return str_cat(key, " = ", number_text(value), " is out of range; allowed: ", allowed);
}

std::int64_t read_int(const json::Value& v, const std::string& what) { return v.as_int(what); }

double read_real(const json::Value& v, const std::string& what) { return v.as_number(what); }

}  // namespace detail

}  // namespace tp::schema
