// The persistent thread pool behind threads::run(); see thread_pool.h.
//
// One region at a time: the caller publishes the job (function, context, and a job word holding
// its generation, task count and next task) and takes tasks itself; workers notice the new job
// (spinning, or woken from a condition variable if they had gone to sleep), take tasks with a
// compare-exchange on the job word, and count them finished. The caller returns when every task
// has finished — not when every worker has looked: a worker the OS has not scheduled (on a
// loaded machine) costs nothing unless it holds a task. Which thread takes which task varies
// from run to run; what a task computes does not.
#include "core/thread_pool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/error.h"

#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
#define TP_HAS_THREADS 1
#else
#define TP_HAS_THREADS 0
#endif

namespace tp::threads {

namespace {

// Below this many operations per part a region stays on one thread: waking a spinning worker
// and waiting for it costs about a microsecond natively and a few in wasm (measured by
// `tp_bench pool`), so a part should be worth several microseconds.
constexpr double kMinFlopsPerPart = 40000.0;

std::vector<void (*)()>& start_hooks() {
  static std::vector<void (*)()> hooks;
  return hooks;
}

thread_local int tl_slot = 0;
thread_local bool tl_inside = false;
std::atomic<bool> always_split{false};
std::atomic<int> spin_us{200};
std::atomic<int> spin_holders{0};  // live SpinWhile scopes

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The job word: which region (generation), how many tasks it has and the next task to take,
// in one atomic, so a worker that wakes late can never take a task of a region that has moved
// on: its compare-exchange fails when the generation differs, and it reads the region's function
// only after taking a task, when the caller is still waiting for that task and has not touched
// the function since publishing it.
constexpr int kTaskBits = 16;
constexpr std::uint64_t kTaskMask = (std::uint64_t{1} << kTaskBits) - 1;
constexpr int kMaxTasksPerJob = static_cast<int>(kTaskMask);
inline std::uint64_t job_word(std::uint32_t generation, int tasks, int next) {
  return std::uint64_t{generation} << (2 * kTaskBits) | static_cast<std::uint64_t>(tasks) << kTaskBits |
         static_cast<std::uint64_t>(next);
}
inline std::uint32_t generation_of(std::uint64_t word) { return static_cast<std::uint32_t>(word >> (2 * kTaskBits)); }
inline int tasks_of(std::uint64_t word) { return static_cast<int>(word >> kTaskBits & kTaskMask); }
inline int next_of(std::uint64_t word) { return static_cast<int>(word & kTaskMask); }

class Pool {
 public:
  // Returns once every worker has started and run the start hooks (so no worker allocates its
  // buffers later, inside someone's training step).
  explicit Pool(int threads) : workers_(static_cast<std::size_t>(threads - 1)) {
#if TP_HAS_THREADS
    for (int i = 0; i < threads - 1; ++i) workers_[i] = std::thread([this, i] { worker(i + 1); });
    while (started_.load(std::memory_order_acquire) < threads - 1) std::this_thread::yield();
#endif
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(sleep_mutex_);
      stop_.store(true);
    }
    wake_.notify_all();
    for (std::thread& t : workers_) {
      if (t.joinable()) t.join();
    }
  }

  // Runs tasks [first, first + tasks) of fn; tasks <= kMaxTasksPerJob.
  void run(int first, int tasks, TaskFn fn, void* context) {
    const bool counting = counting_.load(std::memory_order_relaxed);
    const double start = counting ? seconds_now() : 0.0;
    fn_ = fn;
    context_ = context;
    first_ = first;
    error_ = nullptr;
    finished_.store(0, std::memory_order_relaxed);
    if (++generation_ == 0) generation_ = 1;                                 // 0 means "no job" to a worker
    job_.store(job_word(generation_, tasks, 0), std::memory_order_seq_cst);  // publishes the job
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      { std::lock_guard<std::mutex> lock(sleep_mutex_); }  // a sleeper is either waiting or will see the new job
      wake_.notify_all();
    }
    const int mine = work(generation_, 0);
    // Only tasks are waited for: a worker that has not woken yet takes none and is not needed.
    const double own_done = counting ? seconds_now() : 0.0;
    if (finished_.load(std::memory_order_acquire) < tasks) wait_for_tasks(tasks);
    if (counting) {
      const double end = seconds_now();
      stats_.regions += 1;
      stats_.tasks += tasks;
      stats_.caller_tasks += mine;
      stats_.region_seconds += end - start;
      stats_.wait_seconds += end - own_done;
    }
    if (error_) std::rethrow_exception(error_);
  }

