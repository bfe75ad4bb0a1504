// tp_bench: kernel, training and generation benchmarks, native or (as tp_bench.cjs) under Node.
//
// Prints one JSON object per measurement on stdout, so scripts/bench.mjs can run the native and
// wasm builds side by side with the peers and print one table. Timings are medians of repeated
// runs after warm-up; nothing here asserts a time.
//   tp_bench matmul   [--reps N] [--impl LABEL] [--shape MxKxN --form nn|nt|tn --calls N]
//   tp_bench train    [--reps N] [--warmup N] [--profile] [--impl LABEL] [--seq N] [--batch N]
//   tp_bench generate [--impl LABEL] [--d-model N] [--cached-only]
//   tp_bench peak     [--impl LABEL]
//   tp_bench kernels  [--impl LABEL]
//   tp_bench import   --model DIR [--reps TOKENS] [--impl LABEL]
//   tp_bench pool     [--threads N]   what starting one parallel region costs
//   tp_bench clock                    the core clock (a chain of dependent multiplies)
// Every benchmark takes --threads N (default 1): the thread pool's size (core/thread_pool.h).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench/bench_util.h"
#include "core/thread_pool.h"

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "matmul";
  tp::bench::Options options;
  for (int i = 2; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--profile") == 0)
      options.profile = true;
    else if (std::strcmp(argv[i], "--reps") == 0 && has_value)
      options.reps = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--warmup") == 0 && has_value)
      options.warmup = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--impl") == 0 && has_value)
      options.impl = argv[++i];
    else if (std::strcmp(argv[i], "--model") == 0 && has_value)
      options.model = argv[++i];
    else if (std::strcmp(argv[i], "--threads") == 0 && has_value)
      options.threads = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--seq") == 0 && has_value)
      options.seq = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--batch") == 0 && has_value)
      options.batch = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--d-model") == 0 && has_value)
      options.d_model = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--shape") == 0 && has_value)
      options.shape = argv[++i];
    else if (std::strcmp(argv[i], "--form") == 0 && has_value)
      options.form = argv[++i];
    else if (std::strcmp(argv[i], "--calls") == 0 && has_value)
      options.calls = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--cached-only") == 0)
      options.uncached = false;
    else {
      std::fprintf(stderr, "tp_bench: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  try {
    tp::threads::set_count(options.threads);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tp_bench: %s\n", e.what());
    return 2;
  }
  if (what == "matmul") return tp::bench::run_matmul(options);
  if (what == "train") return tp::bench::run_train(options);
  if (what == "generate") return tp::bench::run_generate(options);
  if (what == "peak") return tp::bench::run_peak(options);
  if (what == "kernels") return tp::bench::run_kernels(options);
  if (what == "import") return tp::bench::run_import(options);
  if (what == "pool") return tp::bench::run_pool(options);
  if (what == "clock") return tp::bench::run_clock(options);
  std::fprintf(
      stderr,
      "tp_bench: unknown benchmark '%s'; available: matmul, train, generate, peak, kernels, import, pool, clock\n",
      what.c_str());
  return 2;
}
