// [threads] Every kernel that splits across the thread pool gives the bits of one thread, at two
// and three threads, with every region split however small (so every cut is exercised) and with
// the default size thresholds: matmul in every form, band, tile edge and the unpacked small
// path, and the row kernels (softmax, norms, activations, bias and column sums, elementwise).
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "core/error.h"
#include "core/thread_pool.h"
#include "kernels/kernels.h"
#include "test_util.h"
#include "thread_util.h"

using namespace tp;
using kernels::Band;
using kernels::Trans;

namespace {

// Runs `compute` (which writes its outputs into `out`) at one thread and then at every other
// count, and checks the outputs are bit-identical; `what` describes the case on failure.
void check_threads(const std::string& what, const std::function<std::vector<float>()>& compute,
                   bool always_split = true) {
  const std::vector<float> one = compute();
  for (const int n : test::other_thread_counts()) {
    test::ThreadsFor threads(n, always_split);
    const std::vector<float> many = compute();
    INFO(what << " at " << n << " threads");
    REQUIRE(test::same_bits(one, many));
  }
}

struct MatmulCase {
  Trans ta, tb;
  int M, N, K;
  bool accumulate, bias;
  Band band;
};

std::vector<float> run_matmul(const MatmulCase& c, std::uint64_t seed) {
  Rng rng(seed);
  const int a_rows = c.ta == Trans::N ? c.M : c.K, a_cols = c.ta == Trans::N ? c.K : c.M;
  const int b_rows = c.tb == Trans::N ? c.K : c.N, b_cols = c.tb == Trans::N ? c.N : c.K;
  const int lda = a_cols + 3, ldb = b_cols + 1, ldc = c.N + 2;
  auto A = test::random_vector(rng, static_cast<std::size_t>(a_rows) * lda);
  const auto B = test::random_vector(rng, static_cast<std::size_t>(b_rows) * ldb);
  const auto bias = test::random_vector(rng, c.N);
  // A causal operand is zero where its band says so (what attention's probabilities are).
  if (c.band.kind == Band::Kind::KUpTo || c.band.kind == Band::Kind::KFrom) {
    for (int i = 0; i < c.M; ++i) {
      for (int k = 0; k < c.K; ++k) {
        const bool zero = c.band.kind == Band::Kind::KUpTo ? k > i + c.band.offset : k < i + c.band.offset;
        if (zero)
          A[c.ta == Trans::N ? static_cast<std::size_t>(i) * lda + k : static_cast<std::size_t>(k) * lda + i] = 0.0f;
      }
    }
  }
  std::vector<float> C = c.accumulate ? test::random_vector(rng, static_cast<std::size_t>(c.M) * ldc)
                                      : std::vector<float>(static_cast<std::size_t>(c.M) * ldc, 7.0f);
  kernels::matmul(c.ta, c.tb, c.M, c.N, c.K, A.data(), lda, B.data(), ldb, C.data(), ldc, c.accumulate,
                  c.bias ? bias.data() : nullptr, c.band);
  if (c.band.kind == Band::Kind::Lower) {  // above the band C is unspecified: compare the rest
    for (int i = 0; i < c.M; ++i) {
      for (int j = 0; j < c.N; ++j) {
        if (j > i + c.band.offset) C[static_cast<std::size_t>(i) * ldc + j] = 0.0f;
      }
    }
  }
  return C;
}

std::string describe(const MatmulCase& c) {
  return str_cat(c.ta == Trans::N ? "n" : "t", c.tb == Trans::N ? "n" : "t", " M=", c.M, " N=", c.N, " K=", c.K,
                 " acc=", c.accumulate, " bias=", c.bias, " band=", static_cast<int>(c.band.kind), "/", c.band.offset);
}

}  // namespace

