// Sampling: the candidate set shrinks by top-k, then top-p, and the draw is one uniform number
// against the cumulative probabilities, so a seed reproduces a generation exactly.
//
// Nothing here sorts the vocabulary. Greedy decoding is one pass over the logits in float (the
// most likely allowed token, the lowest id on a tie: softmax is monotonic, so that is the token
// of highest probability). Sampling needs unnormalised probabilities e = exp((logit − max) / T)
// (kernels::exp_shifted) and, for top-p and the reported probabilities, their sum, taken in
// double; top-k and the nucleus come from a selection of the most likely tokens (a heap over
// one pass), never a full sort. Tokens are ranked by logit (higher first, then lower id), which
// is their rank by probability.
#include "generate/sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/det_math.h"
#include "core/error.h"
#include "kernels/kernels.h"

namespace tp {

namespace {

// Ranges [begin, end) of the ids `banned` leaves, in order (the banned list is a few specials).
template <typename Fn>
void for_each_allowed_range(int vocab, const Banned& banned, Fn fn) {
  std::vector<int> cut;
  for (int id : banned.ids) {
    if (id >= 0 && id < vocab) cut.push_back(id);
  }
  std::sort(cut.begin(), cut.end());
  int begin = 0;
  for (int id : cut) {
    if (begin < id) fn(begin, id);
    begin = std::max(begin, id + 1);
  }
  if (begin < vocab) fn(begin, vocab);
}

// The n highest logits among the allowed tokens (all tokens when `banned` is null), best first
// (ties: lower id first). A min-heap of the best n seen so far: one pass, and a token worse than
// the heap's worst costs one comparison.
std::vector<int> best_by_logit(const float* logits, int vocab, int n, const Banned* banned) {
  const auto better = [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); };
  std::vector<int> heap;
  heap.reserve(static_cast<std::size_t>(n));
  const auto visit = [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      if (static_cast<int>(heap.size()) < n) {
        heap.push_back(i);
        std::push_heap(heap.begin(), heap.end(), better);  // the worst kept on top
      } else if (better(i, heap.front())) {
        std::pop_heap(heap.begin(), heap.end(), better);
        heap.back() = i;
        std::push_heap(heap.begin(), heap.end(), better);
      }
    }
  };
  if (n <= 0) return heap;
  if (banned)
    for_each_allowed_range(vocab, *banned, visit);
  else
    visit(0, vocab);
  std::sort_heap(heap.begin(), heap.end(), better);
  return heap;
}

// Σ values[i] over [begin, end) in double, four running sums in a fixed order.
double sum_double(const float* values, int begin, int end) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  int i = begin;
  for (; i + 4 <= end; i += 4) {
    for (int l = 0; l < 4; ++l) s[l] += values[i + l];
  }
  for (; i < end; ++i) s[0] += values[i];
  return (s[0] + s[2]) + (s[1] + s[3]);
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
  // The most likely allowed token, in one pass.
  int best = -1;
  float mx = -std::numeric_limits<float>::infinity();
  for_each_allowed_range(vocab, banned, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      if (best < 0 || logits[i] > mx) {
        best = i;
        mx = logits[i];
      }
    }
  });
  TP_CHECK(best >= 0, "every token is banned from generation; nothing can be sampled");
  const bool greedy = options.temperature <= 0.0f;
  const bool report = top && top_n > 0;
  if (greedy && !report) return best;

  // What the draw is over: a kept set, best first, with its unnormalised probabilities at the
  // sampling temperature (greedy: the best token alone), or — with neither top-k nor top-p —
  // every allowed token, drawn in id order (the same distribution as any order, with no ranking).
  std::vector<int> kept;
  std::vector<float> weight;
  std::vector<float> e;  // every allowed token's weight (0 for banned ones), when computed
  double total = 0.0;    // Σ e
  const bool top_p = options.top_p < 1.0f, everything = !greedy && options.top_k == 0 && !top_p;
  int chosen = best;
  if (greedy) {
    kept = {best};
    weight = {1.0f};
  } else if (!top_p && !everything) {  // top-k alone: only the k kept need their weights
    kept = best_by_logit(logits, vocab, options.top_k, &banned);
    weight.resize(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) weight[i] = logits[kept[i]];
    kernels::exp_shifted(weight.data(), weight.data(), static_cast<int>(weight.size()), mx, 1.0f / options.temperature);
  } else {
    e.assign(static_cast<std::size_t>(vocab), 0.0f);
    for_each_allowed_range(vocab, banned, [&](int begin, int end) {
      kernels::exp_shifted(logits + begin, e.data() + begin, end - begin, mx, 1.0f / options.temperature);
      total += sum_double(e.data(), begin, end);
    });
  }
  if (top_p) {
    // The nucleus: the shortest best-first prefix (of the top-k, if set) whose mass reaches top_p
    // of the whole. Its length shows only as it is summed, so the selection grows until it holds it.
    const double target = static_cast<double>(options.top_p) * total;
    const int limit = options.top_k > 0 ? options.top_k : vocab;
    for (int n = std::min(limit, 64);; n = std::min(limit, n * 8)) {
      const std::vector<int> prefix = best_by_logit(logits, vocab, n, &banned);
      double mass = 0.0;
      std::size_t count = 0;
      while (count < prefix.size() && mass < target) mass += e[prefix[count++]];
      if (mass >= target || static_cast<int>(prefix.size()) < n || n == limit) {
        kept.assign(prefix.begin(), prefix.begin() + static_cast<std::ptrdiff_t>(std::max<std::size_t>(1, count)));
        break;
      }
    }
    weight.resize(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) weight[i] = e[kept[i]];
  }
  const double kept_mass = everything ? total : sum_double(weight.data(), 0, static_cast<int>(weight.size()));
  if (!greedy) {
    // One uniform number against the cumulative mass.
    const double r = rng.uniform() * kept_mass;
    double acc = 0.0;
    if (everything) {
      bool found = false;
      for_each_allowed_range(vocab, banned, [&](int begin, int end) {
        for (int i = begin; i < end && !found; ++i) {
          acc += e[i];
          chosen = i;
          found = r < acc;
        }
      });
    } else {
      chosen = kept.back();
      for (std::size_t i = 0; i < kept.size(); ++i) {
        acc += weight[i];
        if (r < acc) {
          chosen = kept[i];
          break;
        }
      }
    }
  }
  if (report) {
    // The model's own probabilities — softmax(logits) over the whole vocabulary — of its top_n
    // tokens, and beside each the probability it was drawn with (0 outside the kept set).
    const auto drawn_with = [&](int id) -> float {
      if (everything) return static_cast<float>(e[id] / kept_mass);
      for (std::size_t i = 0; i < kept.size(); ++i) {
        if (kept[i] == id) return static_cast<float>(weight[i] / kept_mass);
      }
      return 0.0f;
    };
    const std::vector<int> by_model = best_by_logit(logits, vocab, std::min(top_n, vocab), nullptr);
    std::vector<float> p(static_cast<std::size_t>(vocab));
    kernels::exp_shifted(logits, p.data(), vocab, logits[by_model.front()], 1.0f);
    const double model_total = sum_double(p.data(), 0, vocab);
    top->clear();
    for (int id : by_model) top->push_back({id, static_cast<float>(p[id] / model_total), drawn_with(id)});
  }
  return chosen;
}

}  // namespace tp
