// [import] Models from other projects' files (native_tests/data/import, made by
// tools/make_import_fixtures.py from the public GPT-2, Llama and llama2.c definitions in
// PyTorch): the logits of a prompt match PyTorch's float64 ones within 1e-4 (norm-wise
// relative), greedy generation gives PyTorch's tokens for 48 steps with and without the KV
// cache, the tokenizers give the reference ids and decode back, an imported model survives a
// save/load as our checkpoint, and every unsupported config is refused naming its field.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/json.h"
#include "generate/generate_text.h"
#include "generate/generator.h"
#include "import/import.h"
#include "import_util.h"
#include "io/checkpoint.h"

using namespace tp;

namespace {

const char* const TRAIN_TEXT_SAMPLE = "the dog sleeps; it's 2024.\n  한국어 😀";

using test::Folder;
using test::forward_prompt;
using test::import_error;
using test::kImportDir;
using test::read_folder;
const std::filesystem::path& kDir = kImportDir;

std::vector<int> ints(const json::Value& v) {
  std::vector<int> out;
  for (const json::Value& x : v.as_array()) out.push_back(static_cast<int>(x.as_int()));
  return out;
}

// ‖ours − ref‖ / ‖ref‖ over every logit of the prompt.
double logits_error(Transformer& model, const std::vector<int>& prompt, const json::Value& rows) {
  const float* logits = forward_prompt(model, prompt);
  const int V = model.config().vocab_size;
  REQUIRE(model.logit_rows() == static_cast<int>(prompt.size()));
  double diff = 0.0, ref = 0.0;
  for (std::size_t t = 0; t < prompt.size(); ++t) {
    const auto& row = rows.as_array()[t].as_array();
    REQUIRE(static_cast<int>(row.size()) == V);
    for (int v = 0; v < V; ++v) {
      const double want = row[v].as_number(), got = logits[t * V + v];
      diff += (got - want) * (got - want);
      ref += want * want;
    }
  }
  return std::sqrt(diff / ref);
}

std::vector<int> greedy(Transformer& model, const std::vector<int>& prompt, int steps, bool cache) {
  GenerateOptions options;
  options.max_new_tokens = steps;
  options.kv_cache = cache;  // no specials: run every step, as the reference does
  return generate(model, prompt, options).ids;
}

}  // namespace

TEST_CASE("imported GPT-2, Llama and llama2.c fixtures match PyTorch", "[import]") {
  for (const char* name : {"gpt2", "llama", "llama2c"}) {
    INFO("fixture " << name);
    const Folder folder = read_folder(name);
    const json::Value expected = json::parse(read_file((kDir / name / "expected.json").string()));
    LoadedCheckpoint loaded = import_model(folder.files());
    REQUIRE(loaded.model != nullptr);
    REQUIRE(loaded.tokenizer != nullptr);
    const std::vector<int> prompt = ints(expected.at("prompt_ids"));
    const double err = logits_error(*loaded.model, prompt, expected.at("logits"));
    WARN(name << ": logits relative error " << err);
    CHECK(err <= 1e-4);

    const std::vector<int> want = ints(expected.at("greedy_ids"));
    REQUIRE(want.size() >= 40);
    const std::vector<int> cached = greedy(*loaded.model, prompt, static_cast<int>(want.size()), true);
    const std::vector<int> uncached = greedy(*loaded.model, prompt, static_cast<int>(want.size()), false);
    CHECK(cached == uncached);
    CHECK(cached == want);

    const Tokenizer& tok = *loaded.tokenizer;
    for (const json::Value& t : expected.at("texts").as_array()) {
      const std::string text = t.at("text").as_string();
      INFO("text '" << text << "'");
      const Encoding e = tok.encode(text);
      CHECK(e.ids == ints(t.at("ids")));
      CHECK(tok.decode(e.ids) == text);
      REQUIRE(e.byte_spans.size() == e.ids.size());
    }

    // GPT-2's original files beside tokenizer.json (as the Hub keeps GPT-2): the same vocabulary
    // and merges tokenize every text the same without tokenizer.json.
    if (folder.has("vocab.json")) {
      Folder original = folder;
      for (auto& n : original.names)
        if (n == "tokenizer.json") n = "other.json";
      LoadedCheckpoint from_original = import_model(original.files());
      for (const json::Value& t : expected.at("texts").as_array()) {
        INFO("vocab.json + merges.txt, text '" << t.at("text").as_string() << "'");
        CHECK(from_original.tokenizer->encode(t.at("text").as_string()).ids == ints(t.at("ids")));
      }
    }

    // Saved as our checkpoint and loaded again: the same model and tokenizer.
    LoadedCheckpoint again = load_checkpoint(save_checkpoint(*loaded.model, loaded.tokenizer.get(), ""));
    CHECK(again.model->config().to_json().dump() == loaded.model->config().to_json().dump());
    CHECK(logits_error(*again.model, prompt, expected.at("logits")) == Approx(err).margin(1e-12));
    CHECK(again.tokenizer->encode(TRAIN_TEXT_SAMPLE).ids == tok.encode(TRAIN_TEXT_SAMPLE).ids);
    CHECK(again.tokenizer->specials().eos == tok.specials().eos);
  }
}

