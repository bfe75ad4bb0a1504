// Embind registration: what the wasm module exports to JavaScript.
//
// Thin by design: the classes in handles.h own core objects and convert values; this file only
// registers them. No exception crosses into JavaScript: every call runs inside guarded()
// (guard.h), which turns tp::Error (or any std::exception, e.g. out of memory) into a message
// that web/lib/engine.js collects with takeError() and rethrows as a JS Error, so the module
// stays usable after any bad input. JavaScript calls the public API in web/lib/, never these.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <string>

#include "bindings/convert.h"
#include "bindings/guard.h"
#include "bindings/handles.h"
#include "core/error.h"
#include "core/schema.h"
#include "core/thread_pool.h"
#include "generate/generator.h"
#include "io/checkpoint.h"
#include "kernels/self_check.h"
#include "model/config.h"
#include "model/trace_names.h"
#include "model/train_options.h"
#include "tasks/task.h"
#include "tokenize/tokenizer.h"
#include "train/trainer.h"

using emscripten::allow_raw_pointers;
using emscripten::val;
using namespace tp::bindings;

namespace {

std::string version() { return TP_VERSION; }

val heap_stats() {
  const struct mallinfo info = mallinfo();
  val out = val::object();
  out.set("heapSize", val::module_property("HEAP8")["length"]);
  out.set("allocated", static_cast<double>(info.uordblks));
  return out;
}

val kernel_self_check(unsigned seed) {
  return guarded([&] {
    const tp::kernels::SelfCheckReport report = tp::kernels::run_self_check(seed);
    val out = val::object();
    out.set("pass", report.pass);
    out.set("backend", report.backend);
    out.set("simdGflops", report.simd_gflops);
    out.set("scalarGflops", report.scalar_gflops);
    val cases = val::array();
    for (const auto& c : report.cases) {
      val item = val::object();
      item.set("kernel", c.kernel);
      item.set("error", c.error);
      item.set("tolerance", c.tolerance);
      item.set("pass", c.pass);
      cases.call<void>("push", item);
    }
    out.set("cases", cases);
    return out;
  });
}

val builtin_task_list() {
  return guarded([] {
    val out = val::array();
    for (const tp::TaskInfo& info : tp::builtin_tasks()) {
      val item = val::object();
      item.set("name", info.name);
      item.set("description", info.description);
      item.set("kind", std::string(tp::to_string(info.kind)));
      out.call<void>("push", item);
    }
    return out;
  });
}

// The tables the JavaScript API, its types and the playground's controls are generated from
// (scripts/generate.mjs): every option's name, type, default, range and doc, the trace names,
// and the lists the API's unions are (task kinds, metrics, stop reasons, built-in tasks).
val schema_tables() {
  return guarded([] {
    using namespace tp;
    json::Value out = json::Value::object();
    out.set("model", schema::describe<ModelConfig>());
    out.set("train", schema::describe<TrainOptions>());
    out.set("generate", schema::describe<GenerateOptions>());
    out.set("tokenizer", schema::describe<TokenizerOptions>());
    out.set("load", schema::describe<LoadOptions>());
    out.set("stepReport", schema::describe<StepReport>());
    out.set("evaluation", schema::describe<Evaluation>());
    out.set("trace", describe_trace_names());
    // The values of the JavaScript unions the tables' fields do not already give.
    json::Value lists = json::Value::object();
    json::Value kinds = json::Value::array(), metrics = json::Value::array(), reasons = json::Value::array(),
                tasks = json::Value::array();
    for (TaskKind k : kTaskKinds) kinds.push(std::string(to_string(k)));
    for (const char* m : kTaskMetrics) metrics.push(std::string(m));
    for (const char* r : kStopReasons) reasons.push(std::string(r));
    for (const TaskInfo& t : builtin_tasks()) tasks.push(t.name);
    lists.set("taskKind", std::move(kinds));
    lists.set("metric", std::move(metrics));
    lists.set("stopReason", std::move(reasons));
    lists.set("builtinTask", std::move(tasks));
    out.set("lists", std::move(lists));
    return json_to_val(out);
  });
}

// The thread pool (core/thread_pool.h): { available, threads, limit, hardware }. In the threaded
// module the loader first sets the limit to the threads it prepared workers for.
val thread_info() {
  return guarded([] {
    val out = val::object();
    out.set("available", tp::threads::available());
    out.set("threads", tp::threads::count());
    out.set("limit", tp::threads::limit());
    out.set("hardware", tp::threads::hardware());
    return out;
  });
}
void set_thread_limit(int n) {
  guarded([&] { tp::threads::set_limit(n); });
}
void set_threads(int n) {
  guarded([&] { tp::threads::set_count(n); });
}

TokenizerHandle* create_tokenizer(std::string options, std::string text) {
  return guarded([&] { return TokenizerHandle::create(options, text); });
}
TokenizerHandle* load_tokenizer(std::string saved) {
  return guarded([&] { return TokenizerHandle::load(saved); });
}
TaskHandle* builtin_task(std::string name) {
  return guarded([&] { return TaskHandle::builtin(name); });
}
TaskHandle* text_task(std::string text, std::string tokenizer) {
  return guarded([&] { return TaskHandle::from_text(text, tokenizer); });
}
TaskHandle* text_task_with(std::string text, const TokenizerHandle& tokenizer) {
  return guarded([&] { return TaskHandle::from_text_with(text, tokenizer); });
}
TaskHandle* pairs_task(val pairs) {
  return guarded([&] { return TaskHandle::from_pairs(pairs); });
}
ModelHandle* create_model(std::string config, double seed) {
  return guarded([&] { return ModelHandle::create(config, seed); });
}
ModelHandle* load_model(val bytes, std::string options) {
  return guarded([&] { return ModelHandle::load(bytes, options); });
}
ImportHandle* create_import() { return new ImportHandle(); }
val import_file_plan(std::string names_json, bool tokenizer_only) {
  return guarded([&] { return ImportHandle::file_plan(names_json, tokenizer_only); });
}
TrainerHandle* create_trainer(ModelHandle& model, const TaskHandle& task, std::string options) {
  return guarded([&] { return TrainerHandle::create(model, task, options); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(transformer_playground) {
  // JavaScript knows every option by its camelCase name; so do the core's messages here.
  tp::schema::set_naming(tp::schema::Naming::Camel);
  emscripten::function("takeError", &take_error);
  emscripten::function("schema", &schema_tables);
  emscripten::function("version", &version);
  emscripten::function("heapStats", &heap_stats);
  emscripten::function("kernelSelfCheck", &kernel_self_check);
  emscripten::function("builtinTasks", &builtin_task_list);
  emscripten::function("threadInfo", &thread_info);
  emscripten::function("setThreadLimit", &set_thread_limit);
  emscripten::function("setThreads", &set_threads);
  emscripten::function("createTokenizer", &create_tokenizer, allow_raw_pointers());
  emscripten::function("loadTokenizer", &load_tokenizer, allow_raw_pointers());
  emscripten::function("builtinTask", &builtin_task, allow_raw_pointers());
  emscripten::function("textTask", &text_task, allow_raw_pointers());
  emscripten::function("textTaskWith", &text_task_with, allow_raw_pointers());
  emscripten::function("pairsTask", &pairs_task, allow_raw_pointers());
  emscripten::function("createModel", &create_model, allow_raw_pointers());
  emscripten::function("loadModel", &load_model, allow_raw_pointers());
  emscripten::function("createTrainer", &create_trainer, allow_raw_pointers());
  emscripten::function("createImport", &create_import, allow_raw_pointers());
  emscripten::function("importFilePlan", &import_file_plan);

  emscripten::class_<TokenizerHandle>("TokenizerHandle")
      .function("encode", &Guarded<&TokenizerHandle::encode>::call)
      .function("decode", &Guarded<&TokenizerHandle::decode>::call)
      .function("info", &Guarded<&TokenizerHandle::info>::call)
      .function("specials", &Guarded<&TokenizerHandle::specials>::call)
      .function("vocabulary", &Guarded<&TokenizerHandle::vocabulary>::call)
      .function("save", &Guarded<&TokenizerHandle::save>::call);
  emscripten::class_<TaskHandle>("TaskHandle")
      .function("info", &Guarded<&TaskHandle::info>::call)
      .function("tokenizer", &Guarded<&TaskHandle::tokenizer>::call, allow_raw_pointers())
      .function("example", &Guarded<&TaskHandle::example>::call);
  emscripten::class_<ModelHandle>("ModelHandle")
      .function("config", &Guarded<&ModelHandle::config>::call)
      .function("parameters", &Guarded<&ModelHandle::parameters>::call)
      .function("parameter", &Guarded<&ModelHandle::parameter>::call)
      .function("info", &Guarded<&ModelHandle::info>::call)
      .function("tokenizer", &Guarded<&ModelHandle::tokenizer_handle>::call, allow_raw_pointers())
      .function("generate", &Guarded<&ModelHandle::generate>::call)
      .function("trace", &Guarded<&ModelHandle::trace>::call)
      .function("predict", &Guarded<&ModelHandle::predict>::call)
      .function("save", &Guarded<&ModelHandle::save>::call)
      .function("warnings", &Guarded<&ModelHandle::warnings>::call);
  emscripten::class_<ImportHandle>("ImportHandle")
      .function("add", &Guarded<&ImportHandle::add>::call)
      .function("describe", &Guarded<&ImportHandle::describe>::call)
      .function("model", &Guarded<&ImportHandle::model>::call, allow_raw_pointers())
      .function("modelWith", &Guarded<&ImportHandle::model_with>::call, allow_raw_pointers())
      .function("tokenizer", &Guarded<&ImportHandle::tokenizer>::call, allow_raw_pointers());
  emscripten::class_<TrainerHandle>("TrainerHandle")
      .function("step", &Guarded<&TrainerHandle::step>::call)
      .function("evaluate", &Guarded<&TrainerHandle::evaluate>::call)
      .function("stepCount", &Guarded<&TrainerHandle::step_count>::call)
      .function("setTotalSteps", &Guarded<&TrainerHandle::set_total_steps>::call);
}
