// libFuzzer harness: the strict JSON parser (core/json.h) on arbitrary bytes.
//
// Every JSON the product reads from outside goes through json::parse first: safetensors headers
// and checkpoint metadata from a dropped file, and the option/config strings the bindings pass
// from JavaScript. A refused document is fine. A document it accepts must write back out
// (dump) and read back in to the same value, so that a checkpoint saved from it loads again.
#include <string>

#include "core/json.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tp::fuzz::run([&] {
    const tp::json::Value value = tp::json::parse(tp::fuzz::as_text(data, size));
    const std::string written = value.dump();
    std::string again;
    try {
      again = tp::json::parse(written).dump();
    } catch (const tp::Error& e) {
      tp::fuzz::finding("dump() wrote JSON that parse() refuses", e.what());
    }
    FUZZ_EXPECT(again == written);
  });
  return 0;
}
