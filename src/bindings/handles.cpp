// The bound objects' methods; see handles.h. Each is a conversion around one core call.
#include "bindings/handles.h"

#include <emscripten/val.h>

#include <algorithm>
#include <memory>

#include "bindings/convert.h"
#include "core/error.h"
#include "core/json.h"
#include "generate/generator.h"
#include "io/checkpoint.h"

namespace tp::bindings {

namespace {

TokenizerOptions tokenizer_options(const std::string& options_json) {
  TokenizerOptions o;
  schema::from_json(o, json::parse(options_json), "tokenizer option", schema::Naming::Camel);
  return o.with_defaults();
}

val string_array(const std::vector<std::string>& items) {
  val a = val::array();
  for (const std::string& s : items) a.call<void>("push", s);
  return a;
}

std::string text_of(const Tokenizer& tok, const std::vector<int>& ids) { return tok.decode(ids); }

}  // namespace

// ---- Tokenizer ------------------------------------------------------------------------------------

TokenizerHandle* TokenizerHandle::create(const std::string& options_json, const std::string& text) {
  return new TokenizerHandle(train_tokenizer(tokenizer_options(options_json), text));
}

TokenizerHandle* TokenizerHandle::load(const std::string& saved) {
  json::Value value;
  try {
    value = json::parse(saved);
  } catch (const Error& e) {
    TP_FAIL("loadTokenizer: the text is not tokenizer.save()'s: ", e.what());
  }
  try {
    return new TokenizerHandle(Tokenizer::from_json(value));
  } catch (const Error& e) {
    TP_FAIL("loadTokenizer: not a valid tokenizer: ", e.what());
  }
}

std::string TokenizerHandle::save() const { return tok->to_json().dump(); }

val TokenizerHandle::encode(const std::string& text, bool add_special_tokens) const {
  return encoding_value(add_special_tokens ? tok->encode_with_specials(text) : tok->encode(text));
}

std::string TokenizerHandle::decode(const val& ids) const { return tok->decode(ids_from(ids, "ids")); }

val TokenizerHandle::info() const {
  val out = val::object();
  out.set("kind", std::string(tokenizer_kind_name(tok->kind())));
  out.set("vocabSize", tok->vocab_size());
  out.set("numSpecials", tok->num_specials());
  return out;
}

val TokenizerHandle::specials() const { return specials_value(tok->specials()); }

val TokenizerHandle::vocabulary(int limit) const {
  TP_CHECK(limit >= 0, "limit must be >= 0, got ", limit);
  std::vector<std::string> words;
  for (int id = 0; id < std::min(limit, tok->vocab_size()); ++id) words.push_back(tok->token_text(id));
  return string_array(words);
}

// ---- Task -----------------------------------------------------------------------------------------

TaskHandle* TaskHandle::builtin(const std::string& name) {
  auto h = std::make_unique<TaskHandle>();  // freed if the core throws
  h->task = make_task(name);
  return h.release();
}

TaskHandle* TaskHandle::from_text(const std::string& text, const std::string& tokenizer_json) {
  auto h = std::make_unique<TaskHandle>();
  h->task = make_text_task(text, tokenizer_options(tokenizer_json));
  return h.release();
}

TaskHandle* TaskHandle::from_text_with(const std::string& text, const TokenizerHandle& tokenizer) {
  auto h = std::make_unique<TaskHandle>();
  h->task = make_text_task_with(text, tokenizer.tok);
  return h.release();
}

TaskHandle* TaskHandle::from_pairs(const val& pairs) {
  TP_CHECK(pairs.isArray(), "pairs must be an array of [source, target] string pairs");
  std::vector<std::pair<std::string, std::string>> items;
  const int n = pairs["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const val p = pairs[i];
    TP_CHECK(p.isArray() && p["length"].as<int>() == 2 && p[0].isString() && p[1].isString(), "pairs[", i,
             "] must be a [source, target] pair of strings");
    items.emplace_back(p[0].as<std::string>(), p[1].as<std::string>());
  }
  auto h = std::make_unique<TaskHandle>();
  h->task = make_pairs_task(items);
  return h.release();
}

val TaskHandle::info() const {
  const Task& t = *task;
  val out = val::object();
  out.set("name", t.name);
  out.set("description", t.description);
  out.set("kind", std::string(to_string(t.kind)));
  out.set("metric", t.metric);
  out.set("source", t.source);
  out.set("defaults", json_to_val(t.defaults.to_json(schema::Naming::Camel)));
  out.set("train", json_to_val(t.train.to_json(schema::Naming::Camel)));
  out.set("classNames", string_array(t.class_names));
  out.set("sampleInputs", string_array(t.sample_inputs));
  out.set("trainSize", static_cast<double>(t.train_size()));
  out.set("valSize", static_cast<double>(t.val_size()));
  out.set("synthetic", static_cast<bool>(t.generator));
  return out;
}

TokenizerHandle* TaskHandle::tokenizer() const { return new TokenizerHandle(task->tokenizer); }

val TaskHandle::example(int index) const {
  const Task& t = *task;
  val out = val::object();
  if (t.kind == TaskKind::Text) {
    const std::size_t n = std::min<std::size_t>(t.val_stream.size(), 48);
    const std::size_t start =
        t.val_stream.size() > n ? (static_cast<std::size_t>(index) * 97) % (t.val_stream.size() - n) : 0;
    out.set("input",
            text_of(*t.tokenizer, std::vector<int>(t.val_stream.begin() + start, t.val_stream.begin() + start + n)));
    return out;
  }
  TP_CHECK(!t.val_examples.empty(), "task '", t.name, "' has no examples");
  const Example& e = t.val_examples[static_cast<std::size_t>(std::max(index, 0)) % t.val_examples.size()];
  out.set("input", text_of(*t.tokenizer, e.src));
  if (t.kind == TaskKind::Seq2Seq) out.set("target", text_of(*t.tokenizer, e.tgt));
  if (t.kind == TaskKind::Classify) out.set("label", t.class_names[e.label]);
  if (t.kind == TaskKind::Tag) {
    std::vector<std::string> tags;
    for (int tag : e.tags) tags.push_back(t.class_names[tag]);
    out.set("tags", string_array(tags));
  }
  return out;
}

// ---- Model ----------------------------------------------------------------------------------------

ModelHandle* ModelHandle::create(const std::string& config_json, double seed) {
  TP_CHECK(seed >= 0 && seed <= 9007199254740991.0 && seed == static_cast<double>(static_cast<std::uint64_t>(seed)),
           "seed must be a whole number >= 0, got ", seed);
  const ModelConfig config = ModelConfig::from_json(json::parse(config_json), schema::Naming::Camel);
  auto h = std::make_unique<ModelHandle>();  // freed if the configuration is rejected
  h->model = std::make_shared<Transformer>(config, static_cast<std::uint64_t>(seed));
  return h.release();
}

ModelHandle* ModelHandle::load(const val& bytes, const std::string& options_json) {
  TP_CHECK(bytes.instanceof (val::global("Uint8Array")), "loadModel expects the file's bytes as a Uint8Array");
  LoadOptions options;
  schema::from_json(options, json::parse(options_json), "loadModel option", schema::Naming::Camel);
  std::string data(bytes["length"].as<std::size_t>(), '\0');
  val(emscripten::typed_memory_view(data.size(), reinterpret_cast<unsigned char*>(data.data())))
      .call<void>("set", bytes);
  return from_loaded(load_checkpoint(data, options));
}

ModelHandle* ModelHandle::from_loaded(LoadedCheckpoint loaded) {
  auto h = std::make_unique<ModelHandle>();
  h->model = std::move(loaded.model);
  h->tok = std::move(loaded.tokenizer);
  h->task_name = loaded.task;
  h->load_warnings = std::move(loaded.warnings);
  if (!h->task_name.empty()) {
    h->task_kind = checkpoint_task_kind(h->task_name);
    if (h->task_name == "sentiment" || h->task_name == "tagging") h->class_names = make_task(h->task_name)->class_names;
  }
  return h.release();
}

val ModelHandle::config() const { return json_to_val(model->config().to_json(schema::Naming::Camel)); }

val ModelHandle::parameters() const {
  val out = val::array();
  for (const ParamInfo& info : model->params().infos()) {
    val p = val::object();
    p.set("name", info.name);
    val shape = val::array();
    for (int d = 0; d < info.shape.ndim; ++d) shape.call<void>("push", info.shape[d]);
    p.set("shape", shape);
    p.set("size", static_cast<double>(info.size));
    out.call<void>("push", p);
  }
  return out;
}

val ModelHandle::parameter(const std::string& name) const {
  const ParameterSet& params = model->params();
  const int i = params.index_of(name);
  return tensor_value(Tensor::view(const_cast<float*>(params.value(i)), params.info(i).shape));
}

void ModelHandle::attach(const TaskHandle& task) {
  task.task->check_compatible(model->config());
  tok = task.task->tokenizer;
  task_name = task.task->name;
  task_kind = task.task->kind;
  class_names = task.task->class_names;
}

val ModelHandle::info() const {
  val out = val::object();
  out.set("task", task_name);
  out.set("taskKind", std::string(task_name.empty() ? "" : to_string(task_kind)));
  out.set("tokenizer", tok ? TokenizerHandle(tok).info() : val::null());
  out.set("classNames", string_array(class_names));
  out.set("parameterCount", static_cast<double>(model->params().numel()));
  return out;
}

TokenizerHandle* ModelHandle::tokenizer_handle() const { return tok ? new TokenizerHandle(tok) : nullptr; }

const Tokenizer& ModelHandle::tokenizer() const {
  TP_CHECK(tok != nullptr,
           "this model has no tokenizer yet: train it on a task (or load a checkpoint that has one), "
           "or pass token ids instead of text");
  return *tok;
}

SpecialTokens ModelHandle::specials() const { return tok ? tok->specials() : default_specials(); }

val ModelHandle::warnings() const { return string_array(load_warnings); }

val ModelHandle::save() const {
  const std::string bytes = save_checkpoint(*model, tok.get(), task_name);
  return val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const unsigned char*>(bytes.data())))
      .call<val>("slice");
}

}  // namespace tp::bindings
