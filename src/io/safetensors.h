// safetensors: reading and writing the file format checkpoints use (docs/FORMAT.md).
//
//   1. 8 bytes: N, the header length, unsigned little-endian 64-bit (at most 100 MB).
//   2. N bytes: a UTF-8 JSON object. `__metadata__` (optional) maps strings to strings; every
//      other key names a tensor: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]},
//      offsets relative to the first byte after the header. Writers pad it with spaces to a
//      multiple of 8 so the data section starts 8-byte aligned.
//   3. The data section: each tensor's little-endian values, row-major.
//
// The reader takes untrusted bytes (a file the user dropped on the page), so SafetensorsView
// validates everything before any accessor is usable and throws tp::Error naming what was wrong
// and what is allowed. As upstream requires, the tensors must tile the data section exactly (no
// overlaps, gaps or trailing bytes), so every byte of a file is accounted for and a truncated
// file cannot pass. Header order is free; entries() lists tensors in data order. The dtypes are
// F32, F16, BF16, I32 and I64 (checkpoints use F32 only; imported models may be F16 or BF16,
// widened to F32 on reading); anything else is refused rather than skipped.
// This file knows nothing about models; checkpoint.h adds the model layer on top.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tp {

// The largest header a reader accepts (the upstream limit): a header is a table of names,
// so anything bigger is a corrupt length field, not a real file.
constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100ULL * 1000 * 1000;

// Ordered key/value strings: `__metadata__` keeps the order it was written in.
using SafetensorsMetadata = std::vector<std::pair<std::string, std::string>>;

struct SafetensorsEntry {
  std::string name;
  std::string dtype;                // "F32", "F16", "BF16", "I32" or "I64" (safetensors_dtype_size)
  std::vector<std::int64_t> shape;  // may be empty (a scalar)
  std::size_t offset = 0;           // into the data section, in bytes
  std::size_t nbytes = 0;
  std::int64_t numel() const;
};

// Bytes per element of a dtype the reader supports, 0 for any other.
std::size_t safetensors_dtype_size(std::string_view dtype);
// "[2, 3]" for error messages.
std::string shape_string(const std::vector<std::int64_t>& shape);

// What a reader that knows what to expect allows (an importer: the tensors its config implies).
// The header is read entry by entry, so a file with more tensors is refused at the first one too
// many, before it costs memory or time.
// check_metadata runs on `__metadata__` (when the header has one) before any tensor entry is checked
// against the data: a checkpoint's config is judged first, so a file cut short after the header
// of a model above the limit is refused as too big, not as truncated.
struct SafetensorsLimits {
  std::size_t max_tensors = static_cast<std::size_t>(-1);
  std::string why;  // why that many, for the message ("config.json implies 29 tensors")
  std::function<void(const SafetensorsMetadata&)> check_metadata;
};

// A validated view of safetensors bytes. It does not copy the data: the bytes passed to the
// constructor must outlive the view.
class SafetensorsView {
 public:
  explicit SafetensorsView(std::string_view bytes, const SafetensorsLimits& limits = {});
  // The header alone: `head` is the start of a file of file_size bytes holding at least the
  // length field and the header. Every check is made against the file's size; raw, copy_floats
  // and count_non_finite need the data and refuse (a reader streams it from the file instead).
  SafetensorsView(std::string_view head, std::uint64_t file_size, const SafetensorsLimits& limits = {});

  const SafetensorsMetadata& metadata() const { return metadata_; }
  const std::string* find_metadata(std::string_view key) const;              // null when absent
  const std::vector<SafetensorsEntry>& entries() const { return entries_; }  // data order
  const SafetensorsEntry* find(std::string_view name) const;                 // null when absent
  const SafetensorsEntry& at(std::string_view name) const;                   // tp::Error when absent
  std::size_t header_size() const { return header_size_; }                   // N
  std::size_t data_size() const { return data_size_; }

  // The raw little-endian bytes of a tensor.
  std::string_view raw(const SafetensorsEntry& entry) const;
  // The values of an F32 tensor, decoded on any host (tp::Error for another dtype).
  std::vector<float> float_data(std::string_view name) const;
  // Same, into caller memory of entry.numel() floats (checkpoints decode straight into the slab).
  void copy_floats(const SafetensorsEntry& entry, float* out) const;
  // How many values of an F32, F16 or BF16 tensor are NaN or infinite, read from the bytes in
  // place (nothing is decoded into memory), with the index and value of the first.
  std::size_t count_non_finite(const SafetensorsEntry& entry, std::size_t& first_at, float& first_value) const;

 private:
  void read_header(std::string_view head, std::uint64_t file_size, const SafetensorsLimits& limits);
  void require_data() const;
  std::string_view data_;
  bool has_data_ = false;
  std::size_t data_size_ = 0;
  std::size_t header_size_ = 0;
  SafetensorsMetadata metadata_;
  std::vector<SafetensorsEntry> entries_;
};

// One tensor to write: values are f32 in host order, written little-endian.
struct SafetensorsTensor {
  std::string name;
  std::vector<std::int64_t> shape;
  const float* data = nullptr;  // ∏shape floats
};

// The bytes of a safetensors file holding `tensors` back to back in the given order, with
// `metadata` as `__metadata__` (omitted when empty). Names must be unique and not
// `__metadata__`; the header is padded with spaces to a multiple of 8 bytes.
std::string write_safetensors(const std::vector<SafetensorsTensor>& tensors, const SafetensorsMetadata& metadata);

}  // namespace tp
