// Helpers for the [threads] suites: run a piece of work at a given thread count, and compare
// results bit for bit.
#pragma once

#include <cstring>
#include <vector>

#include "core/thread_pool.h"

namespace tp::test {

// Sets the pool to n threads (and whether every region splits, however small) for its lifetime,
// then back to one thread, the default every other suite runs at.
class ThreadsFor {
 public:
  explicit ThreadsFor(int n, bool always_split = true) {
    threads::set_count(n);
    threads::set_always_split(always_split);
  }
  ~ThreadsFor() {
    threads::set_always_split(false);
    threads::set_count(1);
  }
  ThreadsFor(const ThreadsFor&) = delete;
  ThreadsFor& operator=(const ThreadsFor&) = delete;
};

// The thread counts every [threads] check compares with one thread: two, and three (more threads
// than the machine may have cores, and an odd split) — none in a build without threads (the
// single-threaded wasm module, whose tests still run the one-thread half).
inline std::vector<int> other_thread_counts() {
  if (!threads::available()) return {};
  return {2, 3};
}

inline bool same_bits(const float* a, const float* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(float)) == 0;
}
inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && same_bits(a.data(), b.data(), a.size());
}

}  // namespace tp::test
