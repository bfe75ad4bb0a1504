// The bound objects' running methods: generation, the trace, encoder-only predictions and the
// trainer. Split from handles.cpp to keep each file to one concern.
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <algorithm>
#include <memory>

#include "bindings/convert.h"
#include "bindings/handles.h"
#include "core/error.h"
#include "generate/generator.h"
#include "io/json.h"

namespace tp::bindings {

namespace {

GenerateOptions generate_options(const json::Value& v, int num_specials) {
  GenerateOptions o;
  o.num_specials = num_specials;
  for (const auto& [key, item] : v.as_object("generation options")) {
    const std::string what = "generation option '" + key + "'";
    if (key == "max_new_tokens") o.max_new_tokens = static_cast<int>(item.as_int(what));
    else if (key == "temperature") o.sampling.temperature = static_cast<float>(item.as_number(what));
    else if (key == "top_k") o.sampling.top_k = static_cast<int>(item.as_int(what));
    else if (key == "top_p") o.sampling.top_p = static_cast<float>(item.as_number(what));
    else if (key == "beam") o.beam = static_cast<int>(item.as_int(what));
    else if (key == "length_penalty") o.length_penalty = static_cast<float>(item.as_number(what));
    else if (key == "kv_cache") o.kv_cache = item.as_bool(what);
    else if (key == "top_k_probs") o.top_k_probs = static_cast<int>(item.as_int(what));
    else if (key == "seed") o.seed = static_cast<std::uint64_t>(item.as_int(what));
    else TP_FAIL("unknown generation option '", key, "'; allowed: max_new_tokens, temperature, top_k, top_p, beam, "
                 "length_penalty, kv_cache, top_k_probs, seed");
  }
  return o;
}

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
  TP_CHECK(c.arch != Arch::EncoderOnly, "generate() needs a model with a decoder; this model is encoder-only: use "
           "predict() for its class or token predictions");
  const int specials = tok ? tok->num_specials() : kAllSpecials;
  const GenerateOptions options = generate_options(json::parse(options_json), specials);
  std::vector<int> ids = prompt_ids(prompt);
  // A sequence-to-sequence task on a decoder-only model reads "source <SOS>" and continues.
  if (c.arch == Arch::DecoderOnly && task_kind == TaskKind::Seq2Seq && !task_name.empty()) ids.push_back(kSos);
  const GenerateResult r = tp::generate(*model, ids, options);
  std::vector<int> out = r.ids;
  if (!out.empty() && out.back() == kEos) out.pop_back();
  val result = val::object();
  result.set("ids", int_array(r.ids.data(), r.ids.size()));
  result.set("text", tok ? tok->decode(out) : std::string());
  val steps = val::array();
  for (const GenerateStep& s : r.steps) {
    val step = val::object();
    step.set("id", s.id);
    step.set("token", tok ? tok->token_text(s.id) : std::to_string(s.id));
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
  result.set("promptIds", int_array(ids.data(), ids.size()));
  return result;
}

val ModelHandle::trace(const std::string& input, const val& target, int pad_to) {
  const ModelConfig& c = model->config();
  const Tokenizer& t = tokenizer();
  const std::vector<int> src = t.encode(input).ids;
  TP_CHECK(!src.empty(), "the input gives no tokens; type some text");
  // Lengths are checked here, before any forward pass, so the message speaks of the input.
  const bool adds_cls = c.arch == Arch::EncoderOnly && (task_kind == TaskKind::Classify || c.head == HeadKind::Cls);
  const std::size_t src_tokens = src.size() + (adds_cls ? 1 : 0);
  TP_CHECK(src_tokens <= static_cast<std::size_t>(c.max_len), "the input has ", src_tokens, " tokens",
           adds_cls ? " (with <CLS>)" : "", "; this model's max_len is ", c.max_len);
  Batch b;
  b.size = 1;
  std::vector<int> out_ids;  // the decoder's target tokens (encoder-decoder, seq2seq decoder-only)
  const bool has_target = target.isString();
  if (c.arch == Arch::EncoderDecoder) {
    if (has_target) {
      out_ids = t.encode(target.as<std::string>()).ids;
    } else {  // the model's own greedy answer
      GenerateOptions o;
      o.max_new_tokens = c.max_len - 1;
      o.num_specials = t.num_specials();
      out_ids = tp::generate(*model, src, o).ids;
      if (!out_ids.empty() && out_ids.back() == kEos) out_ids.pop_back();
    }
    b.src = src;
    b.src_len = static_cast<int>(src.size());
    b.tgt_in = {kSos};
    b.tgt_in.insert(b.tgt_in.end(), out_ids.begin(), out_ids.end());
    b.tgt_len = static_cast<int>(b.tgt_in.size());
    TP_CHECK(b.tgt_len <= c.max_len, "the target has ", out_ids.size(), " tokens; with <SOS> the decoder input must fit "
             "this model's max_len of ", c.max_len);
  } else if (c.arch == Arch::DecoderOnly) {
    b.tgt_in = src;
    if (has_target || task_kind == TaskKind::Seq2Seq) {
      b.tgt_in.push_back(kSos);
      if (has_target) {
        out_ids = t.encode(target.as<std::string>()).ids;
      } else if (static_cast<int>(b.tgt_in.size()) < c.max_len) {  // the model's own greedy answer
        GenerateOptions o;
        o.max_new_tokens = c.max_len - static_cast<int>(b.tgt_in.size());
        o.num_specials = t.num_specials();
        out_ids = tp::generate(*model, b.tgt_in, o).ids;
        if (!out_ids.empty() && out_ids.back() == kEos) out_ids.pop_back();
      }
      b.tgt_in.insert(b.tgt_in.end(), out_ids.begin(), out_ids.end());
    }
    b.tgt_len = static_cast<int>(b.tgt_in.size());
    TP_CHECK(b.tgt_len <= c.max_len, "the input, <SOS> and the target have ", b.tgt_len,
             " tokens together; this model's max_len is ", c.max_len);
  } else {
    if (task_kind == TaskKind::Classify || c.head == HeadKind::Cls) b.src.push_back(kCls);
    b.src.insert(b.src.end(), src.begin(), src.end());
    b.src_len = static_cast<int>(b.src.size());
  }
  // Padding the input shows the <PAD> mask with the model's own numbers.
  if (pad_to > 0) {
    std::vector<int>& seq = c.has_encoder() ? b.src : b.tgt_in;
    TP_CHECK(pad_to >= static_cast<int>(seq.size()) && pad_to <= c.max_len, "padTo = ", pad_to, " must be between the ",
             "input's length (", seq.size(), ") and this model's max_len (", c.max_len, ")");
    seq.resize(pad_to, kPad);
    (c.has_encoder() ? b.src_len : b.tgt_len) = pad_to;
  }
  // Targets of −1 everywhere: no loss, but the output probabilities are computed and traced.
  const bool pooled = c.head == HeadKind::Cls || c.head == HeadKind::Mean;
  b.targets.assign(pooled ? 1 : (c.has_decoder() ? b.tgt_len : b.src_len), -1);
  Trace trace;
  model->forward(b, false, &trace);
  val result = val::object();
  result.set("input", token_list(t, c.has_encoder() ? b.src : b.tgt_in));
  if (c.arch == Arch::EncoderDecoder) result.set("decoderInput", token_list(t, b.tgt_in));
  result.set("output", token_list(t, out_ids));
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
  TP_CHECK(c.arch == Arch::EncoderOnly, "predict() is for encoder-only models; this model is ", to_string(c.arch),
           ": use generate()");
  const Tokenizer& t = tokenizer();
  Batch b;
  b.size = 1;
  if (c.head == HeadKind::Cls || task_kind == TaskKind::Classify) b.src.push_back(kCls);
  const std::vector<int> ids = t.encode(input).ids;
  TP_CHECK(!ids.empty(), "the input gives no tokens; type some text");
  b.src.insert(b.src.end(), ids.begin(), ids.end());
  b.src_len = static_cast<int>(b.src.size());
  TP_CHECK(b.src_len <= c.max_len, "the input has ", b.src_len, " tokens; this model's max_len is ", c.max_len);
  const bool pooled = c.head == HeadKind::Cls || c.head == HeadKind::Mean;
  b.targets.assign(pooled ? 1 : b.src_len, -1);
  model->forward(b, false);
  const int classes = c.output_size();
  auto label = [&](int k) {
    if (c.head == HeadKind::Mlm) return t.token_text(k);
    return k < static_cast<int>(class_names.size()) ? class_names[k] : std::to_string(k);
  };
  auto ranked = [&](const float* p) {
    std::vector<int> order(classes);
    for (int k = 0; k < classes; ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b2) { return p[a] > p[b2]; });
    val list = val::array();
    for (int k = 0; k < std::min(classes, 5); ++k) {
      val item = val::object();
      item.set("label", label(order[k]));
      item.set("id", order[k]);
      item.set("p", p[order[k]]);
      list.call<void>("push", item);
    }
    return list;
  };
  val result = val::object();
  result.set("input", token_list(t, b.src));
  if (pooled) {
    result.set("classes", ranked(model->probs()));
    return result;
  }
  val positions = val::array();
  for (int r = 0; r < b.src_len; ++r) positions.call<void>("push", ranked(model->probs() + static_cast<long>(r) * classes));
  result.set("positions", positions);
  return result;
}

// ---- Trainer --------------------------------------------------------------------------------------

TrainerHandle* TrainerHandle::create(ModelHandle& model, const TaskHandle& task, const std::string& options_json) {
  // Everything that can fail runs before the model is changed (attach) or anything is kept.
  const TrainOptions options = TrainOptions::from_json(json::parse(options_json), TrainOptions::defaults_for(*task.task));
  task.task->check_compatible(model.model->config());
  auto h = std::make_unique<TrainerHandle>();
  h->model = model.model;
  h->task = task.task;
  h->trainer = std::make_unique<Trainer>(*h->model, *h->task, options);
  model.attach(task);
  return h.release();
}

val TrainerHandle::step(int n) {
  TP_CHECK(n >= 1 && n <= 100000, "step(n) needs 1 <= n <= 100000, got ", n);
  const int eval_every = trainer->options().eval_every;
  const double start = emscripten_get_now(), tokens_before = trainer->tokens_seen();
  for (int i = 0; i < n; ++i) trainer->step();
  const double seconds = (emscripten_get_now() - start) / 1000.0;
  // Evaluate at the end of the call when an evaluation is due (or none has happened yet).
  const bool due = last_eval_step == 0 || (eval_every > 0 && trainer->step_count() - last_eval_step >= eval_every);
  if (due) {
    trainer->evaluate();
    last_eval_step = trainer->step_count();
  }
  const StepReport& r = trainer->last();
  const Evaluation& e = trainer->last_evaluation();
  val out = val::object();
  out.set("step", r.step);
  out.set("loss", r.loss);
  out.set("tokenAccuracy", r.token_accuracy);
  out.set("valLoss", e.loss);
  out.set("metric", e.metric);
  out.set("evaluated", due);
  out.set("evaluatedAt", last_eval_step);
  out.set("tokensPerSec", (trainer->tokens_seen() - tokens_before) / std::max(seconds, 1e-9));
  out.set("lr", r.lr);
  out.set("gradNorm", r.grad_norm);
  out.set("tokensSeen", trainer->tokens_seen());
  return out;
}

val TrainerHandle::evaluate() {
  const Evaluation e = trainer->evaluate();
  last_eval_step = trainer->step_count();
  val out = val::object();
  out.set("loss", e.loss);
  out.set("perplexity", e.perplexity);
  out.set("tokenAccuracy", e.token_accuracy);
  out.set("exactMatch", e.exact_match);
  out.set("metric", e.metric);
  out.set("targets", e.targets);
  out.set("sequences", e.sequences);
  return out;
}

}  // namespace tp::bindings
