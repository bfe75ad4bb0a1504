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

#include "core/schema.h"
#include "generate/sampler.h"
#include "model/transformer.h"
#include "tokenize/special_tokens.h"

namespace tp {

struct GenerateOptions {
  int max_new_tokens = 32;
  SamplingOptions sampling;     // greedy by default
  int beam = 1;                 // > 1: beam search of this width (sampling is then ignored)
  float length_penalty = 1.0f;  // beam scores are log p / length^length_penalty
  bool kv_cache = true;
  int top_k_probs = 0;     // report this many most likely tokens per step
  std::uint64_t seed = 0;  // for sampling
  // A text prompt is encoded with the tokenizer's specials template (an imported Llama's or
  // llama2.c's <s> first), as the model's own tokenizer encodes it; false: the text's ids alone.
  bool add_special_tokens = true;
  // The tokenizer's specials: <SOS> starts an encoder-decoder's output, <EOS> ends any output,
  // and the input-only ones are never sampled. Default: none (generation then runs to its limit).
  SpecialTokens specials;

  // clang-format off: one line per field (the table is read as a table)
  template <typename Self, typename Visit>
  static void fields(Self& o, Visit&& visit) {
    using namespace schema;
    visit(Int("max_new_tokens", "maxNewTokens", 1, 4096, "stop after this many new tokens").cli("max-tokens"),
          o.max_new_tokens);
    visit(Real("temperature", "temperature", 0, 100, "softmax temperature of sampling").note("greedy"),
          o.sampling.temperature);
    visit(Int("top_k", "topK", 0, kUnbounded, "sample only from the k most likely tokens").note("0 keeps every token"),
          o.sampling.top_k);
    visit(Real("top_p", "topP", 0, 1, "sample from the smallest set of tokens whose probability reaches p").open_min(),
          o.sampling.top_p);
    visit(Int("beam", "beam", 1, 64, "beam search of this width").note("no beam search"), o.beam);
    visit(Real("length_penalty", "lengthPenalty", 0, 10, "beam scores are log p / length^length_penalty"),
          o.length_penalty);
    visit(
        Flag("kv_cache", "kvCache", "reuse the keys and values of earlier tokens (the output is the same either way)"),
        o.kv_cache);
    visit(Int("top_k_probs", "topKProbs", 0, 100, "report this many most likely next tokens per step"), o.top_k_probs);
    visit(Int("seed", "seed", 0, 9007199254740991LL, "seed of sampling"), o.seed);
    visit(Flag("add_special_tokens", "addSpecialTokens",
               "a text prompt gets the special tokens the model's tokenizer puts around a text (<s> first for Llama "
               "and llama2.c)"),
          o.add_special_tokens);
  }
  // clang-format on
  void validate() const { schema::check(*this); }
};

struct GenerateStep {
  int id = 0;
  std::vector<TokenProb> top;  // empty unless top_k_probs > 0 (and for beam search)
};

// Why generation stopped: at <EOS>, after max_new_tokens, or when the sequence reached max_len.
// The JavaScript StopReason type is generated from this list.
inline constexpr const char* kStopEos = "eos";
inline constexpr const char* kStopMaxNewTokens = "max_new_tokens";
inline constexpr const char* kStopMaxLen = "max_len";
inline constexpr const char* kStopReasons[] = {kStopEos, kStopMaxNewTokens, kStopMaxLen};

struct GenerateResult {
  std::vector<int> ids;  // the new tokens (without <SOS>; with the final <EOS> if hit)
  std::vector<GenerateStep> steps;
  std::string stop_reason;  // one of kStopReasons
  double seconds = 0.0;
  double ms_per_token = 0.0;
  std::vector<float> last_logits;  // logits of the last step [vocab] (tests compare them)
  // Decoder positions run forward. With the cache each position once: the decoder's start (the
  // prompt, or <SOS>) + the tokens generated − 1, since the last token chosen is never fed.
  // Without it every step reruns the whole sequence; beam search counts every beam's passes.
  std::int64_t decoded_positions = 0;
};

GenerateResult generate(Transformer& model, const std::vector<int>& prompt, const GenerateOptions& options);

}  // namespace tp