namespace {

// config.json with `key` set to the JSON `value` (or removed when value is empty).
Folder with_config(const std::string& name, const std::string& key, const std::string& value) {
  Folder f = read_folder(name);
  json::Value config = json::parse(f.at("config.json"));
  json::Value edited = json::Value::object();
  for (const auto& [k, v] : config.as_object()) {
    if (k != key) edited.set(k, v);
  }
  if (!value.empty()) edited.set(key, json::parse(value));
  f.at("config.json") = edited.dump();
  return f;
}

}  // namespace

TEST_CASE("imports refuse what the model cannot represent, naming the field", "[import]") {
  using Catch::Contains;
  CHECK_THAT(import_error(with_config("gpt2", "model_type", "\"bert\"")),
             Contains("model_type = 'bert' is not supported; supported: gpt2") && Contains("llama"));
  CHECK_THAT(import_error(with_config("gpt2", "activation_function", "\"gelu\"")),
             Contains("activation_function = 'gelu' is not supported; supported: gelu_new"));
  CHECK_THAT(import_error(with_config("gpt2", "scale_attn_by_inverse_layer_idx", "true")),
             Contains("scale_attn_by_inverse_layer_idx = true is not supported"));
  CHECK_THAT(import_error(with_config("llama", "rope_scaling", R"({"type":"linear","factor":2.0})")),
             Contains("rope_scaling") && Contains("supported: null"));
  CHECK_THAT(import_error(with_config("llama", "sliding_window", "4096")), Contains("sliding_window = 4096"));
  CHECK_THAT(import_error(with_config("llama", "attention_bias", "true")), Contains("attention_bias = true"));
  CHECK_THAT(import_error(with_config("llama", "hidden_act", "\"gelu\"")), Contains("hidden_act = 'gelu'"));
  CHECK_THAT(import_error(with_config("llama", "head_dim", "8")), Contains("head_dim = 8 is not supported"));
  CHECK_THAT(import_error(with_config("gpt2", "tie_word_embeddings", "false")), Contains("no tensor 'lm_head.weight'"));
  CHECK_THAT(import_error(with_config("llama", "num_hidden_layers", "3")),
             Contains("no tensor 'model.layers.2.self_attn.q_proj.weight'"));
  // The weights are checked against the config first, so a wrong vocab_size is found there.
  CHECK_THAT(import_error(with_config("gpt2", "vocab_size", "500")),
             Contains("tensor 'wte.weight' has shape [317, 16] but config.json implies [500, 16]"));

  Folder truncated = read_folder("llama2c");
  truncated.at("model.bin").resize(truncated.at("model.bin").size() - 4);
  CHECK_THAT(import_error(truncated), Contains("the llama2.c model file has") && Contains("implies"));
  Folder no_tokenizer = read_folder("gpt2");
  for (auto& n : no_tokenizer.names)
    if (n == "tokenizer.json" || n == "vocab.json" || n == "merges.txt") n = "other." + n;
  CHECK_THAT(import_error(no_tokenizer), Contains("needs tokenizer.json, or vocab.json and merges.txt"));
  CHECK_THAT(import_error(Folder{}), Contains("cannot tell which model these files are"));
}

