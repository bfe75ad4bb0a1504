// tp_bench: kernel and training benchmarks, native or (as tp_bench.js) under Node.
//
// Prints one JSON object per measurement on stdout, so scripts/bench.mjs can run the native and
// wasm builds side by side with the peers and print one table. Timings are medians of repeated
// runs after warm-up; nothing here asserts a time.
//   tp_bench matmul [--reps N]
#include <cstdio>
#include <cstring>
#include <string>

#include "bench/bench_util.h"

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "matmul";
  tp::bench::Options options;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--reps") == 0) options.reps = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--impl") == 0) options.impl = argv[i + 1];
  }
  if (what == "matmul") return tp::bench::run_matmul(options);
  std::fprintf(stderr, "tp_bench: unknown benchmark '%s'; available: matmul\n", what.c_str());
  return 2;
}
