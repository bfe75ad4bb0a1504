// Checkpoint save/load on top of safetensors, from bytes or streamed from a file; see checkpoint.h.
#include "io/checkpoint.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "core/text_escape.h"
#include "io/safetensors.h"

namespace tp {

namespace {

std::vector<std::int64_t> to_dims(const Shape& shape) {
  std::vector<std::int64_t> dims;
  for (int d = 0; d < shape.ndim; ++d) dims.push_back(shape[d]);
  return dims;
}

// "'a', 'b', 'c' and 4 more": enough to recognise the pattern (e.g. every bias) without
// flooding a one-line CLI error with a hundred names.
std::string name_list(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 8;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) out += str_cat(i ? ", '" : "'", names[i], "'");
  if (names.size() > kShown) out += str_cat(" and ", names.size() - kShown, " more");
  return out;
}

const std::string* find_metadata(const SafetensorsMetadata& metadata, std::string_view key) {
  for (const auto& [k, v] : metadata) {
    if (k == key) return &v;
  }
  return nullptr;
}

const std::string& required_metadata(const SafetensorsMetadata& metadata, const char* key, const char* expected) {
  const std::string* value = find_metadata(metadata, key);
  if (value == nullptr && metadata.empty()) {
    TP_FAIL("checkpoint: the file has no '__metadata__', so it is not a Transformer Playground checkpoint; ",
            "one stores format, format_version and config there (docs/FORMAT.md)");
  }
  TP_CHECK(value != nullptr, "checkpoint: metadata key '", key, "' is missing; expected ", expected);
  return *value;
}

ModelConfig parse_config(const std::string& text) {
  json::Value value;
  try {
    value = json::parse(text);
  } catch (const Error& e) {
    TP_FAIL("checkpoint: metadata 'config' is ", e.what());
  }
  try {
    ModelConfig config = ModelConfig::from_json(value);
    config.validate();
    return config;
  } catch (const Error& e) {
    TP_FAIL("checkpoint: metadata 'config' is not a valid model configuration: ", e.what());
  }
}

std::unique_ptr<Tokenizer> parse_tokenizer(const std::string& text, const ModelConfig& config,
                                           const LoadOptions& options, std::vector<std::string>& warnings) {
  std::unique_ptr<Tokenizer> tokenizer;
  json::Value value;
  try {
    value = json::parse(text);
    tokenizer = Tokenizer::from_json(value);
  } catch (const Error& e) {
    TP_FAIL("checkpoint: metadata 'tokenizer' is not a valid tokenizer: ", e.what());
  }
  check_finite_scores(value, options, warnings);  // checkpoint_checks.h
  // A mismatch would let the tokenizer produce ids the embedding does not have (or never
  // reach some rows), so the pair is refused rather than guessed at.
  TP_CHECK(tokenizer->vocab_size() == config.vocab_size, "checkpoint: the tokenizer has vocab_size ",
           tokenizer->vocab_size(), " but the config has vocab_size ", config.vocab_size, "; they must be equal");
  return tokenizer;
}

// The file's entry for each parameter, in parameter order. Every file tensor must be a parameter
// of this config and every parameter must be in the file; both lists are reported together
// because one wrong config option (e.g. tie_embeddings) usually causes both.
std::vector<const SafetensorsEntry*> match_tensors(const SafetensorsView& view, const ParameterSet& params) {
  std::unordered_map<std::string_view, const SafetensorsEntry*> in_file;
  for (const SafetensorsEntry& e : view.entries()) in_file.emplace(e.name, &e);
  std::vector<const SafetensorsEntry*> matched;
  std::vector<std::string> missing, unknown;
  for (const ParamInfo& info : params.infos()) {
    const auto it = in_file.find(info.name);
    if (it == in_file.end()) {
      missing.push_back(info.name);
      continue;
    }
    matched.push_back(it->second);
    in_file.erase(it);
  }
  for (const SafetensorsEntry& e : view.entries()) {
    if (in_file.count(e.name) != 0) unknown.push_back(e.name);  // file order, for a stable message
  }
  if (missing.empty() && unknown.empty()) return matched;
  std::string problem;
  if (!missing.empty()) problem += str_cat(missing.size(), " missing: ", name_list(missing));
  if (!unknown.empty())
    problem += str_cat(problem.empty() ? "" : "; ", unknown.size(), " unknown: ", name_list(unknown));
  TP_FAIL("checkpoint: the tensors do not match the config, which needs ", params.count(), " tensors (", problem,
          "); see docs/FORMAT.md for the tensors each option adds");
}

// A config that needs more than twice the values the file holds cannot be a near miss, and
// building it first would let a file of a few KB make the page allocate and initialise a model
// up to the memory limit (wasm memory never shrinks) only to refuse it. Within that factor the
// model is built, so a config that is off by a layer or an option still gets the tensor-by-tensor
// report of match_tensors; either way the work done is proportional to the file's size.
void check_size_fits(const SafetensorsView& view, const ModelConfig& config) {
  std::int64_t values = 0;
  for (const SafetensorsEntry& e : view.entries()) values += e.numel();
  const std::int64_t needed = config.parameter_count();
  TP_CHECK(needed <= 2 * values, "checkpoint: the config describes a model of ", needed,
           " parameters, but the file's tensors hold only ", values,
           " values; the config does not belong to these tensors (docs/FORMAT.md)");
}

}  // namespace

