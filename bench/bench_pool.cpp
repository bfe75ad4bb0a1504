// Thread-pool benchmark: what one parallel region costs beyond its work — the time from the
// caller starting a region of `threads` empty tasks to every worker having reported done —
// after the caller was away for a gap of 0 .. 5000 µs. Within the workers' spin time a region
// finds them awake; after it, they have gone to sleep and must be woken (a futex natively,
// Atomics.wait/notify in wasm). Medians of many regions.
#include <atomic>
#include <cstdio>
#include <vector>

#include "bench/bench_util.h"
#include "core/thread_pool.h"

namespace tp::bench {

namespace {

void busy_wait(double seconds) {
  const double end = now_seconds() + seconds;
  while (now_seconds() < end) {
  }
}

}  // namespace

int run_pool(const Options& options) {
  const std::string impl = options.impl.empty() ? default_impl() : options.impl;
  const int n = threads::count();
  std::atomic<int> sink{0};
  for (const int gap_us : {0, 20, 100, 1000, 5000}) {
    const int reps = gap_us >= 1000 ? 50 : 400;
    std::vector<double> region_s;
    for (int r = 0; r < reps + 5; ++r) {
      if (gap_us > 0) busy_wait(gap_us * 1e-6);
      const double start = now_seconds();
      threads::parallel_for(n, [&](int task, int) { sink.fetch_add(task, std::memory_order_relaxed); });
      if (r >= 5) region_s.push_back(now_seconds() - start);
    }
    std::printf("{\"bench\":\"pool\",\"impl\":\"%s\",\"threads\":%d,\"spin_us\":%d,\"gap_us\":%d,\"region_us\":%.3f}\n",
                impl.c_str(), n, threads::spin_microseconds(), gap_us, 1e6 * median(region_s));
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace tp::bench
