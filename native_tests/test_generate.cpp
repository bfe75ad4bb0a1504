// [generate] Generation: the KV cache gives the same tokens and logits as recomputing the whole
// prefix (every architecture, RoPE/ALiBi, GQA, sliding windows with their ring buffer), and the
// samplers relate as they should (greedy = top-k 1 = temperature → 0; top-p keeps the smallest
// set reaching p; beam width 1 = greedy).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "generate/generator.h"
#include "model_util.h"
#include "tokenize/tokenizer.h"

using namespace tp;

namespace {

// A random model (weights spread so its greedy path is not just one repeated token).
Transformer noisy_model(const ModelConfig& c, std::uint64_t seed) {
  Transformer model(c, seed);
  Rng rng(seed + 100);
  for (int i = 0; i < model.params().count(); ++i) {
    float* v = model.params().value(i);
    for (std::size_t k = 0; k < model.params().info(i).size; ++k) v[k] += rng.normal(0.0f, 0.3f);
  }
  return model;
}

// These models have no tokenizer, so they use the built-in tokenizers' specials, as the bindings
// do for a model without one.
GenerateOptions options_with_specials() {
  GenerateOptions o;
  o.specials = default_specials();
  return o;
}

}  // namespace

TEST_CASE("cached and uncached generation give the same tokens and logits", "[generate]") {
  struct Variant {
    const char* name;
    Arch arch;
    PosKind pos;
    int heads, kv_heads, window, global, layers;
    const char* pattern;
  };
  const Variant variants[] = {
      {"decoder learned", Arch::DecoderOnly, PosKind::Learned, 2, 2, 0, 0, 2, ""},
      {"decoder rope gqa", Arch::DecoderOnly, PosKind::Rope, 4, 2, 0, 0, 2, ""},
      {"decoder alibi mqa", Arch::DecoderOnly, PosKind::Alibi, 4, 1, 0, 0, 1, ""},
      {"decoder window ring buffer", Arch::DecoderOnly, PosKind::Rope, 2, 2, 3, 0, 2, ""},
      {"decoder window + global, LG", Arch::DecoderOnly, PosKind::Sinusoidal, 2, 2, 3, 2, 2, "LG"},
      {"encoder-decoder sinusoidal", Arch::EncoderDecoder, PosKind::Sinusoidal, 2, 2, 0, 0, 2, ""},
      {"encoder-decoder rope window", Arch::EncoderDecoder, PosKind::Rope, 4, 2, 2, 0, 1, ""},
  };
  for (const Variant& v : variants) {
    ModelConfig c = test::small_config(v.arch);
    c.pos = v.pos;
    c.n_heads = v.heads;
    c.n_kv_heads = v.kv_heads;
    c.window = v.window;
    c.global_tokens = v.global;
    c.layer_pattern = v.pattern;
    c.n_layers = v.layers;
    c.max_len = 24;
    for (NormPlacement placement : {NormPlacement::Pre, NormPlacement::Post}) {
      c.norm_placement = placement;
      Transformer model = noisy_model(c, 3);
      const std::vector<int> prompt = {6, 7, 8, 9};
      GenerateOptions options = options_with_specials();
      options.max_new_tokens = 18;  // past the window, so the ring buffer wraps
      options.top_k_probs = 3;
      // Sampling exercises more than one path through the vocabulary; the first seed whose
      // generation runs at least 6 tokens (before any <EOS>) is the one compared.
      options.sampling.temperature = 1.0f;
      options.kv_cache = true;
      GenerateResult cached;
      for (options.seed = 1; options.seed < 50; ++options.seed) {
        cached = generate(model, prompt, options);
        if (cached.ids.size() >= 6) break;
      }
      options.kv_cache = false;
      const GenerateResult full = generate(model, prompt, options);
      INFO(v.name << " " << to_string(placement));
      REQUIRE(cached.ids == full.ids);
      REQUIRE(cached.ids.size() >= 6);
      for (std::size_t i = 0; i < cached.last_logits.size(); ++i) {
        REQUIRE(std::fabs(cached.last_logits[i] - full.last_logits[i]) <= 1e-5);
      }
      for (std::size_t s = 0; s < cached.steps.size(); ++s) {
        for (int k = 0; k < 3; ++k) {
          REQUIRE(cached.steps[s].top[k].id == full.steps[s].top[k].id);
          REQUIRE(std::fabs(cached.steps[s].top[k].p - full.steps[s].top[k].p) <= 1e-5);
        }
      }
    }
  }
}

