// Embind registration of positionalTable: the core's own position tables (sinusoidal, RoPE's
// cos/sin, ALiBi's slopes and biases) for any size, for views that explain positions beyond
// what a model's trace holds. It only validates and converts: the numbers come from the nn
// functions the model itself uses, so a table here equals the model's bit for bit.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "bindings/convert.h"
#include "bindings/guard.h"
#include "core/error.h"
#include "core/schema.h"
#include "nn/embedding.h"
#include "nn/positional.h"

using emscripten::val;
using namespace tp::bindings;

namespace {

using tp::schema::detail::number_text;
constexpr int kMaxLen = 4096;   // the model's max_len limit
constexpr int kMaxSize = 4096;  // d_model's limit
constexpr int kMaxHeads = 64;
constexpr long long kMaxValues = 1LL << 22;  // 16 MB of floats per table

val shape_of(std::initializer_list<int> dims) {
  val shape = val::array();
  for (int d : dims) shape.call<void>("push", d);
  return shape;
}

// kind: sinusoidal | rope | alibi; size: the width (sinusoidal), the head size (rope, even) or
// the number of heads (alibi); base: the wavelength base (sinusoidal, rope).
// The sizes arrive as double and are narrowed by bounded_int (convert.h), so nothing wraps.
val positional_table(const std::string& kind, double max_len_value, double size_value, double base) {
  return guarded([&] {
    const int max_len = bounded_int(max_len_value, "maxLen", 1, kMaxLen);
    const double size_range = kind == "alibi" ? kMaxHeads : kMaxSize;  // narrowed only once within range:
    const int size = size_value >= -size_range && size_value <= size_range ? static_cast<int>(size_value) : -1;
    TP_CHECK(base > 1.0 && base <= 1e9, "base = ", base, " is out of range; allowed: more than 1, at most 1e9");
    val out = val::object();
    out.set("kind", kind);
    if (kind == "sinusoidal") {
      TP_CHECK(size >= 1 && size <= kMaxSize, "dim = ", number_text(size_value), " is out of range; allowed: 1 .. ",
               kMaxSize);
      TP_CHECK(static_cast<long long>(max_len) * size <= kMaxValues, "maxLen × dim = ", max_len, " × ", size,
               " is too large; at most ", kMaxValues, " values");
      const std::vector<float> table = tp::nn::sinusoidal_table(max_len, size, base);
      out.set("shape", shape_of({max_len, size}));
      out.set("data", float_array(table.data(), table.size()));
    } else if (kind == "rope") {
      TP_CHECK(size >= 2 && size <= kMaxSize && size % 2 == 0, "dim = ", number_text(size_value),
               " must be an even head size from 2 to ", kMaxSize, " (RoPE rotates pairs of dimensions)");
      TP_CHECK(static_cast<long long>(max_len) * size <= kMaxValues, "maxLen × dim = ", max_len, " × ", size,
               " is too large; at most ", kMaxValues, " values");
      const tp::nn::RopeTable table = tp::nn::RopeTable::create(max_len, size, base);
      out.set("shape", shape_of({max_len, table.half}));
      out.set("cos", float_array(table.cos.data(), table.cos.size()));
      out.set("sin", float_array(table.sin.data(), table.sin.size()));
    } else if (kind == "alibi") {
      TP_CHECK(size >= 1 && size <= kMaxHeads, "heads = ", number_text(size_value), " is out of range; allowed: 1 .. ",
               kMaxHeads);
      TP_CHECK(static_cast<long long>(max_len) * max_len * size <= kMaxValues, "heads × maxLen² = ", size, " × ",
               max_len, "² is too large; at most ", kMaxValues, " values");
      const std::vector<float> slopes = tp::nn::alibi_slopes(size);
      std::vector<float> bias(static_cast<std::size_t>(size) * max_len * max_len);
      for (int h = 0; h < size; ++h) {
        for (int t = 0; t < max_len; ++t) {
          for (int u = 0; u < max_len; ++u)
            bias[(static_cast<std::size_t>(h) * max_len + t) * max_len + u] = tp::nn::alibi_bias(slopes[h], t, u);
        }
      }
      out.set("shape", shape_of({size, max_len, max_len}));
      out.set("slopes", float_array(slopes.data(), slopes.size()));
      out.set("data", float_array(bias.data(), bias.size()));
    } else {
      TP_FAIL("kind = '", kind, "' has no table here; allowed: sinusoidal, rope, alibi");
    }
    return out;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tp_positional) { emscripten::function("positionalTable", &positional_table); }
