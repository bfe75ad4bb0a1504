// Schema: a struct's fields described once — name, type, range, default, one-line doc — and
// everything that reads or writes the struct derived from that one description: JSON in and
// out, range checks with messages that name the field, the command line's options and --help,
// and the table the JavaScript API, its TypeScript types and the playground's controls are
// generated from (scripts/generate.mjs).
//
// A described struct has one static member template listing its fields in order:
//
//   template <typename Self, typename Visit>
//   static void fields(Self& self, Visit&& visit) {
//     visit(schema::Int("d_model", "dModel", 1, 4096, "width of the residual stream"), self.d_model);
//     visit(schema::Choice("pos", "pos", kPosKindNames, "how positions enter the model"), self.pos);
//   }
//
// `Self` is the struct or its const form, so one list serves readers and writers. The default of
// a field is its value in a default-constructed struct. Checks that relate two fields (n_heads
// divides d_model, ...) stay in the struct's own validate(); name_of() gives them the fields'
// names, so every message uses the names its reader knows.
//
// Names: `name` is snake_case (JSON files, checkpoints, the native messages), `js` is the
// JavaScript API's camelCase, and the command line uses `--kebab-case` of `name` unless the
// field gives a `cli` name of its own. naming() says which of the first two this process's
// messages use: the wasm bindings switch it to camelCase once at start-up.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/enum_names.h"
#include "core/error.h"
#include "core/json.h"

namespace tp::schema {

enum class Naming { Snake, Camel };
Naming naming();
void set_naming(Naming naming);

enum class Type { Int, Real, Flag, Text, Choice };
const char* type_name(Type type);  // "int", "real", "bool", "text", "choice"

// What every field has. Specs are built as temporaries in fields(), with chained setters for
// the rarer parts: Int("beam", ...).note("no beam search"), Int("total_steps", ...).cli("steps").
struct Meta {
  const char* name;
  const char* js;
  const char* doc;
  const char* cli_name = nullptr;  // the command line's word where it differs from `name`
  const char* key(Naming n) const { return n == Naming::Camel ? js : name; }
  const char* key() const { return key(naming()); }
  std::string option() const;  // "--d-model"
};

template <typename Spec>
struct Named : Meta {
  Named(const char* name, const char* js, const char* doc) : Meta{name, js, doc} {}
  Spec cli(const char* word) const {
    Spec s = static_cast<const Spec&>(*this);
    s.cli_name = word;
    return s;
  }
};

// A whole number in [min, max]; max = kUnbounded means no upper limit. `note` explains the
// smallest value ("0 keeps every token") in messages and help.
inline constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();
struct Int : Named<Int> {
  std::int64_t min, max;
  const char* min_note = nullptr;
  Int(const char* name, const char* js, std::int64_t min, std::int64_t max, const char* doc)
      : Named(name, js, doc), min(min), max(max) {}
  Int note(const char* text) const {
    Int s = *this;
    s.min_note = text;
    return s;
  }
  static constexpr Type type = Type::Int;
};

// A finite number in [min, max], either end open (min < x, x < max) where asked.
inline constexpr double kNoMax = std::numeric_limits<double>::max();
struct Real : Named<Real> {
  double min, max;
  bool min_open = false, max_open = false;
  const char* min_note = nullptr;
  Real(const char* name, const char* js, double min, double max, const char* doc)
      : Named(name, js, doc), min(min), max(max) {}
  Real open_min() const {
    Real s = *this;
    s.min_open = true;
    return s;
  }
  Real open_max() const {
    Real s = *this;
    s.max_open = true;
    return s;
  }
  Real note(const char* text) const {
    Real s = *this;
    s.min_note = text;
    return s;
  }
  static constexpr Type type = Type::Real;
};

struct Flag : Named<Flag> {
  Flag(const char* name, const char* js, const char* doc) : Named(name, js, doc) {}
  static constexpr Type type = Type::Flag;
};

// Text, optionally limited to the characters of `alphabet` and `max_len` bytes.
struct Text : Named<Text> {
  const char* alphabet;
  std::size_t max_len;
  Text(const char* name, const char* js, const char* alphabet, std::size_t max_len, const char* doc)
      : Named(name, js, doc), alphabet(alphabet), max_len(max_len) {}
  static constexpr Type type = Type::Text;
};

// One of an enum's names. `parse`, when given, reads the text instead of the table lookup, so an
// enum with a parser of its own keeps that parser's messages.
template <typename E>
struct Choice : Named<Choice<E>> {
  const EnumName<E>* names;
  std::size_t count;
  E (*parse)(std::string_view) = nullptr;
  template <std::size_t N>
  Choice(const char* name, const char* js, const EnumName<E> (&table)[N], const char* doc)
      : Named<Choice<E>>(name, js, doc), names(table), count(N) {}
  Choice parser(E (*fn)(std::string_view)) const {
    Choice s = *this;
    s.parse = fn;
    return s;
  }
  static constexpr Type type = Type::Choice;
  std::vector<std::string> choices() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count; ++i) out.emplace_back(names[i].name);
    return out;
  }
};