TEST_CASE("matmul gives one thread's bits at 2 and 3 threads, in every form and band", "[threads]") {
  Rng rng(4242);
  const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 33, 64, 65, 100, 129, 257, 520};
  const int n_sizes = sizeof(sizes) / sizeof(sizes[0]);
  const Band::Kind kinds[] = {Band::Kind::Full, Band::Kind::Lower, Band::Kind::KUpTo, Band::Kind::KFrom};
  for (int i = 0; i < 160; ++i) {
    MatmulCase c{};
    c.ta = (i % 3 == 2) ? Trans::T : Trans::N;
    c.tb = (i % 3 == 1) ? Trans::T : Trans::N;
    c.M = sizes[rng.below(n_sizes)];
    c.N = sizes[rng.below(n_sizes)];
    c.K = sizes[rng.below(n_sizes)];
    c.accumulate = rng.below(2) == 1;
    c.bias = rng.below(2) == 1;
    c.band.kind = kinds[i % 4];
    c.band.offset = c.band.kind == Band::Kind::Full ? 0 : static_cast<int>(rng.below(5)) - 2;
    check_threads(describe(c), [&] { return run_matmul(c, 1000 + i); });
  }
}

TEST_CASE("matmul at the transformer's shapes splits with the default thresholds and keeps its bits", "[threads]") {
  const MatmulCase cases[] = {
      {Trans::N, Trans::T, 1024, 384, 128, false, true, {}},  // x Wᵀ + b
      {Trans::N, Trans::N, 1024, 128, 512, true, false, {}},  // dX += dY W
      {Trans::T, Trans::N, 512, 128, 1024, true, false, {}},  // dW += dYᵀ X
      {Trans::T, Trans::N, 65, 128, 1024, true, false, {}},   // the head's dW: fewer rows than columns
      {Trans::N, Trans::T, 1, 2048, 512, false, true, {}},    // a generation step: the unpacked path
      {Trans::N, Trans::T, 256, 256, 32, false, false, {Band::Kind::Lower, 0}},  // Q Kᵀ, causal
      {Trans::N, Trans::N, 256, 32, 256, false, false, {Band::Kind::KUpTo, 0}},  // P V
      {Trans::T, Trans::N, 256, 32, 256, true, false, {Band::Kind::KFrom, 0}},   // Pᵀ dO
  };
  int i = 0;
  for (const MatmulCase& c : cases) {
    check_threads(
        describe(c), [&] { return run_matmul(c, 77 + i); }, false);
    ++i;
  }
}

namespace {

// A group of products over one buffer: independent ones, a chain into one C (dX = dQ·Wq, then
// += dK·Wk, += dV·Wv; the last with another K, so it may cut otherwise), one that adds into part
// of an earlier C, one with K == 0 and more than kMaxGroup in all. Returns the buffer after
// running them as one group, or (one_by_one) through kernels::matmul in order.
std::vector<float> run_group(bool one_by_one) {
  Rng rng(99);
  const auto operand = test::random_vector(rng, 200000);
  std::vector<float> out = test::random_vector(rng, 60000);
  const float* a = operand.data();
  float* c = out.data();
  using P = kernels::MatmulArgs;
  const P group[] = {
      {Trans::N, Trans::T, 70, 48, 33, a, 33, a + 5000, 33, c, 48, false, a + 9000},              // q = x Wqᵀ + b
      {Trans::N, Trans::T, 70, 24, 33, a + 100, 33, a + 7000, 33, c + 4000, 24, false, nullptr},  // k
      {Trans::N, Trans::T, 70, 24, 33, a + 200, 33, a + 8000, 33, c + 6000, 24, true, nullptr},   // v, accumulating
      {Trans::N, Trans::N, 66, 40, 48, a + 300, 48, a + 10000, 40, c + 8000, 40, false},          // dX = dQ Wq
      {Trans::N, Trans::N, 66, 40, 48, a + 400, 48, a + 12000, 40, c + 8000, 40, true},           // dX += dK Wk
      {Trans::N, Trans::N, 66, 40, 7, a + 500, 7, a + 14000, 40, c + 8000, 40, true},             // dX += dV Wv, K 7
      {Trans::T, Trans::N, 48, 33, 70, a + 600, 48, a + 16000, 33, c + 12000, 33, true},          // dW += dYᵀ X
      {Trans::N, Trans::N, 20, 40, 9, a + 700, 9, a + 18000, 40, c + 8000 + 800, 40, true},       // into dX's rows 20..
      {Trans::N, Trans::T, 30, 16, 0, a, 1, a, 1, c + 14000, 16, false, a + 20000},               // K == 0: C = bias
      {Trans::T, Trans::N, 33, 48, 70, a + 900, 33, a + 22000, 48, c + 16000, 48, false},
      {Trans::N, Trans::T, 2, 64, 33, a + 1000, 33, a + 24000, 33, c + 18000, 64, false},  // the unpacked path
  };
  const int n = sizeof(group) / sizeof(group[0]);
  if (one_by_one) {
    for (const P& p : group)
      kernels::matmul(p.trans_a, p.trans_b, p.M, p.N, p.K, p.A, p.lda, p.B, p.ldb, p.C, p.ldc, p.accumulate, p.bias,
                      p.band);
  } else {
    kernels::matmul_group(group, n);
  }
  return out;
}

}  // namespace

