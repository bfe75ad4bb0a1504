// The bound objects' running methods: generation, the trace, encoder-only predictions and the
// trainer. Split from handles.cpp to keep each file to one concern.
#include <emscripten/val.h>

#include <cmath>
#include <memory>
#include <optional>

#include "bindings/convert.h"
#include "bindings/handles.h"
#include "core/error.h"
#include "core/json.h"
#include "generate/generate_text.h"
#include "tasks/probe.h"

namespace tp::bindings {

namespace {

val token_list(const Tokenizer& tok, const std::vector<int>& ids) {
  val tokens = val::array();
  for (int id : ids) tokens.call<void>("push", tok.token_text(id));
  val out = val::object();
  out.set("ids", int_array(ids.data(), ids.size()));
  out.set("tokens", tokens);
  return out;
}

}  // namespace

val ModelHandle::generate(const val& prompt, const std::string& options_json) {
  const ModelConfig& c = model->config();
  TP_CHECK(c.arch != Arch::EncoderOnly,
           "generate() needs a model with a decoder; this model is encoder-only: use "
           "predict() for its class or token predictions");
  GenerateOptions options;
  schema::from_json(options, json::parse(options_json), "generation option", schema::Naming::Camel);
  options.specials = specials();
  // A sequence-to-sequence task's model reads its prompt as a source (on a decoder-only model:
  // "source <SOS>"); any other prompt is text to continue. Text is encoded by generate_text()
  // (with the specials template unless addSpecialTokens is false); ids are taken as given.
  const PromptRole role =
      task_kind == TaskKind::Seq2Seq && !task_name.empty() ? PromptRole::Source : PromptRole::Continue;
  const TextGeneration g = prompt.isString()
                               ? generate_text(*model, tokenizer(), prompt.as<std::string>(), role, options)
                               : generate_text(*model, tok.get(), ids_from(prompt, "prompt"), role, options);
  const GenerateResult& r = g.result;
  val result = val::object();
  result.set("ids", int_array(r.ids.data(), r.ids.size()));
  result.set("text", g.text);
  val steps = val::array();
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const GenerateStep& s = r.steps[i];
    val step = val::object();
    step.set("id", s.id);
    step.set("token", tok ? tok->token_text(s.id) : std::to_string(s.id));
    step.set("text", g.step_texts[i]);  // what the step adds, as a stream shows it
    val top = val::array();
    for (const TokenProb& p : s.top) {
      val item = val::object();
      item.set("id", p.id);
      item.set("token", tok ? tok->token_text(p.id) : std::to_string(p.id));
      item.set("p", p.p);
      item.set("pSample", p.p_sample);
      top.call<void>("push", item);
    }
    step.set("topk", top);
    steps.call<void>("push", step);
  }
  result.set("steps", steps);
  result.set("msPerToken", r.ms_per_token);
  result.set("stopReason", r.stop_reason);
  result.set("promptIds", int_array(g.prompt_ids.data(), g.prompt_ids.size()));
  return result;
}

val ModelHandle::trace(const std::string& input, const val& target, double pad_to) {
  const Tokenizer& t = tokenizer();
  TP_CHECK(pad_to >= 0 && pad_to <= 9007199254740991.0 && std::floor(pad_to) == pad_to,
           "padTo must be a whole number >= 0, got ", schema::detail::number_text(pad_to));
  const std::optional<std::string> answer = target.isString() ? std::optional(target.as<std::string>()) : std::nullopt;
  const Probe p = probe(*model, task_kind, t, input, answer, static_cast<std::int64_t>(pad_to));
  const Trace trace = trace_probe(*model, p);
  val result = val::object();
  result.set("input", token_list(t, p.input));
  if (model->config().arch == Arch::EncoderDecoder) result.set("decoderInput", token_list(t, p.batch.tgt_in));
  result.set("output", token_list(t, p.output));
  val entries = val::array();
  for (const std::string& name : trace.names()) {
    val e = tensor_value(trace.get(name));
    e.set("name", name);
    entries.call<void>("push", e);
  }
  result.set("entries", entries);
  return result;
}

val ModelHandle::predict(const std::string& input) {
  const ModelConfig& c = model->config();
  const Tokenizer& t = tokenizer();
  const std::vector<std::vector<Ranked>> rows = tp::predict(*model, task_kind, t, input, 5);
  auto label = [&](int k) {
    if (c.head == HeadKind::Mlm) return t.token_text(k);
    return k < static_cast<int>(class_names.size()) ? class_names[k] : std::to_string(k);
  };
  auto ranked = [&](const std::vector<Ranked>& row) {
    val list = val::array();
    for (const Ranked& r : row) {
      val item = val::object();
      item.set("label", label(r.id));
      item.set("id", r.id);
      item.set("p", r.p);
      list.call<void>("push", item);
    }
    return list;
  };
  val result = val::object();
  const Probe p = probe(*model, task_kind, t, input, std::nullopt, 0);
  result.set("input", token_list(t, p.input));
  if (c.head == HeadKind::Cls || c.head == HeadKind::Mean) {
    result.set("classes", ranked(rows[0]));
    return result;
  }
  val positions = val::array();
  for (const auto& row : rows) positions.call<void>("push", ranked(row));
  result.set("positions", positions);
  return result;
}

// ---- Trainer --------------------------------------------------------------------------------------

TrainerHandle* TrainerHandle::create(ModelHandle& model, const TaskHandle& task, const std::string& options_json) {
  // Everything that can fail runs before the model is changed (attach) or anything is kept.
  const TrainOptions options =
      TrainOptions::from_json(json::parse(options_json), task.task->train, schema::Naming::Camel);
  task.task->check_compatible(model.model->config());
  auto h = std::make_unique<TrainerHandle>();
  h->model = model.model;
  h->task = task.task;
  h->trainer = std::make_unique<Trainer>(*h->model, *h->task, options);
  model.attach(task);
  return h.release();
}

val TrainerHandle::step(double n) {
  TP_CHECK(n >= 1 && n <= 100000 && std::floor(n) == n, "step(n) needs 1 <= n <= 100000, got ",
           schema::detail::number_text(n));
  return json_to_val(schema::to_json(trainer->run(static_cast<int>(n)), schema::Naming::Camel));
}

void TrainerHandle::set_total_steps(double n) {
  // Read as the option it is, so the range and the message are the option table's.
  json::Value v = json::Value::object();
  v.set(schema::name_of(trainer->options(), trainer->options().total_steps), n);
  const TrainOptions options = TrainOptions::from_json(v, trainer->options(), schema::Naming::Camel);
  trainer->set_total_steps(options.total_steps);
}

val TrainerHandle::evaluate() { return json_to_val(schema::to_json(trainer->evaluate(), schema::Naming::Camel)); }

}  // namespace tp::bindings
