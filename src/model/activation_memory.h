// Activation memory: how much of the model's arena (core/arena.h) one forward pass — and, when
// training, its backward pass — of a batch takes, computed from the config and the batch's shape
// alone, so a run can be refused before it allocates (the trainer does, train/trainer.cpp).
//
// The count follows the buffers Transformer::forward()/backward() take from the arena, layer by
// layer (embedding, each sublayer's norm statistics, residual and dropout masks, attention's
// Q, K, V, probabilities and score rows, the FFN's hidden activations, the logits, their
// softmax and gradient, and every gradient buffer of the backward pass), as an upper bound: a
// buffer one variant needs is counted for all (the larger of pre- and post-norm, the FFN kinds'
// own counts). native_tests/test_training_memory.cpp holds it to within a few percent of what the
// arena really reserves, for every architecture.
//
// What grows: batch × length × width for the residual stream, batch × heads × length² for the
// attention probabilities, batch × length × d_ff for the FFN and batch × length × vocabulary for
// the logits. The arena keeps 1.5 × one pass (room to grow without reallocating), which
// estimate_activation_bytes() includes.
#pragma once

#include <cstdint>

#include "model/config.h"

namespace tp {

struct BatchShape {
  int size = 1;     // sequences
  int src_len = 0;  // encoder positions (0 without an encoder)
  int tgt_len = 0;  // decoder positions (0 without a decoder)
};

// Floats one pass takes from the arena (forward only, or forward and backward when `train`).
std::int64_t activation_floats(const ModelConfig& config, const BatchShape& batch, bool train);
// Bytes the arena holds after such passes: 1.5 × the floats of one (Arena::reset()'s headroom),
// and at least its first chunk.
std::int64_t estimate_activation_bytes(const ModelConfig& config, const BatchShape& batch, bool train);

}  // namespace tp
