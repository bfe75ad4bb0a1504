// [kernels] The decode path's matrix-vector kernel against the double-precision reference, for
// weights in F32, F16 and BF16 (widened inside the kernel): every tail of the 16-column step,
// padded weight rows, one to three input rows, bias on and off, NaN-poisoned outputs; the fused
// form equals separate products; the 16-bit widening is exact for every F16 and BF16 value; the
// same bits at 1, 2 and 3 threads; and a fingerprint of the outputs that the native and the wasm
// build must both produce. Also the sampler's exp kernel.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/dtype.h"
#include "kernels/kernels.h"
#include "kernels/reference.h"
#include "test_util.h"
#include "thread_util.h"

using namespace tp;

namespace {

const int kMatvecSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 100, 127, 129};
constexpr DType kDTypes[] = {DType::F32, DType::F16, DType::BF16};

int pick_matvec_size(Rng& rng) { return kMatvecSizes[rng.below(sizeof(kMatvecSizes) / sizeof(kMatvecSizes[0]))]; }

// Weights [N, ld] in `dtype`, random values rounded to it (so the reference reads what the
// kernel reads); `store` holds the bytes the view points at.
struct Weights {
  std::vector<float> f32;
  std::vector<std::uint16_t> half;
  WeightView view;
};

Weights make_weights(Rng& rng, DType dtype, int N, int ld, float scale = 1.0f) {
  Weights w;
  const std::vector<float> v = test::random_vector(rng, static_cast<std::size_t>(N) * ld, -scale, scale);
  if (dtype == DType::F32) {
    w.f32 = v;
    w.view = {w.f32.data(), dtype, ld};
  } else {
    w.half.resize(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      w.half[i] = dtype == DType::F16 ? float_to_f16(v[i]) : float_to_bf16(v[i]);
    w.view = {w.half.data(), dtype, ld};
  }
  return w;
}

std::uint64_t fingerprint(const std::vector<float>& v) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the bits
  for (float x : v) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, 4);
    for (int b = 0; b < 4; ++b) h = (h ^ ((bits >> (8 * b)) & 0xFF)) * 1099511628211ULL;
  }
  return h;
}

}  // namespace

TEST_CASE("matvec matches the reference in every dtype, tail and row count", "[kernels]") {
  Rng rng(31);
  for (int i = 0; i < 400; ++i) {
    const DType dtype = kDTypes[i % 3];
    const int N = pick_matvec_size(rng), K = pick_matvec_size(rng), rows = 1 + static_cast<int>(rng.below(3));
    const int ld = K + static_cast<int>(rng.below(3)) * 5, ldx = K + static_cast<int>(rng.below(2)) * 3;
    const int ldy = N + static_cast<int>(rng.below(2)) * 2;
    const bool with_bias = i % 4 != 0;
    const Weights w = make_weights(rng, dtype, N, ld);
    const auto x = test::random_vector(rng, static_cast<std::size_t>(rows) * ldx);
    const auto bias = test::random_vector(rng, N);
    auto fast = test::poisoned(static_cast<std::size_t>(rows) * ldy), ref = fast;
    kernels::matvec(rows, N, K, x.data(), ldx, w.view, with_bias ? bias.data() : nullptr, fast.data(), ldy);
    kernels::ref::matvec(rows, N, K, x.data(), ldx, w.view, with_bias ? bias.data() : nullptr, ref.data(), ldy);
    INFO(dtype_name(dtype) << " rows=" << rows << " N=" << N << " K=" << K << " ld=" << ld);
    for (int r = 0; r < rows; ++r) {
      for (int j = 0; j < N; ++j) {
        const float a = fast[r * ldy + j], b = ref[r * ldy + j];
        REQUIRE(std::fabs(a - b) <= 2e-6 * K);  // inputs in [-1, 1]: each product ≤ 1
      }
      for (int j = N; j < ldy; ++j) REQUIRE(std::isnan(fast[r * ldy + j]));  // padding untouched
    }
  }
}

TEST_CASE("matvec widens every F16 and BF16 value exactly", "[kernels]") {
  // One weight per row against x = 1: y is the widened weight (plus +0, which only turns -0 into
  // +0), for all 65,536 bit patterns of each format, NaNs and infinities included.
  std::vector<std::uint16_t> all(65536);
  for (int i = 0; i < 65536; ++i) all[i] = static_cast<std::uint16_t>(i);
  const float one = 1.0f;
  for (DType dtype : {DType::F16, DType::BF16}) {
    std::vector<float> y(65536);
    kernels::matvec(1, 65536, 1, &one, 1, {all.data(), dtype, 1}, nullptr, y.data(), 65536);
    for (int i = 0; i < 65536; ++i) {
      const float want = dtype == DType::F16 ? f16_to_float(all[i]) : bf16_to_float(all[i]);
      INFO(dtype_name(dtype) << " 0x" << std::hex << i);
      if (std::isnan(want)) {
        REQUIRE(std::isnan(y[i]));
      } else {
        REQUIRE(y[i] == want + 0.0f);
      }
    }
  }
  // The scalar conversions round trip, and round to nearest even.
  for (int i = 0; i < 65536; ++i) {
    const std::uint16_t h = static_cast<std::uint16_t>(i);
    if (!std::isnan(f16_to_float(h))) REQUIRE(float_to_f16(f16_to_float(h)) == h);
    if (!std::isnan(bf16_to_float(h))) REQUIRE(float_to_bf16(bf16_to_float(h)) == h);
  }
  REQUIRE(float_to_bf16(1.00390625f) == 0x3F80);  // exactly halfway: to the even mantissa
  REQUIRE(float_to_bf16(1.01171875f) == 0x3F82);
  REQUIRE(float_to_f16(65520.0f) == 0x7C00);         // past the largest half: infinity
  REQUIRE(float_to_f16(2.98023224e-08f) == 0x0000);  // half the smallest subnormal: to even (0)
  REQUIRE(float_to_f16(4.47034836e-08f) == 0x0001);
}

