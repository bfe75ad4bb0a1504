// Batch: token ids for one training or evaluation step, already padded to rectangles.
//
// Which fields are used depends on the architecture:
//   decoder-only:    tgt_in [B, tgt_len] → targets [B, tgt_len] (the next tokens)
//   encoder-only:    src [B, src_len]    → targets [B, src_len] (mlm, token) or [B] (cls, mean)
//   encoder-decoder: src [B, src_len] and tgt_in [B, tgt_len] (<SOS> + target)
//                                        → targets [B, tgt_len] (target + <EOS>)
// Padding uses the tokenizer's <PAD> id (pad_id) in the inputs — masked as a key, left out of
// mean pooling — and −1 in targets (ignored by the loss).
#pragma once

#include <vector>

namespace tp {

struct Batch {
  int size = 0;
  int src_len = 0;
  int tgt_len = 0;
  int pad_id = -1;  // -1: no position is padding
  std::vector<int> src;
  std::vector<int> tgt_in;
  std::vector<int> targets;  // empty: no loss (inference)
};

}  // namespace tp
