// ImportHandle: another project's model files, copied into the heap by JavaScript, then read by
// src/import; see handles.h.
#include <cmath>

#include "bindings/convert.h"
#include "bindings/handles.h"
#include "core/error.h"
#include "core/text_escape.h"

namespace tp::bindings {

double ImportHandle::add(const std::string& name, double size) {
  TP_CHECK(std::isfinite(size) && size >= 0 && size <= 4294967295.0, "file ", quote(name), " has ", size,
           " bytes; a file must be 0 .. 4 GB");
  for (const auto& f : files_) TP_CHECK(f.first != name, "the file ", quote(name), " was added twice");
  if (max_import_file_bytes(name) > 0) check_import_file_size(name, static_cast<std::uint64_t>(size));
  auto data = std::make_unique<std::string>();
  try {
    data->resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    TP_FAIL("not enough memory for the file ", quote(name), " (", static_cast<std::int64_t>(size) / (1 << 20), " MB)");
  }
  const double address = static_cast<double>(reinterpret_cast<std::uintptr_t>(data->data()));
  files_.emplace_back(name, std::move(data));
  return address;
}

std::vector<ModelFile> ImportHandle::files() const {
  std::vector<ModelFile> out;
  for (const auto& [name, data] : files_) out.push_back({name, *data});
  return out;
}

val ImportHandle::describe() const {
  const std::vector<ModelFile> f = files();
  const ImportFormat format = detect_import_format(f);
  const ModelConfig config = import_config(f);
  const ModelConfig::Memory m = config.memory();
  json::Value out = json::Value::object();
  out.set("format", format == ImportFormat::HuggingFace ? "huggingface" : "llama2c");
  out.set("config", config.to_json(schema::Naming::Camel));
  out.set("parameterCount", config.parameter_count());
  json::Value memory = json::Value::object();
  memory.set("parameters", m.parameters);
  memory.set("inference", m.inference);
  memory.set("training", m.training);
  out.set("memory", std::move(memory));
  json::Value limits = json::Value::object();
  limits.set("parameters", max_parameter_bytes());
  limits.set("training", kMaxTrainingBytes);
  out.set("limits", std::move(limits));
  std::string reason;
  try {
    config.check_trainable();
  } catch (const Error& e) {
    reason = e.what();
  }
  out.set("trainable", reason.empty());
  out.set("reason", reason);
  return json_to_val(out);
}

ModelHandle* ImportHandle::model() const { return ModelHandle::from_loaded(import_model(files())); }

ModelHandle* ImportHandle::model_with(const std::string& options_json) const {
  LoadOptions options;
  schema::from_json(options, json::parse(options_json), "importModel option", schema::Naming::Camel);
  return ModelHandle::from_loaded(import_model(files(), options));
}

val ImportHandle::file_plan(const std::string& names_json, bool tokenizer_only) {
  std::vector<std::string> names;
  for (const json::Value& n : json::parse(names_json).as_array("file names"))
    names.push_back(n.as_string("a file name"));
  json::Value read = json::Value::array(), max = json::Value::object();
  for (const std::string& n : import_file_names(names, tokenizer_only)) {
    read.push(n);
    max.set(n, static_cast<double>(max_import_file_bytes(n)));
  }
  json::Value out = json::Value::object();
  out.set("read", std::move(read));
  out.set("maxBytes", std::move(max));
  return json_to_val(out);
}

TokenizerHandle* ImportHandle::tokenizer() const { return new TokenizerHandle(import_tokenizer(files())); }

}  // namespace tp::bindings