TEST_CASE("a group of products gives the bits of the products one by one, at every thread count", "[threads]") {
  const std::vector<float> one_by_one = run_group(true);
  REQUIRE(test::same_bits(one_by_one, run_group(false)));
  check_threads("matmul_group", [] { return run_group(false); });
  check_threads(
      "matmul_group, default thresholds", [] { return run_group(false); }, false);
  for (const int n : test::other_thread_counts()) {
    test::ThreadsFor threads(n, true);
    INFO(n << " threads, one by one");
    REQUIRE(test::same_bits(one_by_one, run_group(true)));
  }
}

TEST_CASE("the thread count is checked and a region inside a region runs on its thread", "[threads]") {
  REQUIRE(threads::count() == 1);
  REQUIRE_THROWS_WITH(threads::set_count(0), Catch::Contains("allowed: 1"));
  REQUIRE_THROWS_WITH(threads::set_count(threads::kMax + 1), Catch::Contains("allowed: 1"));
  if (!threads::available()) {
    REQUIRE_THROWS_WITH(threads::set_count(2), Catch::Contains("single-threaded"));
    return;
  }
  test::ThreadsFor pool(3);
  REQUIRE(threads::count() == 3);
  std::vector<int> slot_of(64, -1), inner_slot(64, -1);
  threads::parallel_for(64, [&](int task, int slot) {
    slot_of[task] = slot;
    threads::parallel_for(2, [&](int, int inner) { inner_slot[task] = inner; });  // runs here, serially
  });
  for (int t = 0; t < 64; ++t) {
    REQUIRE(slot_of[t] >= 0);
    REQUIRE(slot_of[t] < 3);
    REQUIRE(inner_slot[t] == slot_of[t]);
  }
  // An error in a task reaches the caller, and the pool keeps working.
  REQUIRE_THROWS_WITH(threads::parallel_for(8, [](int task, int) { TP_CHECK(task != 5, "task 5 failed"); }),
                      "task 5 failed");
  int sum = 0;
  std::vector<int> seen(100, 0);
  threads::parallel_for(100, [&](int task, int) { seen[task] = task; });
  for (int v : seen) sum += v;
  REQUIRE(sum == 4950);
}

