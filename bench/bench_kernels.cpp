// Row-kernel benchmark: every non-matmul kernel of a training step at the reference model's
// shapes (1024 tokens, d_model 128, d_ff 512, 64x64 causal attention per head, vocab 65, 400 K
// parameters), as time, GB/s moved and op-GFLOP/s — so each can be read against the two roofs
// measured in the same run: the matmul micro-kernel (compute) and a streaming add (memory).
//
// ops_per_element counts the vector arithmetic instructions of the kernel's inner loop per lane
// (mul, add, sub, div, sqrt, min, max, compare, and the integer bit operations of exp), so
// ops_per_element · elements / time is comparable with the micro-kernel's GFLOP/s, whose
// mul and add are one op each.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "core/params.h"
#include "core/rng.h"
#include "kernels/kernels.h"
#include "nn/loss.h"
#include "train/optimizer.h"

namespace tp::bench {

namespace {

struct Case {
  std::string name;
  double elements;         // outputs per call
  double bytes;            // bytes read + written per call
  double ops_per_element;  // vector ops per lane (see the header)
  std::function<void()> run;
};

double best_seconds(const std::function<void()>& run) {
  run();  // warm
  double best = 1e9;
  for (int rep = 0; rep < 7; ++rep) {
    int calls = 0;
    const double start = now_seconds();
    double elapsed = 0.0;
    do {
      run();
      ++calls;
      elapsed = now_seconds() - start;
    } while (elapsed < 0.02);
    best = std::min(best, elapsed / calls);
  }
  return best;
}

std::vector<float> random(Rng& rng, std::size_t n, float lo = -3.0f, float hi = 3.0f) {
  std::vector<float> v(n);
  for (float& x : v) x = rng.uniform(lo, hi);
  return v;
}

}  // namespace

int run_kernels(const Options& options) {
  const std::string impl = options.impl.empty() ? default_impl() : options.impl;
  Rng rng(5);
  const int N = 1024, D = 128, F = 512, T = 64, V = 65;
  const double f4 = 4.0;
  auto x = random(rng, N * F), y = random(rng, N * F), gate = random(rng, N * F), dy = random(rng, N * F);
  auto dx = random(rng, N * F), db = random(rng, F);
  auto xd = random(rng, N * D), yd = random(rng, N * D), dyd = random(rng, N * D), dxd = random(rng, N * D);
  auto gamma = random(rng, D, 0.5f, 1.5f), beta = random(rng, D), mean = random(rng, N),
       rstd = random(rng, N, 0.5f, 2.0f);
  auto scores = random(rng, T * T), probs = random(rng, T * T), dprobs = random(rng, T * T),
       dscores = random(rng, T * T);
  kernels::softmax_forward(scores.data(), probs.data(), T, T, 0.17f, nullptr, 0, 1);
  auto big_a = random(rng, 1 << 21), big_b = random(rng, 1 << 21), big_c = random(rng, 1 << 21);
  auto logits = random(rng, N * V), dlogits = random(rng, N * V), lprobs = random(rng, N * V);
  std::vector<int> targets(N);
  for (int& t : targets) t = static_cast<int>(rng.below(V));
  ParameterSet params;
  params.add("w", {400 * 1024}, true);
  params.finalize();
  params.ensure_training_state();
  for (std::size_t i = 0; i < params.slab_size(); ++i) params.grads_slab()[i] = 1e-3f * static_cast<float>(i % 17);
  AdamW adamw;

  const double causal = T * (T + 1) / 2.0;  // visible scores of one head
  std::vector<Case> cases = {
      {"stream add (memory roof)", 1 << 21, 3.0 * f4 * (1 << 21), 1,
       [&] { kernels::add(big_a.data(), big_b.data(), big_c.data(), 1 << 21); }},
      {"gelu forward + gate [1024x512]", N * F, 3.0 * f4 * N * F, 35,
       [&] { kernels::gelu_forward_gate(x.data(), y.data(), gate.data(), N * F); }},
      {"gelu backward + bias [1024x512]", N * F, 4.0 * f4 * N * F, 12,
       [&] { kernels::gelu_backward_gate(x.data(), gate.data(), dy.data(), dx.data(), N, F, db.data()); }},
      {"softmax causal [64x64]", causal, 2.0 * f4 * causal, 33,
       [&] { kernels::softmax_forward(scores.data(), probs.data(), T, T, 0.17f, nullptr, 0, 1); }},
      {"softmax backward causal [64x64]", causal, 3.0 * f4 * causal, 6,
       [&] { kernels::softmax_backward(probs.data(), dprobs.data(), dscores.data(), T, T, 0.17f, false, 1); }},
      {"layernorm forward [1024x128]", N * D, 2.0 * f4 * N * D, 9,
       [&] {
         kernels::layernorm_forward(xd.data(), gamma.data(), beta.data(), yd.data(), mean.data(), rstd.data(), N, D,
                                    1e-5f);
       }},
      {"layernorm backward [1024x128]", N * D, 3.0 * f4 * N * D, 19,
       [&] {
         kernels::layernorm_backward(xd.data(), gamma.data(), mean.data(), rstd.data(), dyd.data(), dxd.data(),
                                     db.data(), db.data() + D, N, D);
       }},
      {"residual add [1024x128]", N * D, 3.0 * f4 * N * D, 1,
       [&] { kernels::add(xd.data(), dyd.data(), yd.data(), N * D); }},
      {"cross-entropy [1024x65]", N * V, 3.0 * f4 * N * V, 36,
       [&] { nn::cross_entropy(logits.data(), targets.data(), N, V, 0.0f, dlogits.data(), lprobs.data()); }},
      {"AdamW [400K params]", 400.0 * 1024, 7.0 * f4 * 400 * 1024, 16, [&] { adamw.step(params, 1e-3f); }},
  };
  for (const Case& c : cases) {
    const double s = best_seconds(c.run);
    std::printf(
        "{\"bench\":\"kernel\",\"impl\":\"%s\",\"kernel\":\"%s\",\"us\":%.2f,\"gbytes_per_s\":%.2f,"
        "\"op_gflops\":%.2f}\n",
        impl.c_str(), c.name.c_str(), 1e6 * s, c.bytes / s / 1e9, c.ops_per_element * c.elements / s / 1e9);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace tp::bench