// ---- the generic operations ---------------------------------------------------------------------

namespace detail {

std::string list(const std::vector<std::string>& items);  // "a, b, c"
std::string number_text(double value);                    // 1e-05, 4096, 0.5
std::string quoted_characters(const char* alphabet);      // "'L' and 'G'"
// What the smallest value means, with the value: "0 turns clipping off", "1: no beam search".
std::string min_note_text(double min, const char* note);
// "x = 5 is out of range; allowed: 1 .. 4" and its friends.
std::string range_message(const char* key, double value, double min, double max, bool min_open, bool max_open,
                          const char* min_note, bool unbounded);
std::int64_t read_int(const json::Value& v, const std::string& what);
double read_real(const json::Value& v, const std::string& what);

template <typename F, typename V>
json::Value value_json(const F& field, const V& value) {
  if constexpr (std::is_enum_v<V>) {
    return json::Value(enum_name(field.names, field.count, value));
  } else if constexpr (std::is_same_v<V, bool> || std::is_same_v<V, std::string>) {
    return json::Value(value);
  } else if constexpr (std::is_floating_point_v<V>) {
    return json::Value(json::shortest(value));
  } else {
    return json::Value(static_cast<std::int64_t>(value));
  }
}

template <typename F, typename V>
void read_value(const F& field, V& value, const json::Value& v, const std::string& what) {
  if constexpr (std::is_enum_v<V>) {
    const std::string& text = v.as_string(what);
    if (field.parse) {
      value = field.parse(text);
      return;
    }
    for (std::size_t i = 0; i < field.count; ++i) {
      if (text == field.names[i].name) {
        value = field.names[i].value;
        return;
      }
    }
    TP_FAIL(what, " is '", text, "'; allowed: ", list(field.choices()));
  } else if constexpr (std::is_same_v<V, bool>) {
    value = v.as_bool(what);
  } else if constexpr (std::is_same_v<V, std::string>) {
    value = v.as_string(what);
  } else if constexpr (std::is_floating_point_v<V>) {
    value = static_cast<V>(read_real(v, what));
  } else {
    const std::int64_t i = read_int(v, what);
    // The field's own range decides validity (check()); here only what the type can hold.
    // An unbounded field is still bounded by its type: the message gives that bound, never kUnbounded.
    const std::int64_t type_max = std::is_unsigned_v<V> && sizeof(V) >= sizeof(std::int64_t)
                                      ? std::numeric_limits<std::int64_t>::max()
                                      : static_cast<std::int64_t>(std::numeric_limits<V>::max());
    TP_CHECK(i >= static_cast<std::int64_t>(std::numeric_limits<V>::min()) && i <= type_max, what, " = ", i,
             " is out of range; allowed: ", field.min, " .. ", std::min(field.max, type_max));
    value = static_cast<V>(i);
  }
}

}  // namespace detail

// The struct as a JSON object, every field, keys per `naming`.
template <typename S>
json::Value to_json(const S& s, Naming names = Naming::Snake) {
  json::Value out = json::Value::object();
  S::fields(s,
            [&](const auto& field, const auto& value) { out.set(field.key(names), detail::value_json(field, value)); });
  return out;
}

