// Model checkpoints: a Transformer (plus its tokenizer and task name) as one safetensors file.
//
// The layout, the tensor names and the metadata keys are in docs/FORMAT.md. Saving writes the
// parameters in the model's registration order with the config and tokenizer as JSON metadata;
// loading rebuilds the model from the config alone and accepts the file only when its tensors
// are exactly the ones that config registers, with the same shapes, so a loaded model can never
// run with a parameter that is missing, misshapen or silently ignored. Every problem is a
// tp::Error naming the tensor, key or field and what was expected, and a failed load has no
// side effects. Everything works on bytes, so the browser (no file system) uses the same code;
// the CLI streams the file instead (load_checkpoint_file), and io/files.h is the file layer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <vector>

#include "io/checkpoint_checks.h"
#include "io/files.h"
#include "model/transformer.h"
#include "tokenize/tokenizer.h"

namespace tp {

constexpr const char* kCheckpointFormat = "transformer-playground";
constexpr const char* kCheckpointFormatVersion = "1";

// The checkpoint bytes of `model`, with `tokenizer` (optional; its vocab_size must equal the
// config's) and `task` (stored only when non-empty).
std::string save_checkpoint(const Transformer& model, const Tokenizer* tokenizer, const std::string& task);

struct LoadedCheckpoint {
  std::unique_ptr<Transformer> model;
  std::unique_ptr<Tokenizer> tokenizer;  // null when the file has none
  std::string task;                      // empty when the file has none
  // What was accepted but may not be what the file meant: unknown metadata keys, and weights
  // that are not finite when options.allow_non_finite let them in (checkpoint_checks.h).
  std::vector<std::string> warnings;
};

// Validates and loads checkpoint bytes (tp::Error on anything malformed; see docs/FORMAT.md).
// Weights that are NaN or infinite are refused unless options.allow_non_finite.
LoadedCheckpoint load_checkpoint(std::string_view bytes, const LoadOptions& options = {});

// The same from the file at `path`, for the CLI: the header is read first, so a model above the
// parameter limit is refused from its config before any weight is read or allocated; then each
// tensor is read straight from the file into the model's parameters (no copy of the file).
LoadedCheckpoint load_checkpoint_file(const std::string& path, const LoadOptions& options = {});

// The largest checkpoint: the length field, the largest header and the parameter limit.
std::uint64_t max_checkpoint_bytes();
// read_file (io/files.h) bounded by the largest checkpoint.
inline std::string read_file(const std::string& path) { return read_file(path, max_checkpoint_bytes()); }

}  // namespace tp
