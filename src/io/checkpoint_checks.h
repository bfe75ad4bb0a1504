// What load_checkpoint() checks beyond the file's structure and the config (checkpoint.cpp):
// that the weights are numbers, and which metadata keys it does not know.
//
// A file whose tensors hold NaN or infinity loads without complaint as far as the format goes,
// but every forward pass through it gives NaN logits, and generation then "stops on <EOS>" (the
// arg max of NaNs) as if nothing were wrong. So such weights are refused unless the caller asks
// for them (LoadOptions::allow_non_finite, e.g. to look at a model that diverged). Metadata keys
// other than the ones docs/FORMAT.md lists are kept out of the model but reported as warnings,
// with the known key they nearly spell: one damaged byte in `tokenizer` must not silently give a
// model without its tokenizer.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"
#include "core/params.h"
#include "core/schema.h"
#include "io/safetensors.h"

namespace tp {

struct LoadOptions {
  bool allow_non_finite = false;

  // clang-format off: one line per field (the table is read as a table)
  template <typename Self, typename Visit>
  static void fields(Self& o, Visit&& visit) {
    using namespace schema;
    visit(Flag("allow_non_finite", "allowNonFinite",
               "load weights that are NaN or infinite (to inspect a diverged model) instead of "
               "refusing the file"),
          o.allow_non_finite);
  }
  // clang-format on
};

// The metadata keys a checkpoint may hold (docs/FORMAT.md), in the order the writer puts them.
const std::vector<std::string>& known_metadata_keys();

// One warning per metadata key that is not a known one, naming the known key it is one or two
// edits away from, if any.
std::vector<std::string> metadata_warnings(const SafetensorsView& view);

// tp::Error naming the first tensor with a value that is not finite, how many it holds and how
// many other tensors have some, unless options.allow_non_finite; then the same text is added to
// `warnings` and the weights are kept.
void check_finite_weights(const ParameterSet& params, const LoadOptions& options, std::vector<std::string>& warnings);

// A sentencepiece tokenizer's scores that are not finite (written as "NaN", "Infinity" or
// "-Infinity", since JSON has no such numbers) are refused like such weights, unless
// options.allow_non_finite; they only come from a file imported with that option.
void check_finite_scores(const json::Value& tokenizer_json, const LoadOptions& options,
                         std::vector<std::string>& warnings);

// What a scan for values that are not finite found: the first tensor with some, how many it
// holds, where the first is, and how many tensors have some in all (0: none).
struct NonFiniteSummary {
  std::string first_tensor;
  std::size_t count = 0, at = 0;
  float value = 0.0f;
  int tensors = 0;
  // Adds one tensor's scan (bad values, the index and value of its first).
  void add(const std::string& tensor, std::size_t bad, std::size_t first_at, float first_value);
};
// Refuses (tp::Error starting with `file`) or, when options.allow_non_finite, warns about what
// the summary found; does nothing when it found nothing. check_finite_weights ends with this,
// and the importers call it on the file's values before they allocate the model.
void report_non_finite(const std::string& file, const NonFiniteSummary& found, const LoadOptions& options,
                       std::vector<std::string>& warnings);

}  // namespace tp
