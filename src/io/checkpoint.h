// Model checkpoints: a Transformer (plus its tokenizer and task name) as one safetensors file.
//
// The layout, the tensor names and the metadata keys are in docs/FORMAT.md. Saving writes the
// parameters in the model's registration order with the config and tokenizer as JSON metadata;
// loading rebuilds the model from the config alone and accepts the file only when its tensors
// are exactly the ones that config registers, with the same shapes, so a loaded model can never
// run with a parameter that is missing, misshapen or silently ignored. Every problem is a
// tp::Error naming the tensor, key or field and what was expected, and a failed load has no
// side effects. Everything works on bytes, so the browser (no file system) uses the same code;
// read_file/write_file are the thin file layer for the CLI and the tests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <vector>

#include "io/checkpoint_checks.h"
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

// Whole-file helpers for the CLI and the tests. Errors name the path and the operating system's
// reason. write_file writes `path`.tmp and renames it over `path`, so a failed write leaves an
// existing file untouched. Not for the web module: it is linked without a file system
// (-sFILESYSTEM=0), where Emscripten aborts on any file call; the page passes bytes instead.
// read_file refuses what is not a regular file (a folder, a device such as /dev/zero, a pipe) and
// a file above max_bytes, before reading any of it; the default is the largest checkpoint.
constexpr std::uint64_t kMaxCheckpointBytes = 8 + kMaxSafetensorsHeaderBytes + kMaxParameterBytes;
std::string read_file(const std::string& path, std::uint64_t max_bytes = kMaxCheckpointBytes);
void write_file(const std::string& path, std::string_view bytes);
// The temporary file write_file writes before renaming it over `path`.
std::string temp_path(const std::string& path);

}  // namespace tp
