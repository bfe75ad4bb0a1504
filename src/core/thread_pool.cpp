// The persistent thread pool behind threads::run(); see thread_pool.h.
//
// One region at a time: the caller publishes the job (function, context, task count), bumps the
// generation counter and takes tasks itself; workers notice the new generation (spinning, or
// woken from a condition variable if they had gone to sleep), take tasks from a shared counter
// and report done. The caller returns once every worker has reported, so nothing refers to the
// job after run() returns. Which thread takes which task varies from run to run; what a task
// computes does not.
#include "core/thread_pool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
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

thread_local int tl_slot = 0;
thread_local bool tl_inside = false;
std::atomic<bool> always_split{false};
std::atomic<int> spin_us{200};

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

struct Job {
  TaskFn fn = nullptr;
  void* context = nullptr;
  int tasks = 0;
};

class Pool {
 public:
  explicit Pool(int threads) : workers_(static_cast<std::size_t>(threads - 1)) {
#if TP_HAS_THREADS
    for (int i = 0; i < threads - 1; ++i) workers_[i] = std::thread([this, i] { worker(i + 1); });
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
  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  void run(int tasks, TaskFn fn, void* context) {
    job_ = Job{fn, context, tasks};
    error_ = nullptr;
    failed_.store(false, std::memory_order_relaxed);
    next_.store(0, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_seq_cst);  // publishes the job
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      { std::lock_guard<std::mutex> lock(sleep_mutex_); }  // a sleeper is either waiting or will see the new generation
      wake_.notify_all();
    }
    take_tasks(0);
    const int workers = static_cast<int>(workers_.size());
    for (int spins = 0; done_.load(std::memory_order_acquire) < workers; ++spins) {
      if (spins < 4096) cpu_relax();
      else std::this_thread::yield();  // a worker is descheduled: let it run
    }
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::vector<std::thread> workers_;
  Job job_;
  std::exception_ptr error_;
  std::mutex error_mutex_;
  std::atomic<bool> failed_{false};
  alignas(64) std::atomic<unsigned> generation_{0};
  alignas(64) std::atomic<int> next_{0};
  alignas(64) std::atomic<int> done_{0};
  alignas(64) std::atomic<int> sleepers_{0};
  std::atomic<bool> stop_{false};
  std::mutex sleep_mutex_;
  std::condition_variable wake_;

  void take_tasks(int slot) {
    const Job job = job_;
    for (int t = next_.fetch_add(1, std::memory_order_relaxed); t < job.tasks;
         t = next_.fetch_add(1, std::memory_order_relaxed)) {
      if (failed_.load(std::memory_order_relaxed)) continue;
      try {
        job.fn(job.context, t, slot);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex_);
        if (!error_) error_ = std::current_exception();
        failed_.store(true, std::memory_order_relaxed);
      }
    }
  }

  // Waits for a generation other than `seen`: spins for spin_us, then sleeps. False on stop.
  bool wait_for_job(unsigned seen) {
    const double spin_seconds = spin_us.load(std::memory_order_relaxed) * 1e-6;
    const double start = seconds_now();
    for (int i = 1;; ++i) {
      if (generation_.load(std::memory_order_acquire) != seen) return true;
      if (stop_.load(std::memory_order_relaxed)) return false;
      cpu_relax();
      if ((i & 255) == 0 && seconds_now() - start > spin_seconds) break;
    }
    std::unique_lock<std::mutex> lock(sleep_mutex_);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    while (generation_.load(std::memory_order_seq_cst) == seen && !stop_.load()) wake_.wait(lock);
    sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    return !stop_.load();
  }

  void worker(int slot) {
    tl_slot = slot;
    tl_inside = true;  // anything a task starts runs on this thread
    unsigned seen = 0;  // the generation at construction: a job published before this thread ran is new to it
    while (wait_for_job(seen)) {
      seen = generation_.load(std::memory_order_acquire);
      take_tasks(slot);
      done_.fetch_add(1, std::memory_order_release);
    }
  }
};

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

int spin_microseconds() { return spin_us.load(); }
void set_spin_microseconds(int us) { spin_us.store(std::max(0, us)); }

void set_always_split(bool on) { always_split.store(on); }

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
  pool->run(tasks, fn, context);
}

}  // namespace tp::threads