TEST_CASE("the sliding-window cache stays bounded", "[generate]") {
  ModelConfig c = test::small_config(Arch::DecoderOnly);
  c.window = 3;
  c.global_tokens = 1;
  c.max_len = 64;
  Transformer model(c, 1);
  KvCache cache = model.start_decoding({}, test::kPad);
  REQUIRE(cache.layers[0].self.capacity == 4);  // 1 global + 3 in the ring, however long the text
  std::vector<float> logits(c.vocab_size);
  for (int t = 0; t < 40; ++t) {
    const int id = 6 + t % 5;
    model.decode(cache, &id, 1, logits.data());
  }
  REQUIRE(cache.layers[0].self.used == 4);
  REQUIRE(cache.layers[0].self.positions[0] == 0);  // the global token is never evicted
}

TEST_CASE("greedy = top-k 1 = temperature near 0, and beam width 1 = greedy", "[generate]") {
  for (Arch arch : {Arch::DecoderOnly, Arch::EncoderDecoder}) {
    ModelConfig c = test::small_config(arch);
    c.max_len = 16;
    Transformer model = noisy_model(c, 5);
    const std::vector<int> prompt = {9, 8, 7};
    GenerateOptions greedy = options_with_specials();
    greedy.max_new_tokens = 10;
    const auto g = generate(model, prompt, greedy).ids;
    GenerateOptions topk1 = greedy;
    topk1.sampling.temperature = 1.5f;
    topk1.sampling.top_k = 1;
    topk1.seed = 77;
    GenerateOptions cold = greedy;
    cold.sampling.temperature = 1e-4f;
    cold.seed = 78;
    GenerateOptions beam1 = greedy;
    beam1.beam = 1;
    INFO("arch " << to_string(arch));
    REQUIRE(generate(model, prompt, topk1).ids == g);
    REQUIRE(generate(model, prompt, cold).ids == g);
    REQUIRE(generate(model, prompt, beam1).ids == g);
    // Hotter sampling with another seed does wander off the greedy path.
    GenerateOptions hot = greedy;
    hot.sampling.temperature = 3.0f;
    bool differs = false;
    for (int seed = 1; seed <= 5 && !differs; ++seed) {
      hot.seed = seed;
      differs = generate(model, prompt, hot).ids != g;
    }
    REQUIRE(differs);
  }
}

TEST_CASE("the sampler keeps the sets a full sort of the vocabulary would", "[generate]") {
  // The reference: softmax in double over the allowed tokens, every token sorted (stable, so
  // ties keep id order), top-k then top-p — what sampling computed before it stopped sorting.
  Rng gen(12);
  const int V = 700;
  std::vector<float> logits(V);
  for (float& l : logits) l = gen.uniform(-6.0f, 6.0f);
  for (int i = 0; i < 40; ++i) logits[gen.below(V)] = logits[gen.below(V)];  // ties
  logits[5] = 9.0f;                                                          // a banned token would be the most likely
  const Banned banned{{5, 17, 699}};
  struct Mode {
    float temperature, top_p;
    int top_k;
  };
  for (const Mode m : {Mode{0.0f, 1.0f, 0}, Mode{1.0f, 1.0f, 7}, Mode{0.7f, 0.6f, 0}, Mode{1.3f, 0.8f, 50},
                       Mode{1.0f, 0.999f, 0}, Mode{2.0f, 1.0f, 0}, Mode{0.5f, 0.05f, 3}}) {
    const bool greedy = m.temperature <= 0.0f;
    const double t = greedy ? 1.0 : m.temperature;
    std::vector<double> p(V, 0.0);
    double mx = -1e300, total = 0.0;
    for (int i = 0; i < V; ++i)
      if (!banned(i)) mx = std::max(mx, static_cast<double>(logits[i]));
    for (int i = 0; i < V; ++i)
      if (!banned(i)) total += p[i] = std::exp((logits[i] - mx) / t);
    for (double& v : p) v /= total;
    std::vector<int> order;
    for (int i = 0; i < V; ++i)
      if (!banned(i)) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
    std::size_t keep = greedy ? 1 : order.size();
    if (m.top_k > 0) keep = std::min<std::size_t>(keep, m.top_k);
    if (m.top_p < 1.0f) {
      double mass = 0.0;
      std::size_t n = 0;
      while (n < keep && mass < m.top_p) mass += p[order[n++]];
      keep = std::max<std::size_t>(1, n);
    }
    double kept_mass = 0.0;
    std::vector<double> p_sample(V, 0.0);
    for (std::size_t i = 0; i < keep; ++i) kept_mass += p[order[i]];
    for (std::size_t i = 0; i < keep; ++i) p_sample[order[i]] = p[order[i]] / kept_mass;

    SamplingOptions s;
    s.temperature = m.temperature;
    s.top_k = m.top_k;
    s.top_p = m.top_p;
    Rng rng(3);
    std::vector<TokenProb> top;
    const int id = sample_next(logits.data(), V, s, rng, &top, V, banned);
    INFO("temperature " << m.temperature << " top_k " << m.top_k << " top_p " << m.top_p << " keeps " << keep);
    REQUIRE(static_cast<int>(top.size()) == V);
    REQUIRE(top[0].id == 5);  // the model's own ranking includes banned tokens
    double model_total = 0.0;
    for (int i = 0; i < V; ++i) model_total += std::exp(static_cast<double>(logits[i]) - 9.0);
    for (std::size_t r = 0; r < top.size(); ++r) {
      const TokenProb& tp_ = top[r];
      if (r > 0) {
        const TokenProb& prev = top[r - 1];
        REQUIRE((logits[prev.id] > logits[tp_.id] || (logits[prev.id] == logits[tp_.id] && prev.id < tp_.id)));
      }
      REQUIRE(tp_.p == Approx(std::exp(logits[tp_.id] - 9.0) / model_total).epsilon(1e-5).margin(1e-9));
      REQUIRE(tp_.p_sample == Approx(p_sample[tp_.id]).epsilon(1e-5).margin(1e-9));
    }
    if (greedy) REQUIRE(id == order[0]);
    for (int draw = 0; draw < 200; ++draw)
      REQUIRE(p_sample[sample_next(logits.data(), V, s, rng, nullptr, 0, banned)] > 0.0);
  }
}

