// libFuzzer harness: a model configuration as JSON, read the way the bindings' tp.model(config)
// and a checkpoint's metadata read it: json::parse, ModelConfig::from_json, validate().
//
// A refused configuration is fine. One that validates must survive to_json/from_json unchanged
// (checkpoints store it that way), and a small one is built into a Transformer whose parameter
// count must be the one parameter_count() predicted (the memory limit and the checkpoint
// reader rely on it). Larger models are not built, to keep each run fast.
#include <string>

#include "core/json.h"
#include "fuzz_common.h"
#include "model/config.h"
#include "model/transformer.h"

namespace {
constexpr std::int64_t kMaxBuiltParameters = 50000;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tp::fuzz::run([&] {
    const tp::ModelConfig config = tp::ModelConfig::from_json(tp::json::parse(tp::fuzz::as_text(data, size)));
    config.validate();
    const std::string written = config.to_json().dump();
    tp::ModelConfig again;
    try {
      again = tp::ModelConfig::from_json(tp::json::parse(written));
      again.validate();
    } catch (const tp::Error& e) {
      tp::fuzz::finding("a valid config does not read back from its own JSON", e.what());
    }
    FUZZ_EXPECT(again.to_json().dump() == written);
    const std::int64_t count = config.parameter_count();
    FUZZ_EXPECT(count > 0);
    if (count <= kMaxBuiltParameters) {
      const tp::Transformer model(config, 1);
      FUZZ_EXPECT(static_cast<std::int64_t>(model.params().numel()) == count);
    }
  });
  return 0;
}
