// Generation benchmark: ms per token with and without the KV cache for a decoder-only model of
// d_model 256 (--d-model: any width, d_ff four times it), 4 layers, 4 heads, d_ff 1024, vocab 65,
// max_len 1024 (random weights, greedy). --cached-only skips the (slow) uncached figures.
//
// "ms per token at N" is the average over generating N tokens from a one-token prompt, as the
// generator reports it. With the cache that is one decode step per token (timed exactly);
// without it, token i costs a full forward pass over i + 1 positions, so the uncached figure is
// Σ_{L=1..N} forward(L) / N, with forward(L) timed at the midpoint of every stratum of `stride`
// lengths (stride 1 — exact — for N ≤ 64) to keep the run short. last_ms is the cost of the
// N-th token alone.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "core/thread_pool.h"
#include "model/transformer.h"

namespace tp::bench {

namespace {

ModelConfig generation_config(int d_model) { return model_shape(Arch::DecoderOnly, 65, d_model, 4, 4 * d_model, 1024); }

int argmax_token(const std::vector<float>& logits) {
  // Never <SOS>/<EOS>/<PAD> (ids 0..2), so every run generates exactly N tokens.
  return static_cast<int>(std::max_element(logits.begin() + 3, logits.end()) - logits.begin());
}

// Seconds to generate n tokens with the cache; *last gets the last step's seconds.
double cached_seconds(Transformer& model, int n, double* last) {
  std::vector<float> logits(model.config().vocab_size);
  KvCache cache = model.start_decoding({}, -1);
  int token = 6;
  const double start = now_seconds();
  double step_start = start;
  for (int i = 0; i < n; ++i) {
    step_start = now_seconds();
    model.decode(cache, &token, 1, logits.data());
    token = argmax_token(logits);
  }
  const double end = now_seconds();
  *last = end - step_start;
  return end - start;
}

// Seconds of one uncached step: a full forward pass over `len` positions.
double forward_seconds(Transformer& model, int len) {
  Batch b;
  b.size = 1;
  b.tgt_len = len;
  b.tgt_in.resize(len);
  for (int i = 0; i < len; ++i) b.tgt_in[i] = 6 + (i * 7) % 59;
  const double start = now_seconds();
  model.forward(b, false);
  return now_seconds() - start;
}

}  // namespace

int run_generate(const Options& options) {
  const std::string impl = options.impl.empty() ? default_impl() : options.impl;
  Transformer model(generation_config(options.d_model), 1);
  double last = 0.0;
  cached_seconds(model, 64, &last);  // warm-up
  if (options.uncached) {
    for (int len = 1; len <= 256; len *= 2) forward_seconds(model, len);
  }
  for (const int n : {64, 256, 1024}) {
    std::vector<double> runs;
    const int reps = n <= 256 ? 5 : 1;
    for (int r = 0; r < reps; ++r) runs.push_back(cached_seconds(model, n, &last));
    const double cached_ms = 1000.0 * median(runs) / n, cached_last = 1000.0 * last;
    const int stride = n <= 64 ? 1 : n / 64;
    double uncached_ms = -1.0, uncached_last = -1.0;  // -1: not measured (printed as null)
    if (options.uncached) {
      double total = 0.0;
      for (int first = 1; first <= n; first += stride) {
        const int mid = std::min(n, first + stride / 2);
        total += stride * forward_seconds(model, mid);
      }
      uncached_ms = 1000.0 * total / n;
      uncached_last = 1000.0 * forward_seconds(model, n);
    }
    const auto number = [](double v) { return v < 0.0 ? std::string("null") : std::to_string(v); };
    std::printf(
        "{\"bench\":\"generate\",\"impl\":\"%s\",\"threads\":%d,\"d_model\":%d,\"tokens\":%d,"
        "\"cached_ms_per_token\":%.4f,\"uncached_ms_per_token\":%s,\"cached_last_ms\":%.4f,"
        "\"uncached_last_ms\":%s,\"uncached_stride\":%d}\n",
        impl.c_str(), threads::count(), options.d_model, n, cached_ms, number(uncached_ms).c_str(), cached_last,
        number(uncached_last).c_str(), stride);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace tp::bench
