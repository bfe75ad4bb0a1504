// How a task's examples become batches for each architecture; see task.h for the layouts.
#include "tasks/task.h"

#include <algorithm>

#include "core/error.h"
#include "tasks/layout.h"

namespace tp {

namespace {
constexpr float kMaskFraction = 0.15f;  // BERT's masked-token rate
}

void Task::check_compatible(const ModelConfig& c) const {
  const int vocab = tokenizer->vocab_size();
  const auto field = [&](const auto& member) { return schema::name_of(c, member); };
  TP_CHECK(c.vocab_size == vocab, "task '", name, "' uses a vocabulary of ", vocab, " tokens, but the model has ",
           field(c.vocab_size), " = ", c.vocab_size, "; set ", field(c.vocab_size), " to ", vocab);
  switch (kind) {
    case TaskKind::Seq2Seq:
      TP_CHECK(c.arch != Arch::EncoderOnly, "task '", name,
               "' maps a source to a target sequence; it needs an "
               "encoder-decoder or decoder-only model, not encoder-only");
      break;
    case TaskKind::Text:
      TP_CHECK(c.arch != Arch::EncoderDecoder, "task '", name,
               "' is a language model over one text; it needs a "
               "decoder-only model (next token) or an encoder-only model with ",
               field(c.head), " mlm (masked tokens)");
      TP_CHECK(c.arch != Arch::EncoderOnly || c.head == HeadKind::Mlm, "task '", name,
               "' on an encoder-only model predicts masked tokens; set ", field(c.head), " to mlm");
      break;
    case TaskKind::Classify:
      TP_CHECK(c.arch == Arch::EncoderOnly && (c.head == HeadKind::Cls || c.head == HeadKind::Mean), "task '", name,
               "' classifies whole sentences; it needs an encoder-only model with ", field(c.head), " cls or mean");
      TP_CHECK(c.n_classes == static_cast<int>(class_names.size()), "task '", name, "' has ", class_names.size(),
               " classes, but the model has ", field(c.n_classes), " = ", c.n_classes);
      break;
    case TaskKind::Tag:
      TP_CHECK(c.arch == Arch::EncoderOnly && c.head == HeadKind::Token, "task '", name,
               "' tags every token; it needs an encoder-only model with ", field(c.head), " token");
      TP_CHECK(c.n_classes == static_cast<int>(class_names.size()), "task '", name, "' has ", class_names.size(),
               " tags, but the model has ", field(c.n_classes), " = ", c.n_classes);
      break;
  }
  if (kind == TaskKind::Text) {
    TP_CHECK(c.max_len >= 2, "a language model needs ", field(c.max_len), " >= 2, got ", c.max_len);
    return;
  }
  // Every example must fit in max_len once laid out.
  std::size_t longest = 0;
  for (const auto* set : {&train_examples, &val_examples}) {
    for (const Example& e : *set) {
      std::size_t len = e.src.size() + (kind == TaskKind::Classify ? 1 : 0);
      if (kind == TaskKind::Seq2Seq) {
        len = c.arch == Arch::DecoderOnly ? e.src.size() + e.tgt.size() + 1 : std::max(e.src.size(), e.tgt.size() + 1);
      }
      longest = std::max(longest, len);
    }
  }
  TP_CHECK(static_cast<int>(longest) <= c.max_len, "task '", name, "' has examples of ", longest,
           " positions in this layout, but the model has ", field(c.max_len), " = ", c.max_len, "; raise ",
           field(c.max_len), " to at least ", longest);
}

int Task::text_window(const ModelConfig& config, int seq_len) { return std::min(seq_len, config.max_len); }

Batch Task::make_batch(const ModelConfig& c, const std::vector<const Example*>& examples) const {
  return layout_batch(kind, c, tokenizer->specials(), examples);
}

Batch Task::text_batch(const ModelConfig& c, const std::vector<int>& stream, const std::vector<std::size_t>& starts,
                       int len, Rng* mask_rng) const {
  Batch batch;
  batch.size = static_cast<int>(starts.size());
  const SpecialTokens sp = tokenizer->specials();
  batch.pad_id = sp.pad;
  if (c.arch == Arch::DecoderOnly) {
    batch.tgt_len = len;
    for (std::size_t s : starts) {
      batch.tgt_in.insert(batch.tgt_in.end(), stream.begin() + s, stream.begin() + s + len);
      batch.targets.insert(batch.targets.end(), stream.begin() + s + 1, stream.begin() + s + len + 1);
    }
    return batch;
  }
  // Masked tokens: 15% of positions are predicted; of those 80% become <MASK>, 10% a random
  // token and 10% stay (BERT). Validation uses a fixed RNG so its masks never change.
  Rng fixed(4242);
  Rng& rng = mask_rng ? *mask_rng : fixed;
  const int vocab = tokenizer->vocab_size(), first = tokenizer->num_specials();
  batch.src_len = len;
  for (std::size_t s : starts) {
    for (int t = 0; t < len; ++t) {
      const int id = stream[s + t];
      if (rng.uniform() < kMaskFraction) {
        const float r = rng.uniform();
        batch.src.push_back(r < 0.8f ? sp.mask : (r < 0.9f ? first + rng.below(vocab - first) : id));
        batch.targets.push_back(id);
      } else {
        batch.src.push_back(id);
        batch.targets.push_back(-1);
      }
    }
  }
  return batch;
}

Batch Task::sample_batch(const ModelConfig& c, int batch_size, int seq_len, Rng& rng) const {
  TP_CHECK(batch_size >= 1 && batch_size <= 4096, "batch size ", batch_size, " is out of range; allowed: 1 .. 4096");
  if (kind == TaskKind::Text) {
    const int len = text_window(c, seq_len);
    TP_CHECK(train_stream.size() > static_cast<std::size_t>(len) + 1, "the training text has ", train_stream.size(),
             " tokens; a window of ", len, " needs at least ", len + 2);
    std::vector<std::size_t> starts(batch_size);
    const int span = static_cast<int>(train_stream.size()) - len - 1;
    for (auto& s : starts) s = static_cast<std::size_t>(rng.below(span + 1));
    return text_batch(c, train_stream, starts, len, &rng);
  }
  std::vector<Example> fresh;
  std::vector<const Example*> chosen;
  if (generator) {
    fresh.reserve(batch_size);
    for (int i = 0; i < batch_size; ++i) fresh.push_back(generator(rng));
    for (const Example& e : fresh) chosen.push_back(&e);
  } else {
    TP_CHECK(!train_examples.empty(), "task '", name, "' has no training examples");
    for (int i = 0; i < batch_size; ++i)
      chosen.push_back(&train_examples[rng.below(static_cast<int>(train_examples.size()))]);
  }
  return make_batch(c, chosen);
}

std::vector<Batch> Task::validation_batches(const ModelConfig& c, int batch_size, int seq_len) const {
  std::vector<Batch> out;
  if (kind == TaskKind::Text) {
    // Windows as long as training's, or as long as a short validation text allows.
    const int len = std::min<int>(text_window(c, seq_len), static_cast<int>(val_stream.size()) - 1);
    if (len < 1) return out;
    // Non-overlapping windows, at most 32 of them, spread over the validation text.
    const std::size_t windows = std::min<std::size_t>(32, (val_stream.size() - 1) / len);
    const std::size_t stride = windows > 1 ? (val_stream.size() - len - 1) / (windows - 1) : 0;
    std::vector<std::size_t> starts;
    for (std::size_t w = 0; w < windows; ++w) starts.push_back(std::min(w * stride, val_stream.size() - len - 1));
    for (std::size_t i = 0; i < starts.size(); i += batch_size) {
      std::vector<std::size_t> part(starts.begin() + i, starts.begin() + std::min(starts.size(), i + batch_size));
      out.push_back(text_batch(c, val_stream, part, len, nullptr));
    }
    return out;
  }
  for (std::size_t i = 0; i < val_examples.size(); i += batch_size) {
    std::vector<const Example*> part;
    for (std::size_t k = i; k < std::min(val_examples.size(), i + batch_size); ++k) part.push_back(&val_examples[k]);
    out.push_back(make_batch(c, part));
  }
  return out;
}

BatchShape Task::largest_batch(const ModelConfig& c, int batch_size, int seq_len) const {
  BatchShape shape;
  shape.size = batch_size;
  if (kind == TaskKind::Text) {
    (c.arch == Arch::DecoderOnly ? shape.tgt_len : shape.src_len) = text_window(c, seq_len);
    return shape;
  }
  if (generator) {
    if (c.has_encoder()) shape.src_len = c.max_len;
    if (c.has_decoder()) shape.tgt_len = c.max_len;
    return shape;
  }
  // A batch's lengths are the largest of its examples' source, target or source + target (per
  // layout): the examples that have those decide, laid out as a batch of their own.
  const Example *src = nullptr, *tgt = nullptr, *both = nullptr;
  for (const auto* set : {&train_examples, &val_examples}) {
    for (const Example& e : *set) {
      if (!src || e.src.size() > src->src.size()) src = &e;
      if (!tgt || e.tgt.size() > tgt->tgt.size()) tgt = &e;
      if (!both || e.src.size() + e.tgt.size() > both->src.size() + both->tgt.size()) both = &e;
    }
  }
  if (!src) return shape;
  const Batch longest = make_batch(c, {src, tgt, both});
  shape.src_len = longest.src_len;
  shape.tgt_len = longest.tgt_len;
  return shape;
}

std::size_t Task::train_size() const { return kind == TaskKind::Text ? train_stream.size() : train_examples.size(); }
std::size_t Task::val_size() const { return kind == TaskKind::Text ? val_stream.size() : val_examples.size(); }

}  // namespace tp