// Reads the members of `value` (keys per `naming`) over `s`. Unknown keys and wrong types are
// errors naming `what` ("config field", "training option") and listing the allowed keys. Ranges
// are check()'s job, so a struct can be read first and checked as a whole.
template <typename S>
void from_json(S& s, const json::Value& value, const char* what, Naming names = Naming::Snake) {
  for (const auto& member : value.as_object(what)) {
    const std::string& key = member.first;  // (named: clang 14 cannot capture structured bindings)
    const json::Value& item = member.second;
    bool found = false;
    S::fields(s, [&](const auto& field, auto& target) {
      if (found || key != field.key(names)) return;
      found = true;
      detail::read_value(field, target, item, str_cat(what, " '", key, "'"));
    });
    if (!found) {
      std::vector<std::string> allowed;
      S::fields(s, [&](const auto& field, const auto&) { allowed.emplace_back(field.key(names)); });
      TP_FAIL("unknown ", what, " '", key, "'; allowed: ", detail::list(allowed));
    }
  }
}

// Every field within its range, choices or alphabet; tp::Error naming the first that is not.
template <typename S>
void check(const S& s) {
  S::fields(s, [](const auto& field, const auto& value) {
    using F = std::decay_t<decltype(field)>;
    if constexpr (F::type == Type::Int) {
      const double v = static_cast<double>(value);
      if (v < static_cast<double>(field.min) || (field.max != kUnbounded && v > static_cast<double>(field.max))) {
        throw Error(detail::range_message(field.key(), v, static_cast<double>(field.min),
                                          static_cast<double>(field.max), false, false, field.min_note,
                                          field.max == kUnbounded));
      }
    } else if constexpr (F::type == Type::Real) {
      const double v = value;
      const bool low = field.min_open ? !(v > field.min) : !(v >= field.min);
      const bool high = field.max_open ? !(v < field.max) : !(v <= field.max);
      if (low || high || !std::isfinite(v)) {
        throw Error(detail::range_message(field.key(), v, field.min, field.max, field.min_open, field.max_open,
                                          field.min_note, field.max == kNoMax));
      }
    } else if constexpr (F::type == Type::Text) {
      TP_CHECK(value.size() <= field.max_len, field.key(), " is ", value.size(), " characters long; allowed: at most ",
               field.max_len);
      if (field.alphabet) {
        for (char c : value) {
          TP_CHECK(std::string(field.alphabet).find(c) != std::string::npos, field.key(), " '", value,
                   "' may only contain ", detail::quoted_characters(field.alphabet));
        }
      }
    }
  });
}

// The name (per naming()) of the field stored at `member`, which must be a field of `s`; for
// messages about how two fields relate.
template <typename S, typename M>
const char* name_of(const S& s, const M& member) {
  const char* found = nullptr;
  S::fields(s, [&](const auto& field, const auto& value) {
    if (static_cast<const void*>(&value) == static_cast<const void*>(&member)) found = field.key();
  });
  TP_ASSERT(found != nullptr);
  return found;
}

// The table a generator or a --help page reads: [{ name, js, cli, type, default, min?, max?,
// minOpen?, maxOpen?, choices?, alphabet?, maxLength?, doc }] with the defaults of S{}.
template <typename S>
json::Value describe() {
  const S defaults{};
  json::Value out = json::Value::array();
  S::fields(defaults, [&](const auto& field, const auto& value) {
    using F = std::decay_t<decltype(field)>;
    json::Value f = json::Value::object();
    f.set("name", field.name);
    f.set("js", field.js);
    f.set("cli", field.option().substr(2));
    f.set("type", type_name(F::type));
    f.set("default", detail::value_json(field, value));
    if constexpr (F::type == Type::Int) {
      f.set("min", static_cast<std::int64_t>(field.min));
      if (field.max != kUnbounded) f.set("max", static_cast<std::int64_t>(field.max));
      if (field.min_note) f.set("minNote", field.min_note);
    } else if constexpr (F::type == Type::Real) {
      f.set("min", field.min);
      if (field.max != kNoMax) f.set("max", field.max);
      f.set("minOpen", field.min_open);
      f.set("maxOpen", field.max_open);
      if (field.min_note) f.set("minNote", field.min_note);
    } else if constexpr (F::type == Type::Choice) {
      json::Value choices = json::Value::array();
      for (const std::string& c : field.choices()) choices.push(c);
      f.set("choices", choices);
    } else if constexpr (F::type == Type::Text) {
      if (field.alphabet) f.set("alphabet", field.alphabet);
      f.set("maxLength", static_cast<std::int64_t>(field.max_len));
    }
    f.set("doc", field.doc);
    out.push(std::move(f));
  });
  return out;
}

