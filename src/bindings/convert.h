// Conversions between the core's types and JavaScript values, for the bindings only.
//
// Arrays cross as fresh copies (never views into the wasm heap), because a view dies silently
// the next time the heap grows; every returned Float32Array/Int32Array is the caller's to keep.
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

#include "core/json.h"
#include "core/tensor.h"
#include "tokenize/tokenizer.h"

namespace tp::bindings {

using emscripten::val;

val float_array(const float* data, std::size_t n);              // a new Float32Array copy
val int_array(const int* data, std::size_t n);                  // a new Int32Array copy
val tensor_value(const Tensor& t);                              // { shape: number[], data: Float32Array }
val json_to_val(const json::Value& v);                          // plain JS value
std::vector<int> ids_from(const val& array, const char* what);  // from an array / typed array of ints
// A whole number in [min, max] from a JS number. Bound functions take integers as double and
// narrow them here, so 2**32 + 1 is refused with its own value instead of wrapping to 1 in
// Embind's int conversion.
int bounded_int(double value, const char* what, int min, int max);
// { ids: Int32Array, tokens: string[], spans: Int32Array (UTF-16 [begin, end) pairs),
//   byteSpans: Int32Array }
val encoding_value(const Encoding& e);
// { sos, eos, pad, unk, cls, mask }: each an id, or null where the tokenizer has none.
val specials_value(const SpecialTokens& s);

}  // namespace tp::bindings