  Counters counters() {
    Counters c = stats_;
    c.worker_sleeps = worker_sleeps_.load();
    return c;
  }
  void reset_counters() {
    stats_ = {};
    worker_sleeps_.store(0);
  }
  static void set_counting(bool on) { counting_.store(on); }

 private:
  std::vector<std::thread> workers_;
  // Written by the caller between jobs only (see job_word).
  TaskFn fn_ = nullptr;
  void* context_ = nullptr;
  int first_ = 0;
  std::uint32_t generation_ = 0;
  std::exception_ptr error_;
  std::mutex error_mutex_;
  Counters stats_;  // the caller's, between jobs
  static std::atomic<bool> counting_;
  alignas(64) std::atomic<std::uint64_t> job_{0};
  alignas(64) std::atomic<int> finished_{0};
  alignas(64) std::atomic<int> sleepers_{0};
  std::atomic<bool> caller_asleep_{false};
  std::atomic<long> worker_sleeps_{0};
  std::atomic<int> started_{0};
  std::atomic<bool> stop_{false};
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  std::mutex done_mutex_;
  std::condition_variable done_;

  // Whether a thread that has been waiting since `since` keeps spinning: for spin_us, then it
  // sleeps (every waiting loop of the pool asks here).
  static bool keep_spinning(double since) {
    return seconds_now() - since < spin_us.load(std::memory_order_relaxed) * 1e-6;
  }

  // Takes and runs tasks of job `generation` until none is left (or the job is another's);
  // returns how many it ran. The thread that finishes a job's last task wakes the caller if it
  // has gone to sleep waiting for it.
  int work(std::uint32_t generation, int slot) {
    std::uint64_t word = job_.load(std::memory_order_acquire);
    int ran = 0;
    for (;;) {
      if (generation_of(word) != generation || next_of(word) >= tasks_of(word)) return ran;
      if (!job_.compare_exchange_weak(word, word + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      const int task = next_of(word), tasks = tasks_of(word);
      try {
        fn_(context_, first_ + task, slot);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex_);
        if (!error_) error_ = std::current_exception();
      }
      ++ran;
      if (finished_.fetch_add(1, std::memory_order_seq_cst) + 1 == tasks && slot != 0 &&
          caller_asleep_.load(std::memory_order_seq_cst)) {
        { std::lock_guard<std::mutex> lock(done_mutex_); }  // the caller is either waiting or will see the count
        done_.notify_one();
      }
      word = job_.load(std::memory_order_acquire);
    }
  }

  // The caller, out of tasks, waits for the others': spins while keep_spinning(), then sleeps
  // until the last task's thread wakes it — so a worker descheduled while holding a task can
  // run on the caller's core rather than wait for a core the caller only spins on.
  void wait_for_tasks(int tasks) {
    const double since = seconds_now();
    for (int i = 1; finished_.load(std::memory_order_acquire) < tasks; ++i) {
      cpu_relax();
      if ((i & 63) == 0 && !keep_spinning(since)) {
        std::unique_lock<std::mutex> lock(done_mutex_);
        caller_asleep_.store(true, std::memory_order_seq_cst);
        if (counting_.load(std::memory_order_relaxed)) stats_.caller_sleeps += 1;
        while (finished_.load(std::memory_order_seq_cst) < tasks) done_.wait(lock);
        caller_asleep_.store(false, std::memory_order_relaxed);
        return;
      }
    }
  }

  // Waits for a job of a generation other than `seen` with a task left: spins while
  // keep_spinning(), then sleeps. Returns its generation, or 0 on stop.
  std::uint32_t wait_for_job(std::uint32_t seen) {
    const auto fresh = [&] {
      const std::uint64_t word = job_.load(std::memory_order_seq_cst);
      return generation_of(word) != seen ? generation_of(word) : 0;
    };
    const double since = seconds_now();
    for (int i = 1;; ++i) {
      if (const std::uint32_t g = fresh()) return g;
      if (stop_.load(std::memory_order_relaxed)) return 0;
      cpu_relax();
      if ((i & 255) == 0) {
        // A live SpinWhile (a generation in progress) keeps the workers spinning past spin_us.
        if (!keep_spinning(since) && spin_holders.load(std::memory_order_relaxed) == 0) break;
        // On a loaded machine the caller may be waiting for this very core: give it up now and
        // then (with nothing else to run the call returns at once).
        std::this_thread::yield();
      }
    }
    std::unique_lock<std::mutex> lock(sleep_mutex_);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    worker_sleeps_.fetch_add(1, std::memory_order_relaxed);
    std::uint32_t g = 0;
    while ((g = fresh()) == 0 && !stop_.load()) wake_.wait(lock);
    sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    return stop_.load() ? 0 : g;
  }

  void worker(int slot) {
    tl_slot = slot;
    tl_inside = true;  // anything a task starts runs on this thread
    for (void (*hook)() : start_hooks()) hook();
    started_.fetch_add(1, std::memory_order_release);
    std::uint32_t seen = 0;
    while (const std::uint32_t g = wait_for_job(seen)) {
      seen = g;
      work(g, slot);
    }
  }
};

std::atomic<bool> Pool::counting_{false};

std::mutex config_mutex;  // set_count() against itself
std::mutex region_mutex;  // one region at a time
std::unique_ptr<Pool> pool;
std::atomic<int> thread_count{1};
std::atomic<int> thread_limit{TP_HAS_THREADS ? kMax : 1};

}  // namespace