// ---- the command line ---------------------------------------------------------------------------

// Sets the field whose option is `option` (without "--") from its text; false when S has no such
// option. tp::Error when the text is not of the field's type.
template <typename S>
bool set_option(S& s, const std::string& option, const std::string& text) {
  bool found = false;
  S::fields(s, [&](const auto& field, auto& target) {
    if (found || field.option().substr(2) != option) return;
    found = true;
    using F = std::decay_t<decltype(field)>;
    if constexpr (F::type == Type::Flag) {
      TP_CHECK(text == "true" || text == "false", "--", option, " expects true or false, got '", text, "'");
      target = text == "true";
    } else if constexpr (F::type == Type::Text || F::type == Type::Choice) {
      detail::read_value(field, target, json::Value(text), "--" + option);
    } else {
      json::Value number;
      try {
        number = json::parse(text);
      } catch (const Error&) {
      }
      TP_CHECK(number.is_number(), "--", option, " expects ", F::type == Type::Int ? "a whole number" : "a number",
               ", got '", text, "'");
      detail::read_value(field, target, number, "--" + option);
    }
  });
  return found;
}

// The options of S (without "--"), in field order.
template <typename S>
std::vector<std::string> option_names() {
  std::vector<std::string> out;
  const S s{};
  S::fields(s, [&](const auto& field, const auto&) { out.push_back(field.option().substr(2)); });
  return out;
}

// Two-column --help lines for S's options: "  --d-model N        width of ... (default 64, 1 .. 4096)".
// Without `defaults` the lines give the range only (for options whose defaults come from elsewhere,
// such as a task's). Options in `skip` are left out.
template <typename S>
std::string help(const S* defaults, const std::vector<std::string>& skip = {}) {
  const S fallback{};
  std::string out;
  S::fields(defaults ? *defaults : fallback, [&](const auto& field, const auto& value) {
    using F = std::decay_t<decltype(field)>;
    for (const std::string& s : skip) {
      if (field.option() == "--" + s) return;
    }
    std::string left = field.option();
    std::string range;
    if constexpr (F::type == Type::Int) {
      left += " N";
      range = field.max == kUnbounded ? str_cat(", >= ", field.min) : str_cat(", ", field.min, " .. ", field.max);
    } else if constexpr (F::type == Type::Real) {
      left += " X";
      const std::string lo = detail::number_text(field.min), hi = detail::number_text(field.max);
      if (field.max == kNoMax) {
        range = str_cat(field.min_open ? ", > " : ", >= ", lo);
      } else if (field.min_open || field.max_open) {
        range = str_cat(", ", lo, field.min_open ? " < x " : " <= x ", field.max_open ? "< " : "<= ", hi);
      } else {
        range = str_cat(", ", lo, " .. ", hi);
      }
    } else if constexpr (F::type == Type::Flag) {
      left += " true|false";
    } else if constexpr (F::type == Type::Choice) {
      std::string joined;
      for (const std::string& c : field.choices()) joined += (joined.empty() ? "" : "|") + c;
      left += " " + joined;
    } else {
      left += " TEXT";
    }
    std::string shown;
    if (defaults) {
      const json::Value d = detail::value_json(field, value);
      shown = d.is_string() ? d.as_string() : d.dump();
      if (shown.empty()) shown = "\"\"";
      shown = "default " + shown;
    }
    if constexpr (F::type == Type::Int || F::type == Type::Real) {
      if (field.min_note) range += str_cat("; ", detail::min_note_text(field.min, field.min_note));
    }
    const std::string note = range.empty() ? shown : (shown.empty() ? range.substr(2) : shown + range);
    const std::size_t pad = left.size() < 30 ? 30 - left.size() : 1;
    out += str_cat("  ", left, std::string(pad, ' '), field.doc, note.empty() ? "" : " (" + note + ")", "\n");
  });
  return out;
}

}  // namespace tp::schema
