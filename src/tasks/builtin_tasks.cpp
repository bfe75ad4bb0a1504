// The built-in tasks: their data, tokenizer, default architecture and training settings.
//
// Defaults are chosen so each task learns in the browser within a minute or two on one core;
// the seed's Q&A toy reproduces the seed's exact model (vocabulary of 11, d_model 6, sinusoidal
// positions, post-norm, ReLU). Data files live in src/tasks/data (see SOURCES.md there).
#include <algorithm>
#include <sstream>

#include "core/error.h"
#include "tasks/embedded.h"
#include "tasks/task.h"
#include "tasks/task_util.h"

namespace tp {

namespace {

// ---- the seed's Q&A toy --------------------------------------------------------------------------

std::unique_ptr<Task> qa_toy() {
  auto task = new_task("qa-toy",
                       "The seed's example: \"how are you\" -> \"i am fine\", \"i am fine\" -> \"how about "
                       "yourself\", with its vocabulary of 11 and d_model = 6",
                       TaskKind::Seq2Seq, "exact_match", "the seed article's worked example");
  task->tokenizer = word_tokenizer_from_vocab({"am", "fine", "how", "i", "about", "are", "you", "yourself"}, 3, true);
  for (const auto& [q, a] : std::vector<std::pair<std::string, std::string>>{{"how are you", "i am fine"},
                                                                             {"i am fine", "how about yourself"}}) {
    task->train_examples.push_back({task->tokenizer->encode(q).ids, task->tokenizer->encode(a).ids, -1, {}});
  }
  task->val_examples = task->train_examples;  // two sentences: the toy is about memorising them
  task->sample_inputs = {"how are you", "i am fine"};
  ModelConfig& c = task->defaults;
  c = model_shape(Arch::EncoderDecoder, 11, 6, 1, 12, 8);
  c.n_heads = 2;
  c.pos = PosKind::Sinusoidal;
  c.norm_placement = NormPlacement::Post;
  c.ffn = FfnKind::Relu;
  TrainOptions& t = task->train;
  t.lr = 0.01f;
  t.batch_size = 2;
  t.warmup = 10;
  t.schedule = ScheduleKind::Constant;
  t.total_steps = 600;
  t.weight_decay = 0.0f;
  t.eval_every = 10;
  return task;
}

// ---- synthetic sequence tasks --------------------------------------------------------------------

const char kSymbols[] = "abcdefghijk";  // 11 symbols

std::unique_ptr<Task> symbol_task(const std::string& name, const std::string& description,
                                  std::vector<int> (*transform)(const std::vector<int>&)) {
  auto task = new_task(name, description, TaskKind::Seq2Seq, "token_accuracy",
                       "generated: random sequences of 10 over 11 symbols a-k");
  std::shared_ptr<const Tokenizer> tok = train_tokenizer({TokenizerKind::Char, 0, false, kAllSpecials}, kSymbols);
  task->tokenizer = tok;
  const int first = tok->num_specials();
  task->generator = [transform, first](Rng& rng) {
    Example e;
    for (int i = 0; i < 10; ++i) e.src.push_back(first + rng.below(11));
    e.tgt = transform(e.src);
    return e;
  };
  Rng val_rng(12345);
  for (int i = 0; i < 200; ++i) task->val_examples.push_back(task->generator(val_rng));
  task->sample_inputs = {"abcdefghij", "kjihgfedcb", "hello"};
  task->defaults = model_shape(Arch::EncoderDecoder, tok->vocab_size(), 32, 1, 64, 16);
  TrainOptions& t = task->train;
  t.batch_size = 32;
  t.warmup = 30;
  t.total_steps = 600;
  t.weight_decay = 0.0f;
  return task;
}

std::unique_ptr<Task> addition() {
  auto task = new_task("addition", "Multi-digit addition: \"123+45\" -> \"168\" (numbers 0-999)", TaskKind::Seq2Seq,
                       "exact_match", "generated: random sums of two numbers below 1000");
  std::shared_ptr<const Tokenizer> tok = train_tokenizer({TokenizerKind::Char, 0, false, kAllSpecials}, "0123456789+");
  task->tokenizer = tok;
  task->generator = [tok](Rng& rng) {
    const int a = rng.below(1000), b = rng.below(1000);
    return Example{
        tok->encode(std::to_string(a) + "+" + std::to_string(b)).ids, tok->encode(std::to_string(a + b)).ids, -1, {}};
  };
  Rng val_rng(777);
  for (int i = 0; i < 200; ++i) task->val_examples.push_back(task->generator(val_rng));
  task->sample_inputs = {"123+45", "999+1", "500+500"};
  task->defaults = model_shape(Arch::EncoderDecoder, tok->vocab_size(), 64, 2, 128, 8);
  TrainOptions& t = task->train;
  t.lr = 0.002f;
  t.batch_size = 64;
  t.warmup = 50;
  t.total_steps = 3000;
  t.eval_every = 200;
  return task;
}

// ---- data-file tasks -----------------------------------------------------------------------------

std::unique_ptr<Task> translate() {
  auto task =
      new_task("translate", "English -> Korean phrase translation (328 pairs written for the product), characters",
               TaskKind::Seq2Seq, "exact_match", "src/tasks/data/translation_en_ko.tsv");
  const auto rows = parse_tsv(embedded::file_text("translation_en_ko.tsv"), 2, "translation_en_ko.tsv");
  std::string all;
  for (const auto& r : rows) all += r[0] + "\n" + r[1] + "\n";
  std::shared_ptr<const Tokenizer> tok = train_tokenizer({TokenizerKind::Char, 0, false, kAllSpecials}, all);
  task->tokenizer = tok;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    Example e{tok->encode(rows[i][0]).ids, tok->encode(rows[i][1]).ids, -1, {}};
    (i % 10 == 9 ? task->val_examples : task->train_examples).push_back(std::move(e));
  }
  task->sample_inputs = {rows[0][0], rows[1][0], "i like apples"};
  ModelConfig& c = task->defaults;
  c = model_shape(Arch::EncoderDecoder, tok->vocab_size(), 64, 2, 256, 48);
  c.dropout = 0.1f;
  TrainOptions& t = task->train;
  t.lr = 0.002f;
  t.batch_size = 32;
  t.warmup = 50;
  t.total_steps = 3000;
  t.label_smoothing = 0.1f;
  t.eval_every = 200;
  return task;
}

std::unique_ptr<Task> language_model(bool bpe) {
  auto task = new_task(bpe ? "lm-bpe" : "lm-char",
                       std::string("A ") + (bpe ? "BPE (512 tokens)" : "character") +
                           " language model on The Devil's Dictionary (Ambrose Bierce, 1911; public domain)",
                       TaskKind::Text, "perplexity", "src/tasks/data/devils_dictionary.txt");
  const std::string text = embedded::file_text("devils_dictionary.txt");
  const std::size_t split = text.rfind('\n', text.size() * 9 / 10) + 1;  // last 10% (at a line start) validates
  // Tokenizers are immutable, so the trained one is kept: BPE training is the costly part of
  // building this task, and pages rebuild it often (a widget's vocabulary, a new trainer).
  static std::shared_ptr<const Tokenizer> trained[2];
  std::shared_ptr<const Tokenizer>& tok = trained[bpe ? 1 : 0];
  if (!tok) {
    const TokenizerOptions options{bpe ? TokenizerKind::Bpe : TokenizerKind::Char, bpe ? 512 : 0, false, kAllSpecials};
    tok = train_tokenizer(options, text.substr(0, split));
  }
  task->tokenizer = tok;
  task->train_stream = tok->encode(std::string_view(text).substr(0, split)).ids;
  task->val_stream = tok->encode(std::string_view(text).substr(split)).ids;
  task->sample_inputs = {"LOVE, n.", "The devil", "PATIENCE, n. A minor form of"};
  task->defaults = model_shape(Arch::DecoderOnly, tok->vocab_size(), 128, 2, 512, 64);
  TrainOptions& t = task->train;
  t.warmup = 100;
  t.total_steps = 5000;
  t.eval_every = 250;
  return task;
}

std::unique_ptr<Task> sentiment() {
  auto task =
      new_task("sentiment", "Sentiment classification of short sentences (\"This teddy bear is SO CUTE!\" -> positive)",
               TaskKind::Classify, "accuracy", "src/tasks/data/sentiment.tsv");
  task->class_names = {"negative", "positive"};
  const auto rows = parse_tsv(embedded::file_text("sentiment.tsv"), 2, "sentiment.tsv");
  std::string train_text;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i % 7 != 6) train_text += rows[i][1] + "\n";
  }
  std::shared_ptr<const Tokenizer> tok = train_tokenizer({TokenizerKind::Word, 0, true, kAllSpecials}, train_text);
  task->tokenizer = tok;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    TP_CHECK(rows[i][0] == "positive" || rows[i][0] == "negative", "sentiment.tsv: label '", rows[i][0],
             "' on data line ", i + 1, " must be positive or negative");
    Example e{tok->encode(rows[i][1]).ids, {}, rows[i][0] == "positive" ? 1 : 0, {}};
    (i % 7 == 6 ? task->val_examples : task->train_examples).push_back(std::move(e));
  }
  task->sample_inputs = {"This teddy bear is SO CUTE!", "The soup was cold and bland.", "What a wonderful day!"};
  ModelConfig& c = task->defaults;
  c = model_shape(Arch::EncoderOnly, tok->vocab_size(), 32, 1, 64, 32);
  c.head = HeadKind::Mean;
  c.n_classes = 2;
  c.dropout = 0.1f;
  TrainOptions& t = task->train;
  t.lr = 0.002f;
  t.batch_size = 32;
  t.total_steps = 400;
  t.eval_every = 50;
  return task;
}