bool available() { return TP_HAS_THREADS != 0; }

int hardware() {
#if TP_HAS_THREADS
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(std::min<unsigned>(n, kMax));
#else
  return 1;
#endif
}

int count() { return thread_count.load(std::memory_order_relaxed); }

int limit() { return thread_limit.load(); }

void set_limit(int n) {
  TP_CHECK(n >= 1 && n <= kMax, "a thread limit of ", n, " is out of range; allowed: 1 .. ", kMax);
  thread_limit.store(TP_HAS_THREADS ? n : 1);
}

void set_count(int n) {
  TP_CHECK(!tl_inside, "threads can not be changed from inside a parallel region");
  if (!TP_HAS_THREADS) {
    TP_CHECK(n == 1, "threads = ", n, " is not available: this build is single-threaded; allowed: 1");
  }
  const int most = limit();
  TP_CHECK(n >= 1 && n <= most, "threads = ", n, " is out of range; allowed: 1 .. ", most);
  std::lock_guard<std::mutex> config(config_mutex);
  std::lock_guard<std::mutex> region(region_mutex);
  if (n == count()) return;
  pool.reset();
  if (n > 1) pool = std::make_unique<Pool>(n);
  thread_count.store(n);
}

void at_thread_start(void (*fn)()) { start_hooks().push_back(fn); }

int spin_microseconds() { return spin_us.load(); }

SpinWhile::SpinWhile() { spin_holders.fetch_add(1); }
SpinWhile::~SpinWhile() { spin_holders.fetch_sub(1); }

void set_always_split(bool on) { always_split.store(on); }

void set_counting(bool on) { Pool::set_counting(on); }

Counters counters() {
  std::lock_guard<std::mutex> region(region_mutex);
  return pool ? pool->counters() : Counters{};
}

void reset_counters() {
  std::lock_guard<std::mutex> region(region_mutex);
  if (pool) pool->reset_counters();
}

int current_slot() { return tl_slot; }

int parts_for(double flops) {
  const int n = count();
  if (n == 1 || tl_inside) return 1;
  if (always_split.load(std::memory_order_relaxed)) return n;
  const double parts = flops / kMinFlopsPerPart;
  return parts >= n ? n : std::max(1, static_cast<int>(parts));
}

void run(int tasks, TaskFn fn, void* context) {
  if (tasks <= 0) return;
  const auto serial = [&] {
    for (int t = 0; t < tasks; ++t) fn(context, t, tl_slot);
  };
  if (tasks == 1 || tl_inside || count() == 1) return serial();
  std::unique_lock<std::mutex> region(region_mutex, std::try_to_lock);
  if (!region.owns_lock() || !pool) return serial();
  tl_inside = true;
  struct Leave {
    ~Leave() { tl_inside = false; }
  } leave;
  for (int first = 0; first < tasks; first += kMaxTasksPerJob) {
    pool->run(first, std::min(kMaxTasksPerJob, tasks - first), fn, context);
  }
}

}  // namespace tp::threads
