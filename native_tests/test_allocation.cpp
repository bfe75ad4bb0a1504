// [invariant] No allocation in a training step after the first: forward, backward, clipping and
// the AdamW update of a step reuse the activation arena, the packing buffers and the slabs.
// Counted by replacing the global operator new in this test binary.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

#include "model_util.h"
#include "train/optimizer.h"

namespace {
std::atomic<long> allocations{0};
}

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, std::align_val_t align) {
  ++allocations;
  const std::size_t a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

using namespace tp;

TEST_CASE("a training step allocates nothing after the first", "[invariant]") {
  for (Arch arch : {Arch::DecoderOnly, Arch::EncoderOnly, Arch::EncoderDecoder}) {
    ModelConfig c = test::small_config(arch);
    c.pos = PosKind::Rope;
    c.n_layers = 2;
    c.dropout = 0.1f;
    c.window = arch == Arch::EncoderOnly ? 3 : 0;
    Transformer model(c, 1);
    Rng rng(2);
    const Batch batch = test::random_batch(c, 4, 8, rng);
    AdamW optimizer;
    auto step = [&] {
      model.params().zero_grad();
      model.forward(batch, true);
      model.backward();
      clip_grad_norm(model.params(), 1.0f);
      optimizer.step(model.params(), 1e-3f);
    };
    step();
    step();
    const long before = allocations.load();
    for (int i = 0; i < 3; ++i) step();
    const long during = allocations.load() - before;  // read before INFO, which allocates itself
    INFO("arch " << to_string(arch));
    REQUIRE(during == 0);
    // The counter does see allocations: building another model makes plenty.
    const long outside = allocations.load();
    Transformer other(c, 2);
    REQUIRE(allocations.load() > outside);
  }
}
