// Peak benchmark: GFLOP/s of this build's matmul micro-kernel alone, on operands that stay in L1
// — the ceiling the matmul rows are read against (on x86 the 128-bit kernel is bound by the
// three ports that execute its separate mul and add; the wide kernels by two FMA ports).
#include <algorithm>
#include <cstdio>

#include "bench/bench_util.h"
#include "kernels/kernels.h"

namespace tp::bench {

// The core clock, from a chain of dependent 64-bit multiplies (3 cycles each on every x86 core
// of the last decade): absolute GFLOP/s scale with it, and a shared machine's clock moves.
// `tp_bench clock` prints it alone (scripts/bench.mjs reads it at every round).
double clock_ghz() {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
  double best = 0.0;
  for (int rep = 0; rep < 5; ++rep) {
    long n = 20000000, x = 3;
    const long m = 1;
    const double start = now_seconds();
    __asm__ volatile("1: imul %2, %0\n imul %2, %0\n imul %2, %0\n imul %2, %0\n dec %1\n jnz 1b"
                     : "+r"(x), "+r"(n)
                     : "r"(m));
    best = std::max(best, 20000000.0 * 4 * 3 / (now_seconds() - start) / 1e9);
  }
  return best;
#else
  return 0.0;  // not measurable from wasm
#endif
}

int run_clock(const Options&) {
  std::printf("{\"bench\":\"clock\",\"clock_ghz\":%.2f}\n", clock_ghz());
  return 0;
}

int run_peak(const Options& options) {
  const std::string impl = options.impl.empty() ? default_impl() : options.impl;
  kernels::matmul_kernel_peak_gflops(0.2);  // warm-up (a wasm engine tiers up meanwhile)
  const double gflops = kernels::matmul_kernel_peak_gflops(1.0);
  std::printf("{\"bench\":\"peak\",\"impl\":\"%s\",\"kernel\":\"%s\",\"gflops\":%.3f,\"clock_ghz\":%.2f}\n",
              impl.c_str(), kernels::matmul_path(), gflops, clock_ghz());
  return 0;
}

}  // namespace tp::bench