TEST_CASE("the KV cache grows with the tokens it holds", "[generate]") {
  ModelConfig c = test::small_config(Arch::DecoderOnly);
  c.max_len = 200;
  Transformer model(c, 1);
  KvCache cache = model.start_decoding({}, test::kPad);
  const std::size_t row = static_cast<std::size_t>(cache.kv_dim);
  REQUIRE(cache.layers[0].self.k.empty());  // nothing allocated for the context not yet used
  std::vector<float> logits(c.vocab_size);
  for (int t = 0; t < 20; ++t) {
    const int id = 6 + t % 5;
    model.decode(cache, &id, 1, logits.data());
    REQUIRE(cache.layers[0].self.k.size() >= (t + 1) * row);
    REQUIRE(cache.layers[0].self.k.size() <= std::max<std::size_t>(16, 2 * (t + 1)) * row);
  }
  REQUIRE(cache.bytes() < static_cast<std::size_t>(c.max_len) * row * sizeof(float) * c.n_layers);
}

TEST_CASE("cached generation runs each position once and never the last token", "[generate]") {
  ModelConfig c = test::small_config(Arch::DecoderOnly);
  c.max_len = 24;
  Transformer model = noisy_model(c, 9);
  const std::vector<int> prompt = {6, 7, 8, 9, 10};
  for (const bool greedy : {true, false}) {
    for (const int max_new : {1, 2, 7, 40}) {  // 40: stopped by max_len, with the sequence full
      INFO("greedy " << greedy << ", max_new_tokens " << max_new);
      GenerateOptions o = options_with_specials();
      o.max_new_tokens = max_new;
      o.sampling.temperature = greedy ? 0.0f : 0.8f;
      o.specials.eos = -1;  // no early stop: the count is asked at every length
      const GenerateResult r = generate(model, prompt, o);
      REQUIRE(!r.ids.empty());
      CHECK(r.ids.size() == static_cast<std::size_t>(std::min(max_new, c.max_len - 5)));
      CHECK(r.decoded_positions == static_cast<std::int64_t>(prompt.size() + r.ids.size() - 1));
      // Without the cache every step reruns the sequence so far: 5 + 6 + ... positions.
      o.kv_cache = false;
      const GenerateResult full = generate(model, prompt, o);
      if (greedy) CHECK(full.ids == r.ids);
      std::int64_t sum = 0;
      for (std::size_t k = 0; k < full.ids.size(); ++k) sum += static_cast<std::int64_t>(prompt.size() + k);
      CHECK(full.decoded_positions == sum);
    }
  }
}

