// libFuzzer harness: a Hugging Face config.json through import_config, what `tp inspect --model
// DIR` and tp.describeModelFiles read first (and import_model before anything else).
//
// A refused config is fine. An accepted one describes a model this build can hold: it validates,
// its parameters fit the limit, and the layout the importers check weights against can be listed
// without allocating them.
#include "fuzz_common.h"
#include "import/import.h"
#include "model/transformer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tp::fuzz::run([&] {
    const tp::ModelConfig c = tp::import_config({{"config.json", tp::fuzz::as_text(data, size)}});
    c.validate();
    FUZZ_EXPECT(c.vocab_size > 0 && c.d_model > 0 && c.n_layers > 0 && c.max_len > 0);
    FUZZ_EXPECT(4 * c.parameter_count() <= tp::max_parameter_bytes());
    std::int64_t listed = 0;
    for (const tp::ParamInfo& info : tp::Transformer::parameter_layout(c))
      listed += static_cast<std::int64_t>(info.size);
    FUZZ_EXPECT(listed == c.parameter_count());
  });
  return 0;
}
