// [core] Tensors and aligned storage, the RNG (bit-exact streams on every target), det_math,
// tp::Error messages and JSON output of numbers that are not finite.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/det_math.h"
#include "core/error.h"
#include "core/json.h"
#include "core/rng.h"
#include "core/tensor.h"

using namespace tp;

TEST_CASE("tensor storage is 64-byte aligned and views see the memory they view", "[core]") {
  Tensor t = Tensor::zeros({2, 3, 4});
  REQUIRE(reinterpret_cast<std::uintptr_t>(t.data()) % 64 == 0);
  REQUIRE(t.numel() == 24);
  REQUIRE(t.size(2) == 4);
  for (std::int64_t i = 0; i < t.numel(); ++i) REQUIRE(t.data()[i] == 0.0f);
  float slab[6] = {1, 2, 3, 4, 5, 6};
  Tensor v = Tensor::view(slab, {2, 3});
  slab[4] = -1.0f;
  REQUIRE(v.data()[4] == -1.0f);   // a view, not a copy
  REQUIRE(v.at({1, 1}) == -1.0f);  // row-major
  t.at({1, 2, 3}) = 5.0f;
  REQUIRE(t.data()[23] == 5.0f);
  REQUIRE(v.shape() == Shape({2, 3}));
  REQUIRE(v.shape().str() == "[2, 3]");
  REQUIRE_THROWS_WITH(Shape({1, 2, 3, 4, 5}), Catch::Contains("at most 4 dimensions"));
}

TEST_CASE("PCG32 matches the published test vector", "[core]") {
  // pcg32-demo with seed 42, sequence 54.
  Rng rng(42, 54);
  const std::uint32_t expected[] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
  for (std::uint32_t e : expected) REQUIRE(rng.next_u32() == e);
}

TEST_CASE("the RNG stream is identical on every target", "[core]") {
  // A fingerprint of uniforms, normals and bounded ints; the same constant must come out of the
  // native build and the wasm build.
  Rng rng(1234);
  std::uint64_t hash = 1469598103934665603ULL;
  auto mix = [&](float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    hash = (hash ^ bits) * 1099511628211ULL;
  };
  double sum = 0.0, sum_sq = 0.0;
  for (int i = 0; i < 10000; ++i) {
    mix(rng.uniform());
    const float z = rng.normal();
    mix(z);
    sum += z;
    sum_sq += static_cast<double>(z) * z;
    mix(static_cast<float>(rng.below(1000)));
  }
  // Normals look normal.
  REQUIRE(std::fabs(sum / 10000) < 0.03);
  REQUIRE(std::fabs(sum_sq / 10000 - 1.0) < 0.05);
  REQUIRE(hash == 0xe5e8425620d8b488ULL);
}

TEST_CASE("det_math agrees with libm to a few ulp", "[core]") {
  for (double x = -30.0; x <= 30.0; x += 0.37) {
    REQUIRE(det::exp(x) == Approx(std::exp(x)).epsilon(1e-14));
    REQUIRE(det::sin(x) == Approx(std::sin(x)).margin(1e-14));
    REQUIRE(det::cos(x) == Approx(std::cos(x)).margin(1e-14));
  }
  for (double x = 1e-6; x < 1e6; x *= 1.7) REQUIRE(det::log(x) == Approx(std::log(x)).epsilon(1e-14).margin(1e-15));
  REQUIRE(det::pow(10000.0, -0.5) == Approx(0.01).epsilon(1e-14));
  REQUIRE(det::exp(-1000.0) == 0.0);
}

TEST_CASE("tp::Error carries the message", "[core]") {
  REQUIRE_THROWS_AS([] { TP_CHECK(1 == 2, "one is not two"); }(), tp::Error);
  REQUIRE_THROWS_WITH([] { TP_CHECK(false, "d_model = ", 10, " is odd"); }(), "d_model = 10 is odd");
  REQUIRE_THROWS_WITH([] { TP_ASSERT(1 > 2); }(), Catch::Contains("internal error: 1 > 2"));
  // A broken invariant is a tp::Error to every boundary, and an InternalError to the fuzzers.
  REQUIRE_THROWS_AS([] { TP_ASSERT(1 > 2); }(), tp::InternalError);
  REQUIRE_THROWS_AS([] { TP_ASSERT(1 > 2); }(), tp::Error);
  REQUIRE_NOTHROW([] {
    try {
      TP_CHECK(false, "bad input");
    } catch (const tp::InternalError&) {
      throw;  // must not be reached: a refused input is not an internal error
    } catch (const tp::Error&) {
    }
  }());
}

TEST_CASE("JSON output writes numbers that are not finite as null", "[core]") {
  // A diverged run reports an infinite perplexity; its report must still print (tp train --json).
  json::Value v = json::Value::object();
  v.set("loss", 2.5);
  v.set("perplexity", std::exp(1000.0));
  v.set("low", -HUGE_VAL);
  v.set("nan", std::nan(""));
  json::Value list = json::Value::array();
  list.push(json::Value(std::numeric_limits<double>::infinity()));
  list.push(json::Value(1));
  v.set("list", list);
  REQUIRE(v.dump() == R"({"loss":2.5,"perplexity":null,"low":null,"nan":null,"list":[null,1]})");
  // ... and reads back as valid JSON with nulls in those places.
  const json::Value back = json::parse(v.dump());
  CHECK(back.at("perplexity").is_null());
  CHECK(back.at("loss").as_number() == 2.5);
}
