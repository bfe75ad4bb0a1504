// safetensors validation, decoding and writing; see safetensors.h for the layout and the rules.
#include "io/safetensors.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.h"
#include "core/json.h"
#include "core/json_reader.h"
#include "core/text_escape.h"
#include "core/utf8.h"

namespace tp {

namespace {

constexpr const char* kAllowedDtypes = "F32, F16, BF16, I32, I64";
constexpr const char* kEntryFields = "dtype, shape, data_offsets";
constexpr std::size_t kMaxEntryBytes = 64 * 1024;  // an entry of 64 dimensions takes about 1.5 KB

bool host_is_little_endian() {
  const std::uint32_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

std::uint64_t read_u64_le(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

// A JSON number that is an exact non-negative integer, or a tp::Error saying which field.
std::int64_t non_negative_int(const json::Value& v, const std::string& what) {
  TP_CHECK(v.is_number(), what, " must be a non-negative integer, got ", json::type_name(v.type()));
  const double d = v.as_number();
  TP_CHECK(d >= 0.0 && d < 9007199254740992.0 && std::floor(d) == d, what,
           " must be a non-negative integer below 2^53, got ", v.dump());
  return static_cast<std::int64_t>(d);
}

SafetensorsMetadata parse_metadata(const json::Value& value) {
  TP_CHECK(value.is_object(), "safetensors: '__metadata__' must be an object of strings, got ",
           json::type_name(value.type()));
  SafetensorsMetadata out;
  for (const auto& [key, v] : value.as_object()) {
    TP_CHECK(v.is_string(), "safetensors: '__metadata__' values must be strings, but ", quote(key), " is ",
             json::type_name(v.type()));
    out.emplace_back(key, v.as_string());
  }
  return out;
}

SafetensorsEntry parse_entry(const std::string& name, const json::Value& value, std::size_t data_size) {
  const std::string where = "safetensors: tensor " + quote(name);
  TP_CHECK(value.is_object(), where, " must be an object {", kEntryFields, "}, got ", json::type_name(value.type()));
  for (const auto& [key, v] : value.as_object()) {
    TP_CHECK(key == "dtype" || key == "shape" || key == "data_offsets", where, " has an unknown field ", quote(key),
             "; allowed: ", kEntryFields);
  }
  for (const char* field : {"dtype", "shape", "data_offsets"}) {
    TP_CHECK(value.find(field) != nullptr, where, " is missing the field '", field, "'; required: ", kEntryFields);
  }

  SafetensorsEntry e;
  e.name = name;
  const json::Value& dtype = value.at("dtype");
  TP_CHECK(dtype.is_string(), where, ": dtype must be a string, got ", json::type_name(dtype.type()));
  e.dtype = dtype.as_string();
  const std::size_t elem = safetensors_dtype_size(e.dtype);
  TP_CHECK(elem > 0, where, " has the unsupported dtype ", quote(e.dtype), "; supported: ", kAllowedDtypes);

  const json::Value& shape = value.at("shape");
  TP_CHECK(shape.is_array(), where, ": shape must be an array of non-negative integers, got ",
           json::type_name(shape.type()));
  // Elements are counted in bytes against the whole data section, so a product that would
  // overflow is caught as "too large" long before it can wrap.
  bool zero = false, too_large = false;
  std::uint64_t count = 1;
  for (std::size_t d = 0; d < shape.as_array().size(); ++d) {
    const std::int64_t dim = non_negative_int(shape.as_array()[d], str_cat(where, ": shape[", d, "]"));
    e.shape.push_back(dim);
    if (dim == 0) zero = true;
    if (too_large || zero) continue;
    if (static_cast<std::uint64_t>(dim) > (std::uint64_t{1} << 62) / count)
      too_large = true;
    else
      count *= static_cast<std::uint64_t>(dim);
    if (count > data_size) too_large = true;
  }
  if (zero) count = 0;
  TP_CHECK(zero || !too_large, where, " has shape ", shape_string(e.shape), ", more elements than the ", data_size,
           "-byte data section can hold");

  const json::Value& offsets = value.at("data_offsets");
  TP_CHECK(offsets.is_array() && offsets.as_array().size() == 2, where,
           ": data_offsets must be an array of two non-negative integers [begin, end], got ", offsets.dump());
  const std::int64_t begin = non_negative_int(offsets.as_array()[0], where + ": data_offsets[0]");
  const std::int64_t end = non_negative_int(offsets.as_array()[1], where + ": data_offsets[1]");
  TP_CHECK(begin <= end, where, " has data_offsets [", begin, ", ", end, "]; begin must not exceed end");
  TP_CHECK(static_cast<std::uint64_t>(end) <= data_size, where, " has data_offsets [", begin, ", ", end,
           "] past the end of the data section (", data_size, " bytes); the file may be truncated");
  const std::uint64_t expected = count * elem;
  TP_CHECK(static_cast<std::uint64_t>(end - begin) == expected, where, " has data_offsets [", begin, ", ", end,
           "] spanning ", end - begin, " bytes, but ", e.dtype, " with shape ", shape_string(e.shape), " needs ",
           expected, " bytes");
  e.offset = static_cast<std::size_t>(begin);
  e.nbytes = static_cast<std::size_t>(end - begin);
  return e;
}

}  // namespace

std::int64_t SafetensorsEntry::numel() const {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

std::size_t safetensors_dtype_size(std::string_view dtype) {
  if (dtype == "F32" || dtype == "I32") return 4;
  if (dtype == "F16" || dtype == "BF16") return 2;
  if (dtype == "I64") return 8;
  return 0;
}

std::string shape_string(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += str_cat(i ? ", " : "", shape[i]);
  return s + "]";
}

SafetensorsView::SafetensorsView(std::string_view bytes, const SafetensorsLimits& limits) {
  read_header(bytes, bytes.size(), limits);
  data_ = bytes.substr(8 + header_size_);
  has_data_ = true;
}

SafetensorsView::SafetensorsView(std::string_view head, std::uint64_t file_size, const SafetensorsLimits& limits) {
  read_header(head, file_size, limits);
}

void SafetensorsView::require_data() const {
  TP_ASSERT(has_data_);  // a header-only view has no values to read
}

void SafetensorsView::read_header(std::string_view bytes, std::uint64_t file_size, const SafetensorsLimits& limits) {
  TP_CHECK(file_size >= 8, "safetensors: the file is ", file_size,
           " bytes, shorter than the 8-byte header length that starts every safetensors file");
  TP_ASSERT(bytes.size() >= 8);
  const std::uint64_t n = read_u64_le(bytes.data());
  TP_CHECK(n <= kMaxSafetensorsHeaderBytes, "safetensors: the header length is ", n, " bytes, above the limit of ",
           kMaxSafetensorsHeaderBytes, " bytes (100 MB); the file is corrupt or not safetensors");
  TP_CHECK(n <= file_size - 8, "safetensors: the header length is ", n, " bytes, past the end of the file (",
           file_size - 8, " bytes follow the length field); the file is truncated or not safetensors");
  TP_ASSERT(bytes.size() >= 8 + n);
  header_size_ = static_cast<std::size_t>(n);
  const std::string_view header = bytes.substr(8, header_size_);
  data_size_ = static_cast<std::size_t>(file_size - 8 - n);

  TP_CHECK(utf8::is_valid(header), "safetensors: the header is not valid UTF-8");
  // Read entry by entry (json_reader.h): a tree of a 100 MB header would cost gigabytes, and a
  // reader with limits stops at the first tensor too many. The first pass checks the JSON (and
  // that no key repeats) and finds each entry's text; the second reads the entries.
  std::vector<std::pair<std::string, std::string_view>> members;
  try {
    json::Reader reader(header);
    TP_CHECK(reader.peek() == json::Value::Type::Object, "safetensors: the header must be a JSON object, got ",
             json::type_name(reader.peek()));
    reader.enter_object(true);
    std::string key;
    std::size_t tensors = 0;
    while (reader.next_key(key)) {
      if (key != "__metadata__" && tensors++ >= limits.max_tensors) {
        TP_FAIL("safetensors: the header lists more than ", limits.max_tensors, " tensors",
                limits.why.empty() ? "" : "; ", limits.why);
      }
      members.emplace_back(key, reader.skip());
    }
    reader.finish();
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind("safetensors:", 0) == 0) throw;
    TP_FAIL("safetensors: the header is ", what);  // "invalid JSON: expected ... at byte N"
  }
  for (const auto& [key, text] : members) {
    if (key != "__metadata__") continue;
    metadata_ = parse_metadata(json::parse(text));
    if (limits.check_metadata) limits.check_metadata(metadata_);
  }
  for (const auto& [key, text] : members) {
    if (key == "__metadata__") continue;
    TP_CHECK(text.size() <= kMaxEntryBytes, "safetensors: tensor ", quote(key), " is described by ", text.size(),
             " bytes of JSON; an entry {", kEntryFields, "} needs at most ", kMaxEntryBytes);
    json::Value entry;
    try {
      entry = json::parse(text);
    } catch (const Error& e) {
      TP_FAIL("safetensors: the header is ", e.what());  // a repeated key inside the entry
    }
    entries_.push_back(parse_entry(key, entry, data_size_));
  }

  // Coverage: sorted by position, each tensor must start exactly where the previous ended.
  // Empty tensors sit at a point and may share it, so ties keep header order.
  std::stable_sort(entries_.begin(), entries_.end(), [](const SafetensorsEntry& a, const SafetensorsEntry& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.offset + a.nbytes < b.offset + b.nbytes;
  });
  std::size_t cursor = 0;
  const SafetensorsEntry* previous = nullptr;
  for (const SafetensorsEntry& e : entries_) {
    TP_CHECK(e.offset >= cursor, "safetensors: tensors ", quote(previous ? previous->name : ""), " and ", quote(e.name),
             " overlap (bytes ", e.offset, "..", cursor, " of the data section); each byte belongs to one tensor");
    TP_CHECK(e.offset == cursor, "safetensors: a gap of ", e.offset - cursor, " unused bytes at offset ", cursor,
             " of the data section, before tensor ", quote(e.name), "; tensors must be packed back to back");
    cursor = e.offset + e.nbytes;
    previous = &e;
  }
  TP_CHECK(cursor == data_size_, "safetensors: ", data_size_ - cursor,
           " trailing bytes after the last tensor (the data section is ", data_size_, " bytes, tensors cover ", cursor,
           "); tensors must cover the data section exactly");
}

const std::string* SafetensorsView::find_metadata(std::string_view key) const {
  for (const auto& [k, v] : metadata_) {
    if (k == key) return &v;
  }
  return nullptr;
}

const SafetensorsEntry* SafetensorsView::find(std::string_view name) const {
  for (const SafetensorsEntry& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const SafetensorsEntry& SafetensorsView::at(std::string_view name) const {
  const SafetensorsEntry* e = find(name);
  TP_CHECK(e != nullptr, "safetensors: no tensor named ", quote(name), " in the file");
  return *e;
}

std::string_view SafetensorsView::raw(const SafetensorsEntry& entry) const {
  require_data();
  return data_.substr(entry.offset, entry.nbytes);
}

std::vector<float> SafetensorsView::float_data(std::string_view name) const {
  const SafetensorsEntry& e = at(name);
  std::vector<float> out(static_cast<std::size_t>(e.numel()));
  copy_floats(e, out.data());
  return out;
}

namespace {

// IEEE half precision to single, exactly (every f16 value is an f32 value).
float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  std::uint32_t exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF, bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);  // inf, NaN
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    exponent = 113;
    while ((mantissa & 0x400) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3FF) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace

void SafetensorsView::copy_floats(const SafetensorsEntry& entry, float* out) const {
  const bool half = entry.dtype == "F16", bfloat = entry.dtype == "BF16";
  TP_CHECK(entry.dtype == "F32" || half || bfloat, "safetensors: tensor ", quote(entry.name), " has dtype ",
           entry.dtype, "; only F32, F16 and BF16 can be read as floats");
  require_data();
  if (entry.nbytes == 0) return;  // `out` may be null for an empty tensor; memcpy must not see it
  const char* src = data_.data() + entry.offset;
  if (half || bfloat) {  // widened to f32 exactly; the file is little-endian whatever the host
    for (std::size_t i = 0; i < entry.nbytes / 2; ++i) {
      const std::uint16_t v = static_cast<std::uint16_t>(static_cast<unsigned char>(src[2 * i]) |
                                                         (static_cast<unsigned char>(src[2 * i + 1]) << 8));
      if (half) {
        out[i] = half_to_float(v);
      } else {
        const std::uint32_t bits = static_cast<std::uint32_t>(v) << 16;
        std::memcpy(out + i, &bits, 4);
      }
    }
    return;
  }
  const std::size_t count = entry.nbytes / 4;
  if (host_is_little_endian()) {
    std::memcpy(out, src, entry.nbytes);  // the file's data may be unaligned; memcpy does not care
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t bits = 0;
    for (int b = 3; b >= 0; --b) bits = (bits << 8) | static_cast<unsigned char>(src[4 * i + b]);
    std::memcpy(out + i, &bits, 4);
  }
}

std::size_t SafetensorsView::count_non_finite(const SafetensorsEntry& entry, std::size_t& first_at,
                                              float& first_value) const {
  const bool half = entry.dtype == "F16", bfloat = entry.dtype == "BF16";
  TP_CHECK(entry.dtype == "F32" || half || bfloat, "safetensors: tensor ", quote(entry.name), " has dtype ",
           entry.dtype, "; only F32, F16 and BF16 can be read as floats");
  require_data();
  const unsigned char* src = reinterpret_cast<const unsigned char*>(data_.data() + entry.offset);
  const std::size_t width = half || bfloat ? 2 : 4, n = entry.nbytes / width;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* p = src + i * width;
    // All exponent bits set is infinity or NaN in each of the three formats.
    const bool non_finite = half     ? (p[1] & 0x7C) == 0x7C
                            : bfloat ? (p[1] & 0x7F) == 0x7F && (p[0] & 0x80) == 0x80
                                     : (p[3] & 0x7F) == 0x7F && (p[2] & 0x80) == 0x80;
    if (!non_finite) continue;
    if (bad++ == 0) {
      first_at = i;
      SafetensorsEntry one = entry;
      one.offset = entry.offset + i * width;
      one.nbytes = width;
      copy_floats(one, &first_value);
    }
  }
  return bad;
}

std::string write_safetensors(const std::vector<SafetensorsTensor>& tensors, const SafetensorsMetadata& metadata) {
  json::Value header = json::Value::object();
  if (!metadata.empty()) {
    json::Value meta = json::Value::object();
    for (const auto& [key, value] : metadata) {
      TP_CHECK(meta.find(key) == nullptr, "safetensors: duplicate metadata key '", key, "'");
      meta.set(key, value);
    }
    header.set("__metadata__", std::move(meta));
  }
  std::uint64_t offset = 0;
  for (const SafetensorsTensor& t : tensors) {
    TP_CHECK(t.name != "__metadata__", "safetensors: '__metadata__' cannot name a tensor");
    TP_CHECK(header.find(t.name) == nullptr, "safetensors: duplicate tensor name '", t.name, "'");
    std::uint64_t count = 1;
    json::Value shape = json::Value::array();
    for (std::int64_t d : t.shape) {
      TP_CHECK(d >= 0, "safetensors: tensor '", t.name, "' has a negative dimension in ", shape_string(t.shape));
      count *= static_cast<std::uint64_t>(d);
      shape.push(d);
    }
    TP_CHECK(count == 0 || t.data != nullptr, "safetensors: tensor '", t.name, "' has no data");
    const std::uint64_t end = offset + 4 * count;
    TP_CHECK(end < (std::uint64_t{1} << 53), "safetensors: the data would exceed 2^53 bytes");
    json::Value entry = json::Value::object();
    entry.set("dtype", "F32");
    entry.set("shape", std::move(shape));
    entry.set("data_offsets", json::Value::array({json::Value(static_cast<std::int64_t>(offset)),
                                                  json::Value(static_cast<std::int64_t>(end))}));
    header.set(t.name, std::move(entry));
    offset = end;
  }

  std::string head = header.dump();
  head.append((8 - head.size() % 8) % 8, ' ');  // the data section starts 8-byte aligned
  std::string out;
  out.reserve(8 + head.size() + static_cast<std::size_t>(offset));
  for (int i = 0; i < 8; ++i) out += static_cast<char>((static_cast<std::uint64_t>(head.size()) >> (8 * i)) & 0xFF);
  out += head;
  const bool little = host_is_little_endian();
  for (const SafetensorsTensor& t : tensors) {
    std::size_t count = 1;
    for (std::int64_t d : t.shape) count *= static_cast<std::size_t>(d);
    if (count == 0) continue;
    const char* p = reinterpret_cast<const char*>(t.data);
    if (little) {
      out.append(p, count * 4);
      continue;
    }
    for (std::size_t i = 0; i < count; ++i) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, t.data + i, 4);
      for (int b = 0; b < 4; ++b) out += static_cast<char>((bits >> (8 * b)) & 0xFF);
    }
  }
  return out;
}

}  // namespace tp
