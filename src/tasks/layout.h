// How examples become a batch, for each kind of task and each architecture — the one place a
// batch's layout is decided (docs/TASKS.md has the tables). Training, validation, the trace and
// the predictions all lay their examples out here.
//
//   seq2seq, encoder-decoder:  src = source            tgt_in = <SOS> target   targets = target <EOS>
//   seq2seq, decoder-only:     tgt_in = source <SOS> target                     targets: the target's next tokens
//   text, decoder-only:        tgt_in = the tokens                              targets: the next tokens
//   text, encoder-only (mlm):  src = the tokens (masking is the task's, at random)
//   classify / tag:            src = [<CLS>] sentence                           targets = label / tags
// Rows are padded with the tokenizer's <PAD> (batch.pad_id); padded targets are −1.
#pragma once

#include <vector>

#include "model/batch.h"
#include "model/config.h"
#include "tokenize/special_tokens.h"

namespace tp {

enum class TaskKind { Seq2Seq, Text, Classify, Tag };
const char* to_string(TaskKind kind);
// Every kind, in declaration order (the JavaScript TaskKind type is generated from it).
inline constexpr TaskKind kTaskKinds[] = {TaskKind::Seq2Seq, TaskKind::Text, TaskKind::Classify, TaskKind::Tag};

struct Example {
  std::vector<int> src;   // seq2seq source; text tokens; classify/tag sentence
  std::vector<int> tgt;   // seq2seq target (no special tokens)
  int label = -1;         // classify
  std::vector<int> tags;  // tag: one class per src token
};

// The batch of `examples` as `config`'s architecture reads a task of `kind`. A sentence gets the
// <CLS> prefix when the task classifies or the model's head reads <CLS>; pooled heads (cls,
// mean) take one target per row.
Batch layout_batch(TaskKind kind, const ModelConfig& config, const SpecialTokens& specials,
                   const std::vector<const Example*>& examples);

}  // namespace tp
