// Choosing the next token from logits: greedy, temperature, top-k and top-p (nucleus) sampling,
// and the top-k probability list the page draws as bars.
#pragma once

#include <vector>

#include "core/rng.h"

namespace tp {

struct SamplingOptions {
  float temperature = 0.0f;  // 0 = greedy (argmax); otherwise softmax(logits / temperature)
  int top_k = 0;             // keep only the k most likely tokens (0 = all)
  float top_p = 1.0f;        // keep the smallest set whose probability reaches top_p
  // (validated with GenerateOptions, whose table describes these three)
};

struct TokenProb {
  int id = 0;
  float p = 0.0f;         // the model's probability, softmax(logits)
  float p_sample = 0.0f;  // the probability it was drawn with (after temperature, top-k, top-p)
};

// Picks the next token, never one of `banned` (generation bans the input-only specials; their
// model probability is still reported). When `top` is non-null it receives the `top_n` most
// likely tokens (by the model's probability, ties by id), best first.
struct Banned {
  std::vector<int> ids;
  bool operator()(int id) const;
};
int sample_next(const float* logits, int vocab, const SamplingOptions& options, Rng& rng,
                std::vector<TokenProb>* top = nullptr, int top_n = 0, const Banned& banned = {});

// log softmax of logits (for beam search), in double.
void log_softmax(const float* logits, int vocab, std::vector<double>& out);

}  // namespace tp