std::string save_checkpoint(const Transformer& model, const Tokenizer* tokenizer, const std::string& task) {
  const ModelConfig& config = model.config();
  // Refuse to write what load_checkpoint would reject.
  TP_CHECK(tokenizer == nullptr || tokenizer->vocab_size() == config.vocab_size, "cannot save a checkpoint: the ",
           "tokenizer has vocab_size ", tokenizer ? tokenizer->vocab_size() : 0, " but the model has vocab_size ",
           config.vocab_size);
  SafetensorsMetadata metadata = {
      {"format", kCheckpointFormat}, {"format_version", kCheckpointFormatVersion}, {"config", config.to_json().dump()}};
  if (tokenizer != nullptr) metadata.emplace_back("tokenizer", tokenizer->to_json().dump());
  if (!task.empty()) metadata.emplace_back("task", task);

  const ParameterSet& params = model.params();
  std::vector<SafetensorsTensor> tensors;
  tensors.reserve(params.count());
  for (int i = 0; i < params.count(); ++i) {
    tensors.push_back({params.info(i).name, to_dims(params.info(i).shape), params.value(i)});
  }
  return write_safetensors(tensors, metadata);
}

namespace {

// The format, its version and the config, from `__metadata__` alone: run before the tensors are
// checked against the data (SafetensorsLimits::check_metadata), so that a model above the limit
// is refused from its header whatever follows it.
ModelConfig checkpoint_config(const SafetensorsMetadata& metadata) {
  const std::string& format = required_metadata(metadata, "format", "\"transformer-playground\"");
  TP_CHECK(format == kCheckpointFormat, "checkpoint: metadata 'format' is \"", format, "\"; expected \"",
           kCheckpointFormat, "\"");
  const std::string& version = required_metadata(metadata, "format_version", "\"1\"");
  TP_CHECK(version == kCheckpointFormatVersion, "checkpoint: format_version \"", version,
           "\" is not supported; this build reads format_version \"", kCheckpointFormatVersion, "\"");
  return parse_config(required_metadata(metadata, "config", "the model config as JSON"));
}

// The checked header, its config, and the model built from it with every parameter unset and
// matched to its tensor (by parameter index), the dtypes and shapes checked: what is left is to
// read the values in.
struct Plan {
  ModelConfig config;
  std::unique_ptr<SafetensorsView> view;
  LoadedCheckpoint out;
  std::vector<const SafetensorsEntry*> entries;
};

template <typename MakeView>
Plan plan_load(MakeView&& make_view, const LoadOptions& options) {
  Plan plan;
  bool judged = false;
  SafetensorsLimits limits;
  limits.check_metadata = [&](const SafetensorsMetadata& metadata) {
    plan.config = checkpoint_config(metadata);
    judged = true;
  };
  plan.view = make_view(limits);
  const SafetensorsView& view = *plan.view;
  if (!judged) checkpoint_config(view.metadata());  // no __metadata__: says what a checkpoint holds
  const ModelConfig& config = plan.config;

  // Everything cheap is checked before the model (up to the config's memory limit) is built.
  LoadedCheckpoint& out = plan.out;
  out.warnings = metadata_warnings(view);  // checkpoint_checks.h
  if (const std::string* text = view.find_metadata("tokenizer"))
    out.tokenizer = parse_tokenizer(*text, config, options, out.warnings);
  if (const std::string* task = view.find_metadata("task")) out.task = *task;
  check_size_fits(view, config);

  try {
    out.model = std::make_unique<Transformer>(config, 0, WeightInit::Unset);  // every tensor is read in
  } catch (const std::bad_alloc&) {
    TP_FAIL("checkpoint: not enough memory for a model of ", config.parameter_count(), " parameters");
  }
  ParameterSet& params = out.model->params();
  plan.entries = match_tensors(view, params);
  for (int i = 0; i < params.count(); ++i) {
    const ParamInfo& info = params.info(i);
    const SafetensorsEntry& entry = *plan.entries[i];
    TP_CHECK(entry.dtype == "F32", "checkpoint: tensor '", info.name, "' has dtype ", entry.dtype,
             "; checkpoint tensors must be F32");
    const std::vector<std::int64_t> expected = to_dims(info.shape);
    TP_CHECK(entry.shape == expected, "checkpoint: tensor '", info.name, "' has shape ", shape_string(entry.shape),
             " but the config needs ", shape_string(expected));
  }
  // The tensors tile the data section (safetensors.h) and each parameter is one of them with its
  // own shape, so reading every entry writes every value of the slab.
  return plan;
}

bool host_is_little_endian() {
  const std::uint32_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

}  // namespace

LoadedCheckpoint load_checkpoint(std::string_view bytes, const LoadOptions& options) {
  Plan plan = plan_load(
      [&](const SafetensorsLimits& limits) { return std::make_unique<SafetensorsView>(bytes, limits); }, options);
  ParameterSet& params = plan.out.model->params();
  for (int i = 0; i < params.count(); ++i) plan.view->copy_floats(*plan.entries[i], params.value(i));
  check_finite_weights(params, options, plan.out.warnings);  // checkpoint_checks.h
  return std::move(plan.out);
}

LoadedCheckpoint load_checkpoint_file(const std::string& path, const LoadOptions& options) {
  InputFile file(path, max_checkpoint_bytes());
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(8, file.size())), '\0');
  file.read(head.data(), head.size());
  if (head.size() == 8) {
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(head[i]);
    // The view refuses a length beyond these bounds; until it has, read none of it.
    if (n <= kMaxSafetensorsHeaderBytes && n <= file.size() - 8) {
      head.resize(8 + static_cast<std::size_t>(n));
      file.read(head.data() + 8, static_cast<std::size_t>(n));
    }
  }
  Plan plan = plan_load(
      [&](const SafetensorsLimits& limits) { return std::make_unique<SafetensorsView>(head, file.size(), limits); },
      options);
  // Straight from the file into the slab, in the file's order (entries tile the data section).
  ParameterSet& params = plan.out.model->params();
  std::vector<int> order(static_cast<std::size_t>(params.count()));
  for (int i = 0; i < params.count(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return plan.entries[a]->offset < plan.entries[b]->offset; });
  const bool little = host_is_little_endian();
  for (int i : order) {
    float* dst = params.value(i);
    const std::size_t n = plan.entries[i]->nbytes;
    file.read(dst, n);
    if (little) continue;
    for (std::size_t k = 0; k < n / 4; ++k) {  // the file is little-endian whatever the host
      unsigned char b[4];
      std::memcpy(b, dst + k, 4);
      std::swap(b[0], b[3]);
      std::swap(b[1], b[2]);
      std::memcpy(dst + k, b, 4);
    }
  }
  TP_ASSERT(file.position() == file.size());
  check_finite_weights(params, options, plan.out.warnings);  // checkpoint_checks.h
  return std::move(plan.out);
}

std::uint64_t max_checkpoint_bytes() {
  return 8 + kMaxSafetensorsHeaderBytes + static_cast<std::uint64_t>(max_parameter_bytes());
}

}  // namespace tp
