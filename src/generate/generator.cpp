// Sampling generation (cached or not) and beam search.
#include "generate/generator.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/det_math.h"
#include "core/error.h"
#include "core/thread_pool.h"

namespace tp {

namespace {

// The decoder's input so far: the prompt (decoder-only) or <SOS> (encoder-decoder).
std::vector<int> decoder_start(const ModelConfig& c, const std::vector<int>& prompt, const SpecialTokens& specials) {
  if (c.arch == Arch::EncoderDecoder) {
    TP_CHECK(specials.sos >= 0, "an encoder-decoder model starts its output with <SOS>, but the tokenizer has none");
    return {specials.sos};
  }
  TP_CHECK(!prompt.empty(), "a decoder-only model needs a non-empty prompt");
  return prompt;
}

// Logits of the last position of `seq` by a full forward pass (the uncached path).
void full_forward_logits(Transformer& model, const std::vector<int>& prompt, const std::vector<int>& seq, int pad_id,
                         float* out) {
  const ModelConfig& c = model.config();
  Batch b;
  b.size = 1;
  b.pad_id = pad_id;
  b.tgt_len = static_cast<int>(seq.size());
  b.tgt_in = seq;
  if (c.arch == Arch::EncoderDecoder) {
    b.src = prompt;
    b.src_len = static_cast<int>(prompt.size());
  }
  model.forward(b, false);
  const int V = c.vocab_size;
  std::copy(model.logits() + static_cast<std::size_t>(b.tgt_len - 1) * V,
            model.logits() + static_cast<std::size_t>(b.tgt_len) * V, out);
}

void check_prompt(const ModelConfig& c, const std::vector<int>& prompt) {
  TP_CHECK(c.has_decoder(), "generation needs a model with a decoder; this one is ", to_string(c.arch),
           " (use its predictions from forward() instead)");
  TP_CHECK(static_cast<int>(prompt.size()) <= c.max_len, "the prompt has ", prompt.size(), " tokens; this model's ",
           schema::name_of(c, c.max_len), " is ", c.max_len);
  for (int id : prompt) {
    TP_CHECK(id >= 0 && id < c.vocab_size, "prompt token id ", id, " is out of range; allowed: 0 .. ",
             c.vocab_size - 1);
  }
}

GenerateResult beam_search(Transformer& model, const std::vector<int>& prompt, const GenerateOptions& options);

// Input-only specials are never generated: <SOS> starts the decoder, <PAD> fills batches, <CLS>
// and <MASK> are encoder inputs (when the tokenizer has them). <EOS> ends the output, and <UNK>
// may be a real prediction.
Banned generation_bans(const SpecialTokens& specials) { return Banned{specials.input_only()}; }

}  // namespace

GenerateResult generate(Transformer& model, const std::vector<int>& prompt, const GenerateOptions& options) {
  options.validate();
  const ModelConfig& c = model.config();
  check_prompt(c, prompt);
  const threads::SpinWhile spin;  // the pool's workers stay awake between this call's regions
  if (options.beam > 1) return beam_search(model, prompt, options);
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  GenerateResult result;
  Rng rng(options.seed, 5);
  const SpecialTokens& sp = options.specials;
  std::vector<int> seq = decoder_start(c, prompt, sp);
  std::vector<float> logits(c.vocab_size);
  const Banned banned = generation_bans(sp);
  KvCache cache;
  if (options.kv_cache) {
    cache = model.start_decoding(prompt, sp.pad);
    model.decode(cache, seq.data(), static_cast<int>(seq.size()), logits.data());
    result.decoded_positions += static_cast<std::int64_t>(seq.size());
  }
  result.stop_reason = kStopMaxNewTokens;
  for (int step = 0; step < options.max_new_tokens; ++step) {
    if (static_cast<int>(seq.size()) > c.max_len) {
      result.stop_reason = kStopMaxLen;
      break;
    }
    if (!options.kv_cache) {
      full_forward_logits(model, prompt, seq, sp.pad, logits.data());
      result.decoded_positions += static_cast<std::int64_t>(seq.size());
    }
    GenerateStep s;
    s.id = sample_next(logits.data(), c.vocab_size, options.sampling, rng, &s.top, options.top_k_probs, banned);
    result.ids.push_back(s.id);
    result.steps.push_back(std::move(s));
    if (result.ids.back() == sp.eos) {
      result.stop_reason = kStopEos;
      break;
    }
    seq.push_back(result.ids.back());
    if (static_cast<int>(seq.size()) >= c.max_len) {
      result.stop_reason = kStopMaxLen;
      break;
    }
    // The last token is never fed: nothing would read its logits.
    if (options.kv_cache && step + 1 < options.max_new_tokens) {
      model.decode(cache, &seq.back(), 1, logits.data());
      ++result.decoded_positions;
    }
  }
  // `logits` still holds the step that chose the last token (no pass ran after it).
  if (!result.ids.empty()) result.last_logits = std::move(logits);
  result.seconds = std::chrono::duration<double>(clock::now() - start).count();
  result.ms_per_token = result.ids.empty() ? 0.0 : 1000.0 * result.seconds / result.ids.size();
  return result;
}

namespace {

struct Beam {
  std::vector<int> tokens;  // generated so far
  double log_p = 0.0;
  KvCache cache;
  std::vector<float> logits;  // next-token logits
};

double beam_score(double log_p, std::size_t length, float penalty) {
  return log_p / det::pow(static_cast<double>(std::max<std::size_t>(length, 1)), penalty);
}

GenerateResult beam_search(Transformer& model, const std::vector<int>& prompt, const GenerateOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const ModelConfig& c = model.config();
  const int V = c.vocab_size, width = options.beam;
  const SpecialTokens& sp = options.specials;
  const std::vector<int> first = decoder_start(c, prompt, sp);
  const Banned banned = generation_bans(sp);
  Beam root;
  root.logits.resize(V);
  if (options.kv_cache) {
    root.cache = model.start_decoding(prompt, sp.pad);
    model.decode(root.cache, first.data(), static_cast<int>(first.size()), root.logits.data());
  }
  std::vector<Beam> beams;
  beams.push_back(std::move(root));
  std::vector<std::pair<double, Beam>> finished;
  std::vector<double> lp;
  std::int64_t decoded = options.kv_cache ? static_cast<std::int64_t>(first.size()) : 0;
  int steps_taken = 0;
  std::string reason = kStopMaxNewTokens;
  for (int step = 0; step < options.max_new_tokens && !beams.empty(); ++step) {
    if (static_cast<int>(first.size() + step) >= c.max_len + 1) {
      reason = kStopMaxLen;
      break;
    }
    ++steps_taken;
    // Every (beam, token) candidate, best first; ties keep beam order then token id.
    struct Candidate {
      double log_p;
      int beam, token;
    };
    std::vector<Candidate> candidates;
    for (int b = 0; b < static_cast<int>(beams.size()); ++b) {
      Beam& beam = beams[b];
      if (!options.kv_cache) {
        std::vector<int> seq = first;
        seq.insert(seq.end(), beam.tokens.begin(), beam.tokens.end());
        full_forward_logits(model, prompt, seq, sp.pad, beam.logits.data());
        decoded += static_cast<std::int64_t>(seq.size());
      }
      log_softmax(beam.logits.data(), V, lp);
      for (int t = 0; t < V; ++t) {
        if (!banned(t)) candidates.push_back({beam.log_p + lp[t], b, t});
      }
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.log_p > b.log_p; });
    std::vector<Beam> next;
    for (const Candidate& cand : candidates) {
      if (static_cast<int>(next.size()) >= width) break;
      Beam child;
      child.tokens = beams[cand.beam].tokens;
      child.tokens.push_back(cand.token);
      child.log_p = cand.log_p;
      if (cand.token == sp.eos) {
        finished.emplace_back(beam_score(child.log_p, child.tokens.size(), options.length_penalty), std::move(child));
        continue;
      }
      child.logits.resize(V);
      const bool room = static_cast<int>(first.size() + child.tokens.size()) <= c.max_len;
      if (options.kv_cache && room) {
        child.cache = beams[cand.beam].cache;
        model.decode(child.cache, &child.tokens.back(), 1, child.logits.data());
        ++decoded;
      }
      next.push_back(std::move(child));
    }
    beams = std::move(next);
    // Stop when the best finished hypothesis beats every live one (scores only fall).
    if (static_cast<int>(finished.size()) >= width) break;
  }
  for (Beam& b : beams)
    finished.emplace_back(beam_score(b.log_p, b.tokens.size(), options.length_penalty), std::move(b));
  TP_ASSERT(!finished.empty());
  const auto best = std::max_element(finished.begin(), finished.end(),
                                     [](const auto& a, const auto& b) { return a.first < b.first; });
  GenerateResult result;
  result.ids = best->second.tokens;
  for (int id : result.ids) result.steps.push_back({id, {}});
  result.stop_reason = !result.ids.empty() && result.ids.back() == sp.eos ? kStopEos : reason;
  result.decoded_positions = decoded;
  result.seconds = std::chrono::duration<double>(clock::now() - start).count();
  result.ms_per_token = result.ids.empty() ? 0.0 : 1000.0 * result.seconds / std::max(1, steps_taken);
  return result;
}

}  // namespace

}  // namespace tp
