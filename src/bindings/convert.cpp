// Copies between wasm memory and JS values; see convert.h.
#include "bindings/convert.h"

#include <cmath>

#include "core/error.h"
#include "core/schema.h"

namespace tp::bindings {

val float_array(const float* data, std::size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}

val int_array(const int* data, std::size_t n) { return val(emscripten::typed_memory_view(n, data)).call<val>("slice"); }

val tensor_value(const Tensor& t) {
  val out = val::object();
  val shape = val::array();
  for (int d = 0; d < t.dim(); ++d) shape.call<void>("push", t.size(d));
  out.set("shape", shape);
  out.set("data", float_array(t.data(), static_cast<std::size_t>(t.numel())));
  return out;
}

val json_to_val(const json::Value& v) {
  switch (v.type()) {
    case json::Value::Type::Null:
      return val::null();
    case json::Value::Type::Bool:
      return val(v.as_bool());
    case json::Value::Type::Number:
      return val(v.as_number());
    case json::Value::Type::String:
      return val(v.as_string());
    case json::Value::Type::Array: {
      val a = val::array();
      for (const json::Value& item : v.as_array()) a.call<void>("push", json_to_val(item));
      return a;
    }
    case json::Value::Type::Object: {
      val o = val::object();
      for (const auto& [k, item] : v.as_object()) o.set(k, json_to_val(item));
      return o;
    }
  }
  return val::undefined();
}

std::vector<int> ids_from(const val& array, const char* what) {
  TP_CHECK(array.isArray() || array.instanceof (val::global("Int32Array")) || array.instanceof
           (val::global("Uint32Array")), what, " must be an array of token ids");
  const int n = array["length"].as<int>();
  std::vector<int> ids(n);
  for (int i = 0; i < n; ++i) {
    const val item = array[i];
    TP_CHECK(item.isNumber(), what, "[", i, "] is not a number");
    const double d = item.as<double>();
    TP_CHECK(std::floor(d) == d && d >= 0 && d < 2147483647.0, what, "[", i, "] = ", d,
             " is not a token id (a whole number >= 0)");
    ids[i] = static_cast<int>(d);
  }
  return ids;
}

int bounded_int(double value, const char* what, int min, int max) {
  TP_CHECK(std::floor(value) == value, what, " must be a whole number, got ", schema::detail::number_text(value));
  TP_CHECK(value >= min && value <= max, what, " = ", schema::detail::number_text(value),
           " is out of range; allowed: ", min, " .. ", max);
  return static_cast<int>(value);
}

val encoding_value(const Encoding& e) {
  val out = val::object();
  out.set("ids", int_array(e.ids.data(), e.ids.size()));
  val tokens = val::array();
  for (const std::string& t : e.tokens) tokens.call<void>("push", t);
  out.set("tokens", tokens);
  std::vector<int> spans, bytes;
  for (std::size_t i = 0; i < e.ids.size(); ++i) {
    spans.push_back(e.utf16_spans[i].begin);
    spans.push_back(e.utf16_spans[i].end);
    bytes.push_back(e.byte_spans[i].begin);
    bytes.push_back(e.byte_spans[i].end);
  }
  out.set("spans", int_array(spans.data(), spans.size()));
  out.set("byteSpans", int_array(bytes.data(), bytes.size()));
  return out;
}

val specials_value(const SpecialTokens& s) {
  val out = val::object();
  const auto id = [](int v) { return v >= 0 ? val(v) : val::null(); };
  out.set("sos", id(s.sos));
  out.set("eos", id(s.eos));
  out.set("pad", id(s.pad));
  out.set("unk", id(s.unk));
  out.set("cls", id(s.cls));
  out.set("mask", id(s.mask));
  return out;
}

}  // namespace tp::bindings