std::unique_ptr<Task> tagging() {
  auto task = new_task("tagging", "Token tagging: names (PER), places (LOC) and times (TIME) in short sentences",
                       TaskKind::Tag, "token_accuracy", "src/tasks/data/tagging.tsv");
  task->class_names = {"O", "PER", "LOC", "TIME"};
  const auto sentences = parse_tagged(embedded::file_text("tagging.tsv"), task->class_names, "tagging.tsv");
  std::string words;
  for (const auto& s : sentences) {
    for (const auto& [w, tag] : s) words += w + " ";
    words += "\n";
  }
  std::shared_ptr<const Tokenizer> tok = train_tokenizer({TokenizerKind::Word, 0, true, kAllSpecials}, words);
  task->tokenizer = tok;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    Example e;
    for (const auto& [w, tag] : sentences[i]) {
      // A word the tokenizer splits ("6:30pm" -> 6 : 30pm) gives its tag to every piece.
      for (const int id : tok->encode(w).ids) {
        e.src.push_back(id);
        e.tags.push_back(tag);
      }
    }
    (i % 8 == 7 ? task->val_examples : task->train_examples).push_back(std::move(e));
  }
  task->sample_inputs = {"mina visited busan on monday", "we met tom in paris at noon"};
  ModelConfig& c = task->defaults;
  c = model_shape(Arch::EncoderOnly, tok->vocab_size(), 32, 2, 64, 16);
  c.head = HeadKind::Token;
  c.n_classes = 4;
  TrainOptions& t = task->train;
  t.batch_size = 32;
  t.total_steps = 600;
  return task;
}

