// Checkpoint save/load on top of safetensors, and the whole-file helpers; see checkpoint.h.
#include "io/checkpoint.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/stat.h>
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

const std::string& required_metadata(const SafetensorsView& view, const char* key, const char* expected) {
  const std::string* value = view.find_metadata(key);
  if (value == nullptr && view.metadata().empty()) {
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

std::string errno_text(int err) { return err != 0 ? std::strerror(err) : "unknown error"; }

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

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

LoadedCheckpoint load_checkpoint(std::string_view bytes, const LoadOptions& options) {
  const SafetensorsView view(bytes);
  const std::string& format = required_metadata(view, "format", "\"transformer-playground\"");
  TP_CHECK(format == kCheckpointFormat, "checkpoint: metadata 'format' is \"", format, "\"; expected \"",
           kCheckpointFormat, "\"");
  const std::string& version = required_metadata(view, "format_version", "\"1\"");
  TP_CHECK(version == kCheckpointFormatVersion, "checkpoint: format_version \"", version,
           "\" is not supported; this build reads format_version \"", kCheckpointFormatVersion, "\"");
  const ModelConfig config = parse_config(required_metadata(view, "config", "the model config as JSON"));

  // Everything cheap is checked before the model (up to the config's memory limit) is built.
  LoadedCheckpoint out;
  out.warnings = metadata_warnings(view);  // checkpoint_checks.h
  if (const std::string* text = view.find_metadata("tokenizer"))
    out.tokenizer = parse_tokenizer(*text, config, options, out.warnings);
  if (const std::string* task = view.find_metadata("task")) out.task = *task;
  check_size_fits(view, config);

  try {
    out.model = std::make_unique<Transformer>(config, 0, WeightInit::Unset);  // every tensor is read below
  } catch (const std::bad_alloc&) {
    TP_FAIL("checkpoint: not enough memory for a model of ", config.parameter_count(), " parameters");
  }
  ParameterSet& params = out.model->params();
  const std::vector<const SafetensorsEntry*> entries = match_tensors(view, params);
  for (int i = 0; i < params.count(); ++i) {
    const ParamInfo& info = params.info(i);
    const SafetensorsEntry& entry = *entries[i];
    TP_CHECK(entry.dtype == "F32", "checkpoint: tensor '", info.name, "' has dtype ", entry.dtype,
             "; checkpoint tensors must be F32");
    const std::vector<std::int64_t> expected = to_dims(info.shape);
    TP_CHECK(entry.shape == expected, "checkpoint: tensor '", info.name, "' has shape ", shape_string(entry.shape),
             " but the config needs ", shape_string(expected));
    view.copy_floats(entry, params.value(i));
  }
  check_finite_weights(params, options, out.warnings);  // checkpoint_checks.h
  return out;
}

std::string read_file(const std::string& path, std::uint64_t max_bytes) {
  errno = 0;
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  TP_CHECK(file != nullptr, "cannot open ", quote(path), " for reading: ", errno_text(errno));
  // Asked of the open file, so what is read is what was checked.
  struct stat info {};
  TP_CHECK(fstat(fileno(file.get()), &info) == 0, "cannot read ", quote(path), ": ", errno_text(errno));
  TP_CHECK(S_ISREG(info.st_mode), "cannot read ", quote(path), ": it is not a regular file (",
           S_ISDIR(info.st_mode)                            ? "a folder"
           : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                                                            : "a pipe or socket",
           ")");
  const std::uint64_t size = static_cast<std::uint64_t>(info.st_size);
  TP_CHECK(size <= max_bytes, "cannot read ", quote(path), ": it is ", size, " bytes, more than the ", max_bytes,
           " bytes (", max_bytes >> 20, " MB) such a file may have");
  std::string out;
  out.reserve(static_cast<std::size_t>(size));
  std::vector<char> buffer(1 << 16);
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) {
    out.append(buffer.data(), n);
    TP_CHECK(out.size() <= max_bytes, "cannot read ", quote(path), ": it grew past ", max_bytes, " bytes while read");
  }
  TP_CHECK(!std::ferror(file.get()), "cannot read ", quote(path), ": ", errno_text(errno));
  return out;
}

std::string temp_path(const std::string& path) { return path + ".tmp"; }

void write_file(const std::string& path, std::string_view bytes) {
  const std::string temp = temp_path(path);
  errno = 0;
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  TP_CHECK(file != nullptr, "cannot write '", path, "': cannot create '", temp, "': ", errno_text(errno));
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  int err = errno;
  if (std::fflush(file) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (std::fclose(file) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    std::remove(temp.c_str());
    TP_FAIL("cannot write '", path, "': ", errno_text(err));
  }
  // rename() replaces the old file in one step (POSIX), so readers see the old or the new bytes.
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    err = errno;
    std::remove(temp.c_str());
    TP_FAIL("cannot write '", path, "': renaming '", temp, "' over it failed: ", errno_text(err));
  }
}

}  // namespace tp
