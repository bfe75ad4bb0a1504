// Task: a data set, its tokenizer, the model and training defaults that suit it, and how its
// examples become batches for each architecture.
//
// Four kinds of data cover every built-in task and the user's own:
//   seq2seq  (source, target) pairs — qa-toy, copy, reverse, sort, addition, translation, pairs
//   text     one token stream cut into windows — the language models, the user's own text
//   classify (sentence, label) — sentiment
//   tag      (sentence, one tag per token) — token tagging
// Examples become batches through layout_batch() (tasks/layout.h, docs/TASKS.md): seq2seq runs
// on an encoder-decoder or, as "source <SOS> target <EOS>", on a decoder-only model; text runs on
// a decoder-only model (next token) or an encoder-only one (masked tokens); classify and tag need
// an encoder-only model with the matching head.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "model/activation_memory.h"
#include "model/batch.h"
#include "model/config.h"
#include "model/train_options.h"
#include "tasks/layout.h"
#include "tokenize/tokenizer.h"

namespace tp {

// The validation metrics a task reports (perplexity: lower is better). The JavaScript Metric type
// is generated from this list; new_task() refuses any other.
inline constexpr const char* kTaskMetrics[] = {"exact_match", "token_accuracy", "perplexity", "accuracy"};

class Task {
 public:
  std::string name;
  std::string description;
  TaskKind kind = TaskKind::Text;
  std::string metric;  // one of kTaskMetrics
  ModelConfig defaults;
  TrainOptions train;  // the training options that suit this task
  std::shared_ptr<const Tokenizer> tokenizer;
  std::vector<std::string> class_names;    // classify, tag
  std::vector<std::string> sample_inputs;  // what the page offers as a first prompt
  std::string source;                      // where the data comes from

  std::vector<Example> train_examples, val_examples;  // seq2seq, classify, tag
  std::vector<int> train_stream, val_stream;          // text
  // Synthetic tasks draw fresh training examples from the trainer's RNG.
  std::function<Example(Rng&)> generator;

  // tp::Error unless `config` can run this task (architecture, head, vocabulary, lengths).
  void check_compatible(const ModelConfig& config) const;
  // A random training batch of `batch_size` examples (text tasks: windows of seq_len tokens,
  // at most max_len).
  Batch sample_batch(const ModelConfig& config, int batch_size, int seq_len, Rng& rng) const;
  // The validation set as batches, always the same ones.
  std::vector<Batch> validation_batches(const ModelConfig& config, int batch_size, int seq_len) const;
  // The largest shape a training or validation batch of `batch_size` sequences can have under
  // `config`: text tasks' windows, else the longest examples as layout_batch() lays them out
  // (max_len for synthetic tasks, whose examples are drawn as training goes). What the trainer's
  // memory check (activation_memory.h) is computed for.
  BatchShape largest_batch(const ModelConfig& config, int batch_size, int seq_len) const;

  std::size_t train_size() const;  // examples (or tokens for text)
  std::size_t val_size() const;

 private:
  Batch make_batch(const ModelConfig& config, const std::vector<const Example*>& examples) const;
  Batch text_batch(const ModelConfig& config, const std::vector<int>& stream, const std::vector<std::size_t>& starts,
                   int len, Rng* mask_rng) const;
  static int text_window(const ModelConfig& config, int seq_len);
};

// Built-in tasks: qa-toy, copy, reverse, sort, addition, translate, lm-char, lm-bpe, sentiment,
// tagging.
struct TaskInfo {
  std::string name, description;
  TaskKind kind;
};
std::vector<TaskInfo> builtin_tasks();
std::unique_ptr<Task> make_task(const std::string& name);  // tp::Error listing the names
// The kind of a task by name, including the user tasks "text" and "pairs" (tp::Error if unknown).
TaskKind task_kind(const std::string& name);
// The same for the task a checkpoint names in its `task` metadata: the error says it comes from
// the checkpoint ("checkpoint: metadata 'task' is ...").
TaskKind checkpoint_task_kind(const std::string& name);

// The user's own data: a language model over `text` (char, word, bpe or byte tokens) or a
// sequence-to-sequence task over (source, target) pairs (character tokens).
std::unique_ptr<Task> make_text_task(const std::string& text, const TokenizerOptions& tokenizer);
// The same over a given tokenizer (an imported model's, to fine-tune it on the text).
std::unique_ptr<Task> make_text_task_with(const std::string& text, std::shared_ptr<const Tokenizer> tokenizer);
std::unique_ptr<Task> make_pairs_task(const std::vector<std::pair<std::string, std::string>>& pairs);

}  // namespace tp
