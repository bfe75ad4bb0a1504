// Finite weights and known metadata keys; see checkpoint_checks.h.
#include "io/checkpoint_checks.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/text_escape.h"

namespace tp {

namespace {

// Levenshtein distance, enough to tell a damaged key ("tokenizr", "tokeniker") from a tool's own.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// A key shown in a message: printable ASCII as it is, anything else as \xNN, so a damaged key
// cannot break the one-line message.
std::string shown_key(const std::string& key) {
  std::string out;
  for (unsigned char c : key) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace

const std::vector<std::string>& known_metadata_keys() {
  static const std::vector<std::string> keys = {"format", "format_version", "config", "tokenizer", "task"};
  return keys;
}

std::vector<std::string> metadata_warnings(const SafetensorsView& view) {
  const std::vector<std::string>& known = known_metadata_keys();
  std::vector<std::string> warnings;
  for (const auto& [key, value] : view.metadata()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string near;
    for (const std::string& k : known) {
      if (edit_distance(key, k) <= 2 && (near.empty() || edit_distance(key, k) < edit_distance(key, near))) near = k;
    }
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    warnings.push_back(
        str_cat("checkpoint: metadata key '", shown_key(key), "' is not one this version reads, so it was ignored",
                near.empty() ? std::string() : str_cat(" (did you mean '", near, "'? the file may be damaged)"),
                "; known keys: ", list));
  }
  return warnings;
}

void NonFiniteSummary::add(const std::string& tensor, std::size_t bad, std::size_t first_at, float first_value) {
  if (bad == 0) return;
  if (tensors++ == 0) {
    first_tensor = tensor;
    count = bad;
    at = first_at;
    value = first_value;
  }
}

void report_non_finite(const std::string& file, const NonFiniteSummary& found, const LoadOptions& options,
                       std::vector<std::string>& warnings) {
  if (found.tensors == 0) return;
  const char* shown = std::isnan(found.value) ? "NaN" : found.value > 0 ? "inf" : "-inf";
  const std::size_t count = found.count;
  const int tensors = found.tensors;
  const std::string problem = str_cat(
      file, ": tensor ", quote(found.first_tensor), " holds ", count,
      count == 1 ? " value that is not finite (at index " : " values that are not finite (the first at index ",
      found.at, ": ", shown, ")",
      tensors > 1
          ? str_cat(", and ", tensors - 1, tensors == 2 ? " more tensor holds" : " more tensors hold", " some too")
          : "",
      "; such a model gives NaN for every output (it diverged while training, or the file is "
      "damaged)");
  if (!options.allow_non_finite) {
    TP_FAIL(problem, "; to load it anyway, to inspect it, set ", schema::name_of(options, options.allow_non_finite));
  }
  warnings.push_back(
      str_cat(problem, "; loaded because ", schema::name_of(options, options.allow_non_finite), " is set"));
}

void check_finite_scores(const json::Value& tokenizer_json, const LoadOptions& options,
                         std::vector<std::string>& warnings) {
  const json::Value* scores = tokenizer_json.find("scores");
  if (scores == nullptr || !scores->is_array()) return;
  std::size_t count = 0, first = 0;
  std::string shown;
  for (std::size_t i = 0; i < scores->as_array().size(); ++i) {
    const json::Value& s = scores->as_array()[i];
    if (!s.is_string()) continue;
    if (count++ == 0) {
      first = i;
      shown = s.as_string();
    }
  }
  if (count == 0) return;
  const std::string problem = str_cat("checkpoint: the tokenizer has ", count, " score", count == 1 ? "" : "s",
                                      " that are not finite (the first, of piece ", first, ", is ", quote(shown), ")");
  const char* flag = schema::name_of(options, options.allow_non_finite);
  if (!options.allow_non_finite) TP_FAIL(problem, "; to load it anyway set ", flag);
  warnings.push_back(str_cat(problem, "; loaded because ", flag, " is set"));
}

void check_finite_weights(const ParameterSet& params, const LoadOptions& options, std::vector<std::string>& warnings) {
  NonFiniteSummary found;
  for (int i = 0; i < params.count(); ++i) {
    const float* v = params.value(i);
    const std::size_t n = params.info(i).size;
    std::size_t bad = 0, at = 0;
    float first = 0.0f;
    for (std::size_t k = 0; k < n; ++k) {
      if (std::isfinite(v[k])) continue;
      if (bad++ == 0) {
        at = k;
        first = v[k];
      }
    }
    found.add(params.info(i).name, bad, at, first);
  }
  report_non_finite("checkpoint", found, options, warnings);
}

}  // namespace tp