TEST_CASE("the row kernels give one thread's bits at 2 and 3 threads", "[threads]") {
  for (const int rows : {1, 3, 17, 64}) {
    for (const int cols : {5, 16, 37, 130}) {
      Rng rng(rows * 1000 + cols);
      const std::size_t n = static_cast<std::size_t>(rows) * cols;
      const auto x = test::random_vector(rng, n, -3.0f, 3.0f), dy = test::random_vector(rng, n);
      const auto gamma = test::random_vector(rng, cols), beta = test::random_vector(rng, cols);
      const auto mask = test::random_vector(rng, n, -2.0f, 0.0f);
      const auto start = test::random_vector(rng, n);  // what accumulating kernels add to
      const std::string shape = str_cat(rows, "x", cols);
      check_threads("softmax " + shape, [&] {
        std::vector<float> y(n), dx = start;
        kernels::softmax_forward(x.data(), y.data(), rows, cols, 0.7f, mask.data(), cols, 2);
        kernels::softmax_backward(y.data(), dy.data(), dx.data(), rows, cols, 0.7f, true, 2);
        y.insert(y.end(), dx.begin(), dx.end());
        return y;
      });
      check_threads("layernorm " + shape, [&] {
        std::vector<float> y(n), mean(rows), rstd(rows), dx = start, dgamma(gamma), dbeta(beta);
        kernels::layernorm_forward(x.data(), gamma.data(), beta.data(), y.data(), mean.data(), rstd.data(), rows, cols,
                                   1e-5f);
        kernels::layernorm_backward(x.data(), gamma.data(), mean.data(), rstd.data(), dy.data(), dx.data(),
                                    dgamma.data(), dbeta.data(), rows, cols, true);
        for (const auto* v : {&mean, &rstd, &dx, &dgamma, &dbeta}) y.insert(y.end(), v->begin(), v->end());
        return y;
      });
      check_threads("rmsnorm " + shape, [&] {
        std::vector<float> y(n), rstd(rows), dx(n), dgamma(gamma);
        kernels::rmsnorm_forward(x.data(), gamma.data(), y.data(), rstd.data(), rows, cols, 1e-5f);
        kernels::rmsnorm_backward(x.data(), gamma.data(), rstd.data(), dy.data(), dx.data(), dgamma.data(), rows, cols,
                                  false);
        for (const auto* v : {&rstd, &dx, &dgamma}) y.insert(y.end(), v->begin(), v->end());
        return y;
      });
      check_threads("activations " + shape, [&] {
        std::vector<float> out, y(n), gate(n), dx(n), dbias(beta);
        const auto keep = [&] { out.insert(out.end(), y.begin(), y.end()); };
        kernels::gelu_forward_gate(x.data(), y.data(), gate.data(), static_cast<int>(n));
        keep();
        kernels::gelu_backward_gate(x.data(), gate.data(), dy.data(), y.data(), rows, cols, dbias.data());
        keep();
        out.insert(out.end(), dbias.begin(), dbias.end());
        kernels::gelu_forward(x.data(), y.data(), static_cast<int>(n));
        keep();
        y = start;
        kernels::gelu_backward(x.data(), dy.data(), y.data(), static_cast<int>(n), true);
        keep();
        kernels::relu_forward(x.data(), y.data(), static_cast<int>(n));
        keep();
        kernels::relu_backward(x.data(), dy.data(), y.data(), static_cast<int>(n));
        keep();
        kernels::silu_forward(x.data(), y.data(), static_cast<int>(n));
        keep();
        kernels::silu_backward(x.data(), dy.data(), y.data(), static_cast<int>(n));
        keep();
        return out;
      });
      check_threads("elementwise and column sums " + shape, [&] {
        std::vector<float> y(n), sums(beta);
        kernels::add(x.data(), dy.data(), y.data(), static_cast<int>(n));
        kernels::multiply(y.data(), x.data(), y.data(), static_cast<int>(n));
        kernels::axpy(0.3f, dy.data(), y.data(), static_cast<int>(n));
        kernels::scale(y.data(), 1.7f, y.data(), static_cast<int>(n));
        kernels::add_column_sums(x.data(), sums.data(), rows, cols);
        y.insert(y.end(), sums.begin(), sums.end());
        return y;
      });
    }
  }
}
