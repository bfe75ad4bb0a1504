// [generate] The text of a generation is well-formed Unicode however the byte tokens fall: on
// the imported fixtures (tools/make_import_fixtures.py: GPT-2's byte-level BPE, SentencePiece
// with byte fallback), whose random weights generate stray and split bytes, the answer is the
// continuation's bytes as TextDecoder reads them, each step's text is what a streaming decoder
// shows after it (a character split over tokens comes whole with the last), and the steps'
// texts join to the answer.
#include <catch2/catch.hpp>

#include <filesystem>

#include "core/utf8.h"
#include "generate/generator.h"
#include "import/import.h"
#include "io/checkpoint.h"

using namespace tp;

TEST_CASE("generated text is well-formed and streams by steps as TextDecoder would", "[generate][import]") {
  const std::filesystem::path dir = std::filesystem::path(TP_TEST_DATA_DIR) / "import";
  int runs_with_stray_bytes = 0, held_back = 0;
  for (const char* name : {"gpt2", "llama", "llama2c"}) {
    std::vector<std::string> names, contents;
    for (const auto& entry : std::filesystem::directory_iterator(dir / name)) {
      if (entry.path().filename() == "expected.json") continue;
      names.push_back(entry.path().filename().string());
      contents.push_back(read_file(entry.path().string()));
    }
    std::vector<ModelFile> files;
    for (std::size_t i = 0; i < names.size(); ++i) files.push_back({names[i], contents[i]});
    LoadedCheckpoint loaded = import_model(files);
    const Tokenizer& tok = *loaded.tokenizer;
    for (const char* prompt : {"naïve café — 한국어 😀", "the quick brown fox", "\xF0\x9F\x98\x80"}) {
      for (std::uint64_t seed = 0; seed < 4; ++seed) {
        GenerateOptions options;
        options.specials = tok.specials();
        options.max_new_tokens = 40;
        options.sampling.temperature = seed == 0 ? 0.0f : 1.5f;  // greedy, then sampled
        options.seed = seed;
        const std::vector<int> ids = tok.encode(prompt).ids;
        const GenerateResult r = generate(*loaded.model, ids, options);
        std::vector<int> answer = r.ids;
        if (!answer.empty() && answer.back() == options.specials.eos) answer.pop_back();
        std::vector<int> all = ids;
        all.insert(all.end(), answer.begin(), answer.end());
        const std::string text = tok.decode_continuation(ids, answer);
        INFO(name << " '" << prompt << "' seed " << seed);
        REQUIRE(utf8::is_valid(text));
        REQUIRE(utf8::is_valid(tok.decode(answer)));
        REQUIRE(utf8::is_valid(tok.decode(all)));
        // The prompt's characters are whole, so the continuation is what the whole adds to it.
        const std::string whole = tok.decode(all), before = tok.decode(ids);
        REQUIRE(whole.compare(0, before.size(), before) == 0);
        REQUIRE(whole.substr(before.size()) == text);
        if (!utf8::is_valid(tok.decode_bytes(answer))) ++runs_with_stray_bytes;
        const std::vector<std::string> steps = tok.decode_steps(ids, r.ids);
        REQUIRE(steps.size() == r.ids.size());
        std::string joined;
        for (std::size_t i = 0; i < steps.size(); ++i) {
          REQUIRE(utf8::is_valid(steps[i]));
          joined += steps[i];
          const std::string bytes = tok.decode_bytes({r.ids[i]});
          if (steps[i].empty() && !bytes.empty()) ++held_back;
        }
        REQUIRE(joined == text);
      }
    }
  }
  // The fixtures' byte tokens did split and strand characters, so the checks above were tested.
  REQUIRE(runs_with_stray_bytes > 0);
  REQUIRE(held_back > 0);
}
