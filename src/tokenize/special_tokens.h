// SpecialTokens: which ids a tokenizer gives its special tokens (-1 where it has none of that
// kind). Only a tokenizer decides them; everything that lays out batches (tasks) or generates
// takes them as data, so a tokenizer with another layout (an imported model's) needs no change
// anywhere else.
#pragma once

#include <vector>

namespace tp {

struct SpecialTokens {
  int sos = -1;   // <SOS>: starts a decoder's input
  int eos = -1;   // <EOS>: ends an output
  int pad = -1;   // <PAD>: fills batches; masked as a key, ignored as a target
  int unk = -1;   // <UNK>: text the vocabulary lacks
  int cls = -1;   // <CLS>: the position a sentence classifier reads
  int mask = -1;  // <MASK>: a hidden token for masked-token prediction

  // The specials that only ever appear in inputs, which generation never samples.
  std::vector<int> input_only() const;
};

}  // namespace tp