TEST_CASE("an imported model says why it cannot be trained when it is too large", "[import]") {
  ModelConfig gpt2_small;  // GPT-2 small's shape: loads (498 MB) but does not train (1.9 GB)
  gpt2_small.vocab_size = 50257;
  gpt2_small.d_model = 768;
  gpt2_small.n_heads = 12;
  gpt2_small.n_layers = 12;
  gpt2_small.d_ff = 3072;
  gpt2_small.max_len = 1024;
  gpt2_small.tie_embeddings = true;
  REQUIRE_NOTHROW(gpt2_small.validate());
  CHECK(gpt2_small.parameter_count() == 124439808);
  std::string message;
  try {
    gpt2_small.check_trainable();
  } catch (const Error& e) {
    message = e.what();
  }
  CHECK_THAT(message, Catch::Contains("124439808 parameters; training needs 1898 MB") &&
                          Catch::Contains("it can still generate"));
}

namespace {

std::vector<int> prompt_of(const Folder& folder, const std::string& text) {
  return import_model(folder.files()).tokenizer->encode_with_specials(text).ids;
}

// The llama fixture with tokenizer.json's post_processor set to `pp` (JSON) and
// tokenizer_config.json to `config` (removed when empty).
Folder llama_with(const std::string& pp, const std::string& config) {
  Folder f = read_folder("llama");
  json::Value tokenizer = json::parse(f.at("tokenizer.json"));
  tokenizer.set("post_processor", json::parse(pp));
  f.at("tokenizer.json") = tokenizer.dump();
  for (std::size_t i = 0; i < f.names.size(); ++i) {
    if (f.names[i] != "tokenizer_config.json") continue;
    if (config.empty()) {
      f.names.erase(f.names.begin() + static_cast<std::ptrdiff_t>(i));
      f.contents.erase(f.contents.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      f.contents[i] = config;
    }
    return f;
  }
  if (!config.empty()) {
    f.names.push_back("tokenizer_config.json");
    f.contents.push_back(config);
  }
  return f;
}

}  // namespace

TEST_CASE("imported tokenizers encode a prompt with the specials their files say", "[import][tokenizer]") {
  // The references start from the prompt as the model's own tokenizer encodes it: <s> first for
  // Llama (post_processor and add_bos_token) and llama2.c (as run.c), nothing for GPT-2.
  for (const char* name : {"gpt2", "llama", "llama2c"}) {
    INFO("fixture " << name);
    const Folder folder = read_folder(name);
    const json::Value expected = json::parse(read_file((kDir / name / "expected.json").string()));
    LoadedCheckpoint loaded = import_model(folder.files());
    const Tokenizer& tok = *loaded.tokenizer;
    const Encoding e = tok.encode_with_specials("the quick brown fox");
    CHECK(e.ids == ints(expected.at("prompt_ids")));
    REQUIRE(e.tokens.size() == e.ids.size());
    REQUIRE(e.byte_spans.size() == e.ids.size());
    REQUIRE(e.utf16_spans.size() == e.ids.size());
    const bool bos = std::string(name) != "gpt2";
    CHECK(tok.encode("the quick brown fox").ids.size() + (bos ? 1 : 0) == e.ids.size());
    if (bos) {
      CHECK(e.tokens[0] == tok.token_text(1));
      CHECK(e.byte_spans[0].begin == 0);
      CHECK(e.byte_spans[0].end == 0);
    }
    // From the prompt text to PyTorch's continuation, the way `tp generate` and the API run it.
    GenerateOptions options;
    options.max_new_tokens = static_cast<int>(expected.at("greedy_ids").as_array().size());
    options.specials = tok.specials();
    CHECK(generate(*loaded.model, e.ids, options).ids == ints(expected.at("greedy_ids")));
    // generate_text(), the one path of the CLI, the bindings and the probes, encodes the text so;
    // add_special_tokens off leaves the text's own tokens; the steps' texts make the text.
    const TextGeneration g = generate_text(*loaded.model, tok, "the quick brown fox", PromptRole::Continue, options);
    CHECK(g.prompt_ids == e.ids);
    CHECK(g.result.ids == ints(expected.at("greedy_ids")));
    REQUIRE(g.step_texts.size() == g.result.ids.size());
    std::string joined;
    for (const std::string& step : g.step_texts) joined += step;
    CHECK(joined == g.text);
    GenerateOptions bare = options;
    bare.add_special_tokens = false;
    CHECK(generate_text(*loaded.model, tok, "the quick brown fox", PromptRole::Continue, bare).prompt_ids ==
          tok.encode("the quick brown fox").ids);
    // Saved as our checkpoint and loaded again: the same template.
    LoadedCheckpoint again = load_checkpoint(save_checkpoint(*loaded.model, loaded.tokenizer.get(), ""));
    CHECK(again.tokenizer->encode_with_specials("the quick brown fox").ids == e.ids);
  }

  const std::string template_bos_eos =
      R"({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}},)"
      R"({"SpecialToken":{"id":"</s>","type_id":0}}],"special_tokens":{"<s>":{"id":"<s>","ids":[1],"tokens":["<s>"]},)"
      R"("</s>":{"id":"</s>","ids":[2],"tokens":["</s>"]}}})";
  const std::vector<int> text = import_model(read_folder("llama").files()).tokenizer->encode("hello").ids;
  const auto with = [&](std::vector<int> before, std::vector<int> after) {
    before.insert(before.end(), text.begin(), text.end());
    before.insert(before.end(), after.begin(), after.end());
    return before;
  };
  // The post-processor alone, then tokenizer_config.json deciding where it sets a flag.
  CHECK(prompt_of(llama_with(template_bos_eos, ""), "hello") == with({1}, {2}));
  CHECK(prompt_of(llama_with(template_bos_eos, R"({"add_bos_token":false})"), "hello") == with({}, {2}));
  CHECK(prompt_of(llama_with("null", R"({"add_eos_token":true})"), "hello") == with({}, {2}));
  CHECK(prompt_of(llama_with("null", ""), "hello") == text);
  CHECK(prompt_of(llama_with(R"({"type":"Sequence","processors":[{"type":"ByteLevel"},)" + template_bos_eos + "]}", ""),
                  "hello") == with({1}, {2}));
  // The switch off: encode() alone.
  CHECK(import_model(read_folder("llama").files()).tokenizer->encode("hello").ids == text);

  using Catch::Contains;
  CHECK_THAT(import_error(llama_with(R"({"type":"RobertaProcessing"})", "")),
             Contains("tokenizer.json: field post_processor.type = 'RobertaProcessing' is not supported; "
                      "supported: TemplateProcessing"));
  CHECK_THAT(
      import_error(llama_with(R"({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<x>"}},)"
                              R"({"Sequence":{"id":"A"}}],"special_tokens":{}})",
                              "")),
      Contains("field post_processor.single[0].SpecialToken.id = '<x>' is not in post_processor.special_tokens"));
  CHECK_THAT(import_error(llama_with(R"({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>"}},)"
                                     R"({"Sequence":{"id":"A"}}],"special_tokens":{"<s>":{"ids":[99999]}}})",
                                     "")),
             Contains("ids[0] = 99999 is out of range; allowed: 0 .. 353"));
  CHECK_THAT(import_error(llama_with("null", R"({"add_bos_token":"yes"})")),
             Contains("tokenizer_config.json: field add_bos_token must be true or false"));
}

