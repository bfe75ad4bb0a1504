// Tasks over the user's own data: a language model over pasted text, or a sequence-to-sequence
// task over pasted (source, target) pairs. Both hold out every tenth item for validation.
#include "core/error.h"
#include "tasks/task.h"
#include "tasks/task_util.h"

namespace tp {

std::unique_ptr<Task> make_text_task(const std::string& text, const TokenizerOptions& options) {
  TP_CHECK(text.size() >= 16, "the text has ", text.size(), " bytes; a language model needs at least 16");
  TP_CHECK(text.size() <= (16u << 20), "the text has ", text.size(), " bytes; the limit is 16 MB");
  return make_text_task_with(text, std::shared_ptr<const Tokenizer>(train_tokenizer(options, text)));
}

std::unique_ptr<Task> make_text_task_with(const std::string& text, std::shared_ptr<const Tokenizer> tok) {
  TP_CHECK(tok != nullptr, "a text task needs a tokenizer");
  TP_CHECK(text.size() >= 16, "the text has ", text.size(), " bytes; a language model needs at least 16");
  TP_CHECK(text.size() <= (16u << 20), "the text has ", text.size(), " bytes; the limit is 16 MB");
  auto task = new_task("text", "A language model over your own text", TaskKind::Text, "perplexity", "your text");
  task->tokenizer = tok;
  const std::vector<int> ids = tok->encode(text).ids;
  TP_CHECK(ids.size() >= 24, "the text gives ", ids.size(),
           " tokens; a language model needs at least 24 (add more text)");
  // The last tenth validates, but never fewer than 8 tokens, so short texts still get a score.
  const std::size_t split = std::min(ids.size() * 9 / 10, ids.size() - 8);
  task->train_stream.assign(ids.begin(), ids.begin() + split);
  task->val_stream.assign(ids.begin() + split, ids.end());
  task->sample_inputs = {text.substr(0, std::min<std::size_t>(text.size(), 12))};
  task->defaults = model_shape(Arch::DecoderOnly, tok->vocab_size(), 64, 2, 256, 64);
  TrainOptions& t = task->train;
  t.warmup = 50;
  t.total_steps = 2000;
  t.eval_every = 200;
  task->train.seq_len = std::min<int>(64, static_cast<int>(task->train_stream.size()) - 2);
  TP_CHECK(task->train.seq_len >= 2, "the text is too short to train on: it gives ", ids.size(),
           " tokens; add more text");
  return task;
}

std::unique_ptr<Task> make_pairs_task(const std::vector<std::pair<std::string, std::string>>& pairs) {
  TP_CHECK(!pairs.empty(), "no pairs given; a pairs task needs at least one (source, target) pair");
  TP_CHECK(pairs.size() <= 100000, "there are ", pairs.size(), " pairs; the limit is 100000");
  std::string all;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    TP_CHECK(!pairs[i].first.empty() && !pairs[i].second.empty(), "pair ", i + 1, " has an empty source or target");
    all += pairs[i].first + pairs[i].second;
  }
  auto task =
      new_task("pairs", "Sequence to sequence over your own pairs", TaskKind::Seq2Seq, "exact_match", "your pairs");
  std::shared_ptr<const Tokenizer> tok = train_tokenizer({TokenizerKind::Char, 0, false, kAllSpecials}, all);
  task->tokenizer = tok;
  std::size_t longest = 1;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    Example e{tok->encode(pairs[i].first).ids, tok->encode(pairs[i].second).ids, -1, {}};
    longest = std::max({longest, e.src.size(), e.tgt.size() + 1});
    // With fewer than 10 pairs every pair trains and validates (there is nothing to hold out).
    if (pairs.size() >= 10 && i % 10 == 9) {
      task->val_examples.push_back(std::move(e));
    } else {
      task->train_examples.push_back(std::move(e));
    }
  }
  if (task->val_examples.empty()) task->val_examples = task->train_examples;
  task->sample_inputs = {pairs[0].first};
  task->defaults = model_shape(Arch::EncoderDecoder, tok->vocab_size(), 64, 2, 256,
                               static_cast<int>(std::min<std::size_t>(4096, std::max<std::size_t>(16, longest))));
  TrainOptions& t = task->train;
  t.lr = 0.002f;
  t.batch_size = 32;
  t.warmup = 50;
  t.total_steps = 2000;
  t.eval_every = 200;
  return task;
}

}  // namespace tp
