// Generation: from a prompt to new tokens, with or without the KV cache, by sampling or by beam
// search. Every step can report the top-k next-token probabilities.
//
// Prompts by architecture:
//   decoder-only:    the prompt ids are the start of the sequence; new tokens continue it.
//   encoder-decoder: the prompt ids are the source; the decoder starts from <SOS>.
// Generation stops at <EOS>, after max_new_tokens, or when the sequence reaches max_len.
#pragma once

#include <string>
#include <vector>

#include "generate/sampler.h"
#include "model/transformer.h"

namespace tp {

struct GenerateOptions {
  int max_new_tokens = 32;
  SamplingOptions sampling;   // greedy by default
  int beam = 1;               // > 1: beam search of this width (sampling is then ignored)
  float length_penalty = 1.0f;  // beam scores are log p / length^length_penalty
  bool kv_cache = true;
  int top_k_probs = 0;        // report this many most likely tokens per step
  std::uint64_t seed = 0;     // for sampling
  int num_specials = 6;       // the tokenizer's: which of <CLS>=4 and <MASK>=5 exist as specials
  void validate() const;
};

struct GenerateStep {
  int id = 0;
  std::vector<TokenProb> top;  // empty unless top_k_probs > 0 (and for beam search)
};

struct GenerateResult {
  std::vector<int> ids;            // the new tokens (without <SOS>; with the final <EOS> if hit)
  std::vector<GenerateStep> steps;
  std::string stop_reason;         // "eos", "max_new_tokens" or "max_len"
  double seconds = 0.0;
  double ms_per_token = 0.0;
  std::vector<float> last_logits;  // logits of the last step [vocab] (tests compare them)
};

GenerateResult generate(Transformer& model, const std::vector<int>& prompt, const GenerateOptions& options);

}  // namespace tp