TEST_CASE("a literal U+2581 in the text: llama2.c's bytes as run.c gives them and Hugging Face's space",
          "[import][tokenizer]") {
  const std::string mark = "\xE2\x96\x81";
  LoadedCheckpoint bin = import_model(read_folder("llama2c").files());
  const Tokenizer& tok = *bin.tokenizer;
  // run.c: the dummy prefix " ", then the character's bytes (<0xNN> is id 3 + NN): its pieces
  // hold spaces, so no piece is "▁", and byte pieces never merge.
  const int space = tok.encode(" ").ids.at(0);
  CHECK(tok.encode(mark).ids == std::vector<int>{space, 3 + 0xE2, 3 + 0x96, 3 + 0x81});
  const std::vector<int> fox = tok.encode("the" + mark + "fox").ids;
  const std::vector<int> bytes = {3 + 0xE2, 3 + 0x96, 3 + 0x81};
  CHECK(std::search(fox.begin(), fox.end(), bytes.begin(), bytes.end()) != fox.end());
  CHECK(tok.decode(fox) == "the" + mark + "fox");
  CHECK(tok.encode("the fox").ids != fox);
  // Kept through our checkpoint.
  LoadedCheckpoint again = load_checkpoint(save_checkpoint(*bin.model, bin.tokenizer.get(), ""));
  CHECK(again.tokenizer->encode("the" + mark + "fox").ids == fox);
  // tokenizer.json (Hugging Face's normaliser): the mark is the space piece.
  LoadedCheckpoint hf = import_model(read_folder("llama").files());
  CHECK(hf.tokenizer->encode("the" + mark + "fox").ids == hf.tokenizer->encode("the fox").ids);
}
