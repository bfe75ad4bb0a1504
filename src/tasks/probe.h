// Probes: one input laid out for looking inside a model — the trace the page draws (every matrix
// of one forward pass) and an encoder's predictions. The layout is layout_batch()'s; when no
// target is given, a model that produces sequences answers with its own greedy output, so the
// decoder's attention shows what it actually does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/trace.h"
#include "model/transformer.h"
#include "tasks/layout.h"
#include "tokenize/tokenizer.h"

namespace tp {

struct Probe {
  Batch batch;              // batch of one, targets −1 (no loss; the output probabilities are traced)
  std::vector<int> input;   // what the first stack reads (with <CLS>, padding)
  std::vector<int> output;  // the decoder's answer: the target given, or the model's own
};

// `input` (and `target`) as `kind`'s layout for this model, padded with <PAD> to `pad_to`
// positions when pad_to > 0. tp::Error on empty input or lengths past max_len.
Probe probe(Transformer& model, TaskKind kind, const Tokenizer& tokenizer, const std::string& input,
            const std::optional<std::string>& target, std::int64_t pad_to);

// The probe run through the model with a trace.
Trace trace_probe(Transformer& model, const Probe& probe);

struct Ranked {
  int id = 0;
  float p = 0.0f;
};
// An encoder-only model's predictions for `input`: per sequence (cls, mean heads) or per
// position (token, mlm heads), each the `top` most likely classes or tokens, best first.
std::vector<std::vector<Ranked>> predict(Transformer& model, TaskKind kind, const Tokenizer& tokenizer,
                                         const std::string& input, int top);

}  // namespace tp