TEST_CASE("top-p keeps the smallest set whose mass reaches p", "[generate]") {
  // Probabilities (softmax of the logits) ≈ 0.5, 0.25, 0.125, 0.0625, 0.0625.
  const float logits[5] = {3.0f, 2.30685282f, 1.61370564f, 0.92055846f, 0.92055846f};
  Rng rng(1);
  std::vector<TokenProb> top;
  SamplingOptions s;
  s.temperature = 1.0f;
  s.top_p = 0.7f;  // 0.5 < 0.7 <= 0.75: tokens 0 and 1
  std::set<int> seen;
  for (int i = 0; i < 400; ++i) seen.insert(sample_next(logits, 5, s, rng, &top, 5));
  REQUIRE(seen == std::set<int>{0, 1});
  REQUIRE(top[0].p_sample == Approx(2.0 / 3.0).epsilon(1e-5));
  REQUIRE(top[1].p_sample == Approx(1.0 / 3.0).epsilon(1e-5));
  REQUIRE(top[2].p_sample == 0.0f);
  REQUIRE(top[0].p == Approx(0.5).epsilon(1e-5));
  s.top_p = 0.5f;  // exactly the first token's mass
  seen.clear();
  for (int i = 0; i < 100; ++i) seen.insert(sample_next(logits, 5, s, rng));
  REQUIRE(seen == std::set<int>{0});
  s.top_p = 0.9f;  // 0.875 < 0.9: four tokens
  seen.clear();
  for (int i = 0; i < 2000; ++i) seen.insert(sample_next(logits, 5, s, rng));
  REQUIRE(seen.size() == 4);
}

TEST_CASE("beam search finds a better-scoring sequence than greedy or ties it", "[generate]") {
  ModelConfig c = test::small_config(Arch::EncoderDecoder);
  c.max_len = 12;
  Transformer model = noisy_model(c, 8);
  const std::vector<int> prompt = {6, 9, 11};
  GenerateOptions options = options_with_specials();
  options.max_new_tokens = 6;
  options.length_penalty = 0.0f;  // raw log-probability, so scores compare directly
  auto log_prob = [&](const std::vector<int>& ids) {
    double total = 0.0;
    std::vector<int> seq = {kSos};
    std::vector<double> lp;
    for (int id : ids) {
      Batch b;
      b.size = 1;
      b.src = prompt;
      b.src_len = 3;
      b.tgt_in = seq;
      b.tgt_len = static_cast<int>(seq.size());
      model.forward(b, false);
      log_softmax(model.logits() + (seq.size() - 1) * c.vocab_size, c.vocab_size, lp);
      total += lp[id];
      seq.push_back(id);
    }
    return total;
  };
  const auto greedy = generate(model, prompt, options).ids;
  options.beam = 4;
  const auto beam = generate(model, prompt, options).ids;
  options.kv_cache = false;
  REQUIRE(generate(model, prompt, options).ids == beam);  // the cache changes nothing here either
  // Compare complete hypotheses only (both ended, or both ran to the limit).
  if ((greedy.back() == kEos) == (beam.back() == kEos) && greedy.size() == beam.size()) {
    REQUIRE(log_prob(beam) >= log_prob(greedy) - 1e-6);
  }
}

TEST_CASE("bad generation requests are clear errors", "[generate]") {
  ModelConfig c = test::small_config(Arch::DecoderOnly);
  Transformer model(c, 1);
  GenerateOptions o = options_with_specials();
  REQUIRE_THROWS_WITH(generate(model, {}, o), Catch::Contains("non-empty prompt"));
  REQUIRE_THROWS_WITH(generate(model, {6, 99}, o), Catch::Contains("prompt token id 99 is out of range"));
  o.sampling.top_p = 0.0f;
  REQUIRE_THROWS_WITH(generate(model, {6}, o), Catch::Contains("top_p = 0"));
  o.sampling.top_p = 1.0f;
  o.max_new_tokens = 0;
  REQUIRE_THROWS_WITH(generate(model, {6}, o), Catch::Contains("max_new_tokens = 0"));
  ModelConfig enc = test::small_config(Arch::EncoderOnly);
  Transformer encoder(enc, 1);
  REQUIRE_THROWS_WITH(generate(encoder, {6}, options_with_specials()), Catch::Contains("needs a model with a decoder"));
  // The model still works after every error.
  REQUIRE_FALSE(generate(model, {6, 7}, options_with_specials()).ids.empty());
}
