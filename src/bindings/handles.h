// The objects JavaScript holds: thin owners of core objects, one per public API class
// (Tokenizer, Task, Model, Trainer). Methods convert arguments, call the core, convert results;
// errors are left to embind.cpp's guard. A Trainer shares ownership of its model and task, so
// disposing them in any order is safe.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "import/import.h"
#include "io/checkpoint.h"
#include "model/transformer.h"
#include "tasks/task.h"
#include "tokenize/tokenizer.h"
#include "train/trainer.h"

namespace tp::bindings {

using emscripten::val;

class TokenizerHandle {
 public:
  explicit TokenizerHandle(std::shared_ptr<const Tokenizer> tokenizer) : tok(std::move(tokenizer)) {}
  // options: {"kind": ..., "vocab_size": n, "lowercase": bool}; text: the training text.
  static TokenizerHandle* create(const std::string& options_json, const std::string& text);
  // From save()'s text: the tokenizer as a checkpoint stores it, checked as a checkpoint's is.
  static TokenizerHandle* load(const std::string& saved);

  val encode(const std::string& text, bool add_special_tokens) const;
  std::string decode(const val& ids) const;
  val info() const;                 // { kind, vocabSize, numSpecials }
  val specials() const;             // { sos, eos, pad, unk, cls, mask }: ids, or null where the tokenizer has none
  val vocabulary(int limit) const;  // display text of the first `limit` ids
  std::string save() const;         // Tokenizer::to_json as text
  std::shared_ptr<const Tokenizer> tok;
};

class TaskHandle {
 public:
  static TaskHandle* builtin(const std::string& name);
  static TaskHandle* from_text(const std::string& text, const std::string& tokenizer_json);
  static TaskHandle* from_text_with(const std::string& text, const TokenizerHandle& tokenizer);
  static TaskHandle* from_pairs(const val& pairs);

  val info() const;
  TokenizerHandle* tokenizer() const;
  // A validation example (index wraps) as text, for the page's first prompt.
  val example(int index) const;
  std::shared_ptr<Task> task;
};

class ModelHandle {
 public:
  static ModelHandle* create(const std::string& config_json, double seed);
  // bytes: a Uint8Array the JS API copied; options: LoadOptions as JSON (camelCase).
  static ModelHandle* load(const val& bytes, const std::string& options_json);
  static ModelHandle* from_loaded(LoadedCheckpoint loaded);

  val config() const;
  val parameters() const;                        // [{ name, shape, size }]
  val parameter(const std::string& name) const;  // { shape, data }
  void attach(const TaskHandle& task);           // the tokenizer and task it works with
  TokenizerHandle* tokenizer_handle() const;     // shares the model's tokenizer; null when none
  val info() const;                              // { task, taskKind, tokenizer, classNames, parameterCount }
  val generate(const val& prompt, const std::string& options_json);
  val trace(const std::string& input, const val& target, double pad_to);  // pad_to 0: no padding
  val predict(const std::string& input);
  val save() const;
  val warnings() const;  // what load_checkpoint accepted with a warning (string[])

  std::shared_ptr<Transformer> model;
  std::shared_ptr<const Tokenizer> tok;
  std::string task_name;
  TaskKind task_kind = TaskKind::Text;
  std::vector<std::string> class_names;
  std::vector<std::string> load_warnings;

 private:
  const Tokenizer& tokenizer() const;
  // The tokenizer's specials; a model without one assumes the built-in tokenizers' layout.
  SpecialTokens specials() const;
};

// A model's files on their way in from another project (import/import.h). JavaScript asks for
// a buffer per file (add) and copies the file into it chunk by chunk, so even a 500 MB
// checkpoint is never held twice: not as a JavaScript ArrayBuffer beside the heap, and not as a
// second copy inside it. describe() reads only the config (the page's "what fits" before it
// loads the weights); model() and tokenizer() read everything.
class ImportHandle {
 public:
  // The heap address of `size` bytes for the file `name` (a number: addresses above 2 GB stay
  // positive). tp::Error when the heap cannot grow that far.
  double add(const std::string& name, double size);
  val describe() const;  // { format, config, parameterCount, memory: {...}, limits: {...}, trainable, reason }
  ModelHandle* model() const;
  // The same, with load options as JSON ({"allowNonFinite": true} imports weights and tokenizer
  // scores that are NaN or infinite; the model's warnings() then say so).
  ModelHandle* model_with(const std::string& options_json) const;
  TokenizerHandle* tokenizer() const;

  // Which of the named files an import reads (tokenizer_only: without the weights) and the largest
  // size it reads of each: { read: [names], maxBytes: { name: bytes } }, so JavaScript copies only
  // those and refuses a larger one before it copies anything.
  static val file_plan(const std::string& names_json, bool tokenizer_only);

 private:
  std::vector<ModelFile> files() const;
  std::vector<std::pair<std::string, std::unique_ptr<std::string>>> files_;  // stable data() per file
};

class TrainerHandle {
 public:
  static TrainerHandle* create(ModelHandle& model, const TaskHandle& task, const std::string& options_json);
  // Counts arrive as double and are range-checked before narrowing, so 2**32 + 1 never wraps to 1.
  val step(double n);
  val evaluate();
  int step_count() const { return trainer->step_count(); }
  void set_total_steps(double n);

  std::shared_ptr<Transformer> model;
  std::shared_ptr<Task> task;
  std::unique_ptr<Trainer> trainer;
};

}  // namespace tp::bindings
