// The process's thread pool: the threads every parallel kernel runs on (std::thread natively,
// pthreads in the threaded wasm build), bit-identical to one thread by construction.
//
// Kernels split their work into tasks that each compute whole output elements in the same order
// one thread would, and never split a reduction whose order shows in the result (the K dimension
// of a product, a sum over rows): so the thread count and the size thresholds below decide only
// who computes an element, never how, and every result is the same at 1, 2 or 64 threads.
//
// The pool is persistent: a training step runs some sixty regions, so workers spin for a
// moment after each one (a region then starts in well under a microsecond natively) and sleep
// only when the caller has been gone longer than that (docs/PERFORMANCE.md, "Threads"). The
// caller, once it has no task left, spins for the same moment for the others' tasks to finish,
// then sleeps until the last one does: a worker the OS has taken off its core (a browser's own
// threads want the core now and then) gets the caller's core instead of waiting for it to spin.
// How a thread waits is decided in one place (Pool::keep_spinning in thread_pool.cpp), so a mode
// that keeps workers spinning while generation runs, and lets them sleep when it stops, is one
// more condition there.
//
//   threads::set_count(4);                       // the caller + 3 workers
//   threads::parallel_for(tasks, [&](int task, int slot) { ... });  // slot: per-thread scratch
//
// A region started from inside a region (a kernel called by a parallel attention head) runs on
// the calling thread alone, as does every region while count() == 1. Regions are for one thread
// driving the core at a time; a second thread that starts one while another runs gets it serial.
#pragma once

#include <algorithm>
#include <type_traits>

namespace tp::threads {

constexpr int kMax = 64;

// Whether this build can run more than one thread (false in the single-threaded wasm build).
bool available();
// The threads this machine offers (1 where unknown, or where threads are not available).
int hardware();
// The threads parallel regions use, the caller included (1 .. kMax; 1 until set_count()).
int count();
// Starts or stops workers so regions use n threads. tp::Error when n is outside 1 .. kMax, or
// above 1 in a build without threads (the message says what is allowed). Not from inside a region.
void set_count(int n);
// The most threads set_count() accepts in this process (kMax, 1 without threads, or what the
// threaded wasm module was loaded for: it cannot start threads it did not prepare).
int limit();
void set_limit(int n);

// Registers work each worker thread does when it starts, before its first task: kernels make
// their per-thread buffers there, so a worker's first task — which may come in any training
// step — allocates nothing. Registered from static initialisers (before any set_count()).
void at_thread_start(void (*fn)());

// How long a waiting thread spins before it sleeps, in microseconds: a worker waiting for the
// next region, and the caller waiting for the last tasks of its region.
int spin_microseconds();

// What the pool did since reset_counters(), counted while set_counting(true) (benchmarks; off
// by default, so regions read no clock).
struct Counters {
  long regions = 0;             // regions run across the pool (more than one task and thread)
  long tasks = 0;               // the tasks of those regions
  long caller_tasks = 0;        // of which the calling thread ran
  double region_seconds = 0.0;  // the caller's wall time inside those regions
  double wait_seconds = 0.0;    // of which it had no task left and waited for the others
  long caller_sleeps = 0;       // times the caller slept waiting for the last tasks
  long worker_sleeps = 0;       // times a worker slept waiting for a region
};
void set_counting(bool on);
Counters counters();
void reset_counters();

// While one of these lives, idle workers spin and never sleep. Generation holds one: a token's
// regions are microseconds to a few hundred microseconds long, and a worker woken from sleep
// (a futex in wasm) would start each late; between calls the workers sleep as usual.
class SpinWhile {
 public:
  SpinWhile();
  ~SpinWhile();
  SpinWhile(const SpinWhile&) = delete;
  SpinWhile& operator=(const SpinWhile&) = delete;
};

// Tests: every region splits whatever its size, so small models exercise every split.
void set_always_split(bool on);

// How many parts a region of about `flops` operations should split into: 1 when count() is 1,
// when called from inside a region, or when the work is too small to pay for waking a thread;
// otherwise up to count(), keeping at least a minimum of work per part.
int parts_for(double flops);

using TaskFn = void (*)(void* context, int task, int slot);
// Runs fn(context, task, slot) for every task in [0, tasks) on the pool (the caller takes tasks
// too), returning when all are done; slot in [0, count()) names the thread (for per-thread
// scratch). Rethrows the first exception a task threw, after every task has finished.
void run(int tasks, TaskFn fn, void* context);

// run() for a callable f(task, slot).
template <class F>
void parallel_for(int tasks, F&& f) {
  using Fn = std::remove_reference_t<F>;
  run(
      tasks, [](void* c, int task, int slot) { (*static_cast<Fn*>(c))(task, slot); },
      const_cast<void*>(static_cast<const void*>(&f)));
}

// Part p of `parts` of [0, n) in units of `align` (every start is a multiple of align; the
// last part ends at n): [*begin, *end).
inline void part_range(int n, int align, int parts, int p, int* begin, int* end) {
  const long units = (static_cast<long>(n) + align - 1) / align;
  *begin = static_cast<int>(std::min<long>(n, units * p / parts * align));
  *end = static_cast<int>(std::min<long>(n, units * (p + 1) / parts * align));
}

// The slot of the calling thread (0 on the thread that drives the core).
int current_slot();

// Runs f(begin, end, slot) over `parts` ranges of [0, n) aligned to `align` (part_range).
template <class F>
void parallel_ranges(int n, int align, int parts, F&& f) {
  parts = std::max(1, std::min(parts, (n + align - 1) / align));
  if (parts == 1) {
    f(0, n, current_slot());
    return;
  }
  parallel_for(parts, [&](int p, int slot) {
    int begin = 0, end = 0;
    part_range(n, align, parts, p, &begin, &end);
    if (begin < end) f(begin, end, slot);
  });
}

// parallel_ranges over as many parts as `flops` operations of work pay for (parts_for).
template <class F>
void parallel_split(int n, int align, double flops, F&& f) {
  parallel_ranges(n, align, parts_for(flops), f);
}

}  // namespace tp::threads