TEST_CASE("fused matvec equals separate products", "[kernels]") {
  Rng rng(32);
  const int K = 67, rows = 2;
  const int Ns[3] = {33, 8, 21};
  std::vector<Weights> w;
  std::vector<std::vector<float>> bias, fused, separate;
  for (int p = 0; p < 3; ++p) {
    w.push_back(make_weights(rng, kDTypes[p], Ns[p], K));
    bias.push_back(test::random_vector(rng, Ns[p]));
    fused.push_back(test::poisoned(static_cast<std::size_t>(rows) * Ns[p]));
    separate.push_back(fused.back());
  }
  const auto x = test::random_vector(rng, static_cast<std::size_t>(rows) * K);
  kernels::MatvecOut outs[3];
  for (int p = 0; p < 3; ++p) {
    outs[p] = {w[p].view, Ns[p], p == 1 ? nullptr : bias[p].data(), fused[p].data(), Ns[p]};
    kernels::matvec(rows, Ns[p], K, x.data(), K, w[p].view, p == 1 ? nullptr : bias[p].data(), separate[p].data(),
                    Ns[p]);
  }
  kernels::matvec_fused(rows, K, x.data(), K, outs, 3);
  for (int p = 0; p < 3; ++p) REQUIRE(test::same_bits(fused[p], separate[p]));
}

TEST_CASE("matvec gives the same bits at every thread count", "[kernels][threads]") {
  Rng rng(33);
  for (DType dtype : kDTypes) {
    const int N = 1003, K = 259;
    const Weights w = make_weights(rng, dtype, N, K);
    const auto x = test::random_vector(rng, 3 * static_cast<std::size_t>(K));
    const auto bias = test::random_vector(rng, N);
    const auto run = [&] {
      std::vector<float> y(3 * static_cast<std::size_t>(N));
      kernels::matvec(3, N, K, x.data(), K, w.view, bias.data(), y.data(), N);
      return y;
    };
    const std::vector<float> one = run();
    for (int n : test::other_thread_counts()) {
      for (bool always : {true, false}) {
        test::ThreadsFor threads(n, always);
        INFO(dtype_name(dtype) << " at " << n << " threads");
        REQUIRE(test::same_bits(run(), one));
      }
    }
  }
}

TEST_CASE("matvec gives the same bits natively and in wasm", "[kernels][determinism]") {
  // Fixed inputs through every dtype and tail; the constant was recorded from the native build
  // and the wasm build's tp_tests must produce it too (the kernel uses only IEEE mul and add in a
  // fixed order, and integer bit operations to widen).
  Rng rng(34);
  std::vector<float> all;
  for (DType dtype : kDTypes) {
    for (int K : {1, 7, 16, 29, 768}) {
      const int N = 37;
      const Weights w = make_weights(rng, dtype, N, K, 0.05f);
      const auto x = test::random_vector(rng, static_cast<std::size_t>(K), -3.0f, 3.0f);
      const auto bias = test::random_vector(rng, N);
      std::vector<float> y(N);
      kernels::matvec(1, N, K, x.data(), K, w.view, bias.data(), y.data(), N);
      all.insert(all.end(), y.begin(), y.end());
    }
  }
  INFO("fingerprint of this build: 0x" << std::hex << fingerprint(all) << "ULL");
  REQUIRE(fingerprint(all) == 0xca56eae008254c8cULL);
}

TEST_CASE("exp_shifted matches the reference and gives exact zeros for -inf", "[kernels]") {
  Rng rng(35);
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < 200; ++i) {
    const int n = pick_matvec_size(rng);
    auto x = test::random_vector(rng, n, -30.0f, 5.0f);
    if (i % 5 == 0) x[rng.below(n)] = neg_inf;
    const float shift = rng.uniform(-2.0f, 5.0f), scale = rng.uniform(0.1f, 3.0f);
    auto fast = test::poisoned(n), ref = test::poisoned(n);
    kernels::exp_shifted(x.data(), fast.data(), n, shift, scale);
    kernels::ref::exp_shifted(x.data(), ref.data(), n, shift, scale);
    for (int k = 0; k < n; ++k) {
      INFO("n=" << n << " k=" << k << " x=" << x[k]);
      if (x[k] == neg_inf) {
        REQUIRE(fast[k] == 0.0f);
      } else {
        // float rounds the argument scale·(x − shift) itself: a relative error of about ulp·|arg|
        const double arg = std::fabs(static_cast<double>(scale) * (x[k] - shift));
        REQUIRE(std::fabs(fast[k] - ref[k]) <= ref[k] * (3e-7 * arg + 4e-7) + 1e-37);
      }
    }
  }
}