std::vector<int> copy_of(const std::vector<int>& s) { return s; }
std::vector<int> reversed(const std::vector<int>& s) { return {s.rbegin(), s.rend()}; }
std::vector<int> sorted(const std::vector<int>& s) {
  std::vector<int> out = s;
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<TaskInfo> builtin_tasks() {
  return {
      {"qa-toy", "The seed's Q&A example with its vocabulary of 11 and d_model = 6", TaskKind::Seq2Seq},
      {"copy", "Copy a sequence of 10 symbols", TaskKind::Seq2Seq},
      {"reverse", "Reverse a sequence of 10 symbols", TaskKind::Seq2Seq},
      {"sort", "Sort a sequence of 10 symbols", TaskKind::Seq2Seq},
      {"addition", "Add two numbers below 1000", TaskKind::Seq2Seq},
      {"translate", "English -> Korean phrases", TaskKind::Seq2Seq},
      {"lm-char", "Character language model on The Devil's Dictionary", TaskKind::Text},
      {"lm-bpe", "BPE language model on The Devil's Dictionary", TaskKind::Text},
      {"sentiment", "Positive or negative sentences", TaskKind::Classify},
      {"tagging", "Names, places and times in sentences", TaskKind::Tag},
  };
}

TaskKind task_kind(const std::string& name) {
  if (name == "text") return TaskKind::Text;
  if (name == "pairs") return TaskKind::Seq2Seq;
  for (const TaskInfo& t : builtin_tasks()) {
    if (t.name == name) return t.kind;
  }
  return make_task(name)->kind;  // throws the error listing the names
}

TaskKind checkpoint_task_kind(const std::string& name) {
  try {
    return task_kind(name);
  } catch (const Error& e) {
    TP_FAIL("checkpoint: metadata 'task' is not a task this version knows: ", e.what(), ", text, pairs");
  }
}

std::unique_ptr<Task> make_task(const std::string& name) {
  if (name == "qa-toy") return qa_toy();
  if (name == "copy") return symbol_task("copy", "Copy a sequence of 10 symbols (11 symbols a-k)", &copy_of);
  if (name == "reverse") return symbol_task("reverse", "Reverse a sequence of 10 symbols (11 symbols a-k)", &reversed);
  if (name == "sort") return symbol_task("sort", "Sort a sequence of 10 symbols (11 symbols a-k)", &sorted);
  if (name == "addition") return addition();
  if (name == "translate") return translate();
  if (name == "lm-char") return language_model(false);
  if (name == "lm-bpe") return language_model(true);
  if (name == "sentiment") return sentiment();
  if (name == "tagging") return tagging();
  std::string names;
  for (const TaskInfo& t : builtin_tasks()) names += (names.empty() ? "" : ", ") + t.name;
  TP_FAIL("there is no task named '", name, "'; built-in tasks: ", names);
}

}  // namespace tp
