// [trace] Every name a forward pass records is on the one list of trace names
// (model/trace_names.h, which the page reads through web/lib/generated/schema.js), and every
// pattern on the list is recorded by some architecture — so the list can be neither stale nor
// incomplete.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "model/trace_names.h"
#include "model/transformer.h"
#include "model_util.h"

using namespace tp;

TEST_CASE("every recorded trace name is on the list, and every pattern is recorded", "[trace]") {
  std::set<std::string> used;
  struct Variant {
    Arch arch;
    HeadKind head;
    NormPlacement placement;
  };
  const Variant variants[] = {
      {Arch::DecoderOnly, HeadKind::Lm, NormPlacement::Pre},
      {Arch::DecoderOnly, HeadKind::Lm, NormPlacement::Post},
      {Arch::EncoderDecoder, HeadKind::Lm, NormPlacement::Pre},
      {Arch::EncoderDecoder, HeadKind::Lm, NormPlacement::Post},
      {Arch::EncoderOnly, HeadKind::Mlm, NormPlacement::Pre},
      {Arch::EncoderOnly, HeadKind::Cls, NormPlacement::Post},
      {Arch::EncoderOnly, HeadKind::Mean, NormPlacement::Pre},
      {Arch::EncoderOnly, HeadKind::Token, NormPlacement::Pre},
  };
  for (const Variant& v : variants) {
    ModelConfig c = test::small_config(v.arch);
    c.head = v.head;
    c.norm_placement = v.placement;
    c.n_layers = 2;
    Transformer model(c, 1);
    Rng rng(3);
    Trace trace;
    model.forward(test::random_batch(c, 2, 6, rng), false, &trace);
    for (const std::string& name : trace.names()) {
      INFO("arch " << to_string(v.arch) << ", head " << to_string(v.head) << ": " << name);
      const TraceName* entry = find_trace_name(name);
      REQUIRE(entry != nullptr);
      used.insert(entry->pattern);
    }
  }
  for (const TraceName& t : kTraceNames) {
    INFO("pattern " << t.pattern);
    CHECK(used.count(t.pattern) == 1);
  }
  // The matcher itself: placeholders take only what they stand for.
  REQUIRE(find_trace_name("dec.10.cross_attn.probs") != nullptr);
  REQUIRE(find_trace_name("mid.0.self_attn.probs") == nullptr);
  REQUIRE(find_trace_name("enc.01.norm1") == nullptr);
  REQUIRE(find_trace_name("enc.0.self_attn.probs.extra") == nullptr);
}
