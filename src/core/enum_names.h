// EnumName: an enum's values paired with the names they have in JSON, on the command line and in
// the JavaScript API. Each enum's table sits beside the enum, the one place its names are written.
#pragma once

#include <cstddef>

namespace tp {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `value` in `table` ("?" for a value the table lacks, which is a bug).
template <typename E>
const char* enum_name(const EnumName<E>* table, std::size_t count, E value) {
  for (std::size_t i = 0; i < count; ++i) {
    if (table[i].value == value) return table[i].name;
  }
  return "?";
}

template <typename E, std::size_t N>
const char* enum_name(const EnumName<E> (&table)[N], E value) {
  return enum_name(table, N, value);
}

}  // namespace tp
