// Sampling: the candidate set shrinks by top-k, then top-p, and the draw is one uniform number
// against the cumulative probabilities, so a seed reproduces a generation exactly.
#include "generate/sampler.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/det_math.h"
#include "core/error.h"

namespace tp {

namespace {

// softmax(logits / temperature) in double over the tokens `banned` allows (the others get 0).
std::vector<double> softmax(const float* logits, int vocab, double temperature, const Banned& banned = {}) {
  std::vector<double> p(vocab, 0.0);
  double mx = -1e300;
  for (int i = 0; i < vocab; ++i) {
    if (!banned(i)) mx = std::max(mx, static_cast<double>(logits[i]));
  }
  double total = 0.0;
  for (int i = 0; i < vocab; ++i) {
    if (!banned(i)) total += p[i] = det::exp((logits[i] - mx) / temperature);
  }
  for (double& v : p) v /= total;
  return p;
}

}  // namespace

void log_softmax(const float* logits, int vocab, std::vector<double>& out) {
  out.resize(vocab);
  const double mx = *std::max_element(logits, logits + vocab);
  double total = 0.0;
  for (int i = 0; i < vocab; ++i) total += det::exp(logits[i] - mx);
  const double log_total = det::log(total) + mx;
  for (int i = 0; i < vocab; ++i) out[i] = logits[i] - log_total;
}

bool Banned::operator()(int id) const { return std::find(ids.begin(), ids.end(), id) != ids.end(); }

int sample_next(const float* logits, int vocab, const SamplingOptions& options, Rng& rng, std::vector<TokenProb>* top,
                int top_n, const Banned& banned) {
  const std::vector<double> model_p = softmax(logits, vocab, 1.0);
  // Candidates by the sampling temperature's probabilities, most likely first (ties: lower id),
  // banned tokens excluded.
  const bool greedy = options.temperature <= 0.0f;
  const std::vector<double> p = softmax(logits, vocab, greedy ? 1.0 : options.temperature, banned);
  std::vector<int> order;
  for (int i = 0; i < vocab; ++i) {
    if (!banned(i)) order.push_back(i);
  }
  TP_CHECK(!order.empty(), "every token is banned from generation; nothing can be sampled");
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return p[a] > p[b]; });
  std::size_t keep = greedy ? 1 : order.size();
  if (options.top_k > 0) keep = std::min<std::size_t>(keep, options.top_k);
  if (options.top_p < 1.0f) {
    double mass = 0.0;
    std::size_t n = 0;
    while (n < keep && mass < options.top_p) mass += p[order[n++]];
    keep = std::max<std::size_t>(1, n);
  }
  double kept_mass = 0.0;
  for (std::size_t i = 0; i < keep; ++i) kept_mass += p[order[i]];
  int chosen = order[0];
  if (keep > 1) {
    const double r = rng.uniform() * kept_mass;
    double acc = 0.0;
    for (std::size_t i = 0; i < keep; ++i) {
      acc += p[order[i]];
      chosen = order[i];
      if (r < acc) break;
    }
  }
  if (top && top_n > 0) {
    std::vector<int> by_model(vocab);
    std::iota(by_model.begin(), by_model.end(), 0);
    std::stable_sort(by_model.begin(), by_model.end(), [&](int a, int b) { return model_p[a] > model_p[b]; });
    top->clear();
    std::vector<double> sample_p(vocab, 0.0);
    for (std::size_t i = 0; i < keep; ++i) sample_p[order[i]] = p[order[i]] / kept_mass;
    for (int i = 0; i < std::min(top_n, vocab); ++i) {
      const int id = by_model[i];
      top->push_back({id, static_cast<float>(model_p[id]), static_cast<float>(sample_p[id])});
    }
  }
  return chosen;
}

}  // namespace tp
