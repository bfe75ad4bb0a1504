// [import] Other projects' files as a hostile user writes them: every field missing, null, of
// the wrong type or out of range is refused with the file, the field and what is allowed; sizes
// are checked against config.json before anything is built (a vocabulary, merges or tensors too
// many are refused at the first one too many); weights and scores that are not finite are refused
// unless allow_non_finite, and what is accepted saves a checkpoint that loads again; text quoted
// from a file is cut and escaped. The fixtures are native_tests/data/import, edited per case.
// Memory is measured where it is paid: through the CLI (native_tests/cli_hostile_test.cmake) and
// through tp.importModel (wasm_tests/import_limits.test.mjs).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/json.h"
#include "core/json_reader.h"
#include "core/text_escape.h"
#include "import/import.h"
#include "import_util.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"

using namespace tp;
using Catch::Contains;
using test::erase;
using test::error_message;
using test::Folder;
using test::forward_prompt;
using test::import_error;
using test::member;
using test::read_folder;
using test::TokenizerBin;

namespace {

json::Value& model_of(json::Value& tokenizer_json) { return member(tokenizer_json, "model"); }

// The bytes of tensor `name` in safetensors bytes, for editing in place.
char* tensor_bytes(std::string& file, const std::string& name) {
  const SafetensorsView view(file);
  const SafetensorsEntry& e = view.at(name);
  return file.data() + 8 + view.header_size() + e.offset;
}

void put_u32(char* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

// The logits of the last position of `prompt`.
std::vector<float> last_logits(Transformer& model, const std::vector<int>& prompt) {
  const int V = model.config().vocab_size;
  const float* row = forward_prompt(model, prompt) + (prompt.size() - 1) * static_cast<std::size_t>(V);
  return std::vector<float>(row, row + V);
}

// Saved as our checkpoint and loaded again (with `options`): the same logits and tokens.
void check_round_trip(const LoadedCheckpoint& loaded, const LoadOptions& options) {
  LoadedCheckpoint again = load_checkpoint(save_checkpoint(*loaded.model, loaded.tokenizer.get(), ""), options);
  for (const char* text : {"the dog sleeps; it's 2024.", " a  b\tc\n", "\xC3\xA9t\xC3\xA9 \xF0\x9F\x98\x80"}) {
    INFO("text '" << text << "'");
    const Encoding e = loaded.tokenizer->encode(text);
    CHECK(again.tokenizer->encode(text).ids == e.ids);
    CHECK(again.tokenizer->decode(e.ids) == loaded.tokenizer->decode(e.ids));
    if (!e.ids.empty()) CHECK(last_logits(*again.model, e.ids) == last_logits(*loaded.model, e.ids));
  }
  CHECK(again.tokenizer->to_json().dump() == loaded.tokenizer->to_json().dump());
}

}  // namespace

TEST_CASE("tokenizer.json fields that are missing or null are refused naming the field", "[import]") {
  for (const char* kind : {"gpt2", "llama"}) {
    INFO(kind);
    for (const char* field : {"vocab", "merges"}) {
      Folder missing = read_folder(kind);
      missing.edit_json("tokenizer.json", [&](json::Value& t) { erase(model_of(t), field); });
      CHECK_THAT(import_error(missing), Contains(str_cat("tokenizer.json: field model.", field, " is missing")));
      Folder null = read_folder(kind);
      null.edit_json("tokenizer.json", [&](json::Value& t) { member(model_of(t), field) = json::Value(); });
      CHECK_THAT(import_error(null),
                 Contains(str_cat("tokenizer.json: field model.", field, " must be an")) && Contains("got null"));
    }
  }
  Folder sequence = read_folder("llama");
  sequence.edit_json("tokenizer.json",
                     [](json::Value& t) { member(t, "normalizer") = json::parse(R"({"type": "Sequence"})"); });
  CHECK_THAT(import_error(sequence),
             Contains("tokenizer.json: field normalizer.normalizers must be an array, got nothing"));
  Folder no_content = read_folder("gpt2");  // the EOS id's added token, without its content
  no_content.edit_json("tokenizer.json", [](json::Value& t) {
    member(t, "added_tokens") = json::parse(R"([{"id": 316, "special": true}])");
  });
  CHECK_THAT(import_error(no_content),
             Contains("tokenizer.json: field added_tokens[0].content must be a string, got nothing"));
  Folder no_model = read_folder("llama");
  no_model.edit_json("tokenizer.json", [](json::Value& t) { member(t, "model") = json::Value(); });
  CHECK_THAT(import_error(no_model), Contains("tokenizer.json: field model must be an object, got null"));
}

TEST_CASE("config.json token ids beyond an int are refused, not wrapped", "[import]") {
  for (const char* id : {"1099511628035", "4294967298", "-1", "2.5", "[4294967298]"}) {
    INFO(id);
    Folder f = read_folder("gpt2");
    f.edit_json("config.json", [&](json::Value& c) { member(c, "eos_token_id") = json::parse(id); });
    CHECK_THAT(import_error(f), Contains("config.json: field eos_token_id") && Contains("allowed: 0 .. 316"));
  }
  Folder bos = read_folder("llama");
  bos.edit_json("config.json", [](json::Value& c) { member(c, "bos_token_id") = json::parse("354"); });
  CHECK_THAT(import_error(bos), Contains("config.json: field bos_token_id = 354 is out of range; allowed: 0 .. 353"));
  Folder big = read_folder("gpt2");  // a size as large as a double can be exact
  big.edit_json("config.json", [](json::Value& c) { member(c, "n_layer") = json::parse("9007199254740993"); });
  CHECK_THAT(import_error(big),
             Contains("config.json: field n_layer = ") && Contains("is out of range; allowed: 1 .."));
}

TEST_CASE("a llama2.c header with vocab_size INT32_MIN is refused before it is negated", "[import]") {
  Folder f = read_folder("llama2c");
  put_u32(f.at("model.bin").data() + 20, 0x80000000u);  // the sixth int32
  CHECK_THAT(import_error(f), Contains("header field vocab_size = -2147483648 is out of range"));
}

TEST_CASE("imported weights that are not finite are refused unless allow_non_finite", "[import]") {
  LoadOptions allow;
  allow.allow_non_finite = true;
  SECTION("safetensors F32 (GPT-2)") {
    Folder f = read_folder("gpt2");
    put_u32(tensor_bytes(f.at("model.safetensors"), "wte.weight") + 4 * 7, 0x7FC00000u);  // NaN at index 7
    CHECK_THAT(import_error(f), Contains("model.safetensors: tensor 'wte.weight' holds 1 value that is not finite "
                                         "(at index 7: NaN)") &&
                                    Contains("allow_non_finite"));
    const LoadedCheckpoint loaded = import_model(f.files(), allow);
    REQUIRE(loaded.warnings.size() == 1);
    CHECK_THAT(loaded.warnings[0], Contains("wte.weight"));
    CHECK(std::isnan(loaded.model->params().value(loaded.model->params().index_of("tok_emb.weight"))[7]));
  }
  SECTION("safetensors F16 (Llama)") {
    Folder f = read_folder("llama");
    REQUIRE(SafetensorsView(f.at("model.safetensors")).at("model.norm.weight").dtype == "F16");
    char* p = tensor_bytes(f.at("model.safetensors"), "model.norm.weight");
    p[2] = 0x00;  // index 1: +inf (0x7C00)
    p[3] = 0x7C;
    CHECK_THAT(import_error(f),
               Contains("tensor 'model.norm.weight' holds 1 value that is not finite (at index 1: inf)"));
  }
  SECTION("llama2.c .bin") {
    Folder f = read_folder("llama2c");
    put_u32(f.at("model.bin").data() + 28 + 4 * 3, 0xFF800000u);  // token_embedding[3] = -inf
    CHECK_THAT(import_error(f), Contains("the llama2.c model file: tensor 'token_embedding' holds 1 value that is not "
                                         "finite (at index 3: -inf)"));
    CHECK(import_model(f.files(), allow).warnings.size() == 1);
  }
}

TEST_CASE("BF16 and F16 values that are not finite are found in the file's bytes", "[import]") {
  // One tensor per dtype, four values each: finite, inf, NaN, finite (little-endian bits).
  const std::string header =
      R"({"h":{"dtype":"F16","shape":[4],"data_offsets":[0,8]},"b":{"dtype":"BF16","shape":[4],"data_offsets":[8,16]}})";
  std::string file(8, '\0');
  file[0] = static_cast<char>(header.size());
  file += header;
  const unsigned char data[] = {0x00, 0x3C, 0x00, 0x7C, 0x01, 0x7E, 0xFF, 0x7B,   // F16: 1, inf, NaN, 65504
                                0x80, 0x3F, 0x80, 0xFF, 0xC1, 0x7F, 0x7F, 0x7F};  // BF16: 1, -inf, NaN, max
  file.append(reinterpret_cast<const char*>(data), sizeof data);
  const SafetensorsView view(file);
  for (const char* name : {"h", "b"}) {
    std::size_t at = 99;
    float first = 0.0f;
    CHECK(view.count_non_finite(view.at(name), at, first) == 2);
    CHECK(at == 1);
    CHECK(std::isinf(first));
  }
}

TEST_CASE("tokenizer.bin scores that are not finite are refused unless allow_non_finite, and round-trip", "[import]") {
  Folder f = read_folder("llama2c");
  std::string& bin = f.at("tokenizer.bin");
  // Token k's score sits after the header and the earlier tokens: walk the file to tokens 10, 11.
  std::size_t pos = 4;
  for (int token = 0; token < 12; ++token) {
    if (token == 10) put_u32(bin.data() + pos, 0x7FC00000u);  // NaN
    if (token == 11) put_u32(bin.data() + pos, 0x7F800000u);  // inf
    std::int32_t len = 0;
    std::memcpy(&len, bin.data() + pos + 4, 4);
    pos += 8 + static_cast<std::size_t>(len);
  }
  CHECK_THAT(import_error(f), Contains("tokenizer.bin: 2 token scores are not finite (the first: score of token 10 "
                                       "is NaN)") &&
                                  Contains("allow_non_finite"));
  LoadOptions allow;
  allow.allow_non_finite = true;
  const LoadedCheckpoint loaded = import_model(f.files(), allow);
  CHECK(loaded.warnings.size() == 1);
  check_round_trip(loaded, allow);
  // Our own loader refuses them too unless asked.
  const std::string saved = save_checkpoint(*loaded.model, loaded.tokenizer.get(), "");
  CHECK_THAT(error_message([&] { load_checkpoint(saved); }),
             Contains("checkpoint: the tokenizer has 2 scores that are not finite (the first, of piece 10, is 'NaN')"));
}

TEST_CASE("tokenizer.bin pieces that are not UTF-8 are refused, so every accepted one saves and loads", "[import]") {
  Folder f = read_folder("llama2c");
  std::string& bin = f.at("tokenizer.bin");
  const std::size_t at = bin.find("<0x41>");
  REQUIRE(at != std::string::npos);
  bin[at + 1] = '\xFF';
  CHECK_THAT(import_error(f), Contains("tokenizer.bin: token ") && Contains("'<\\xffx41>' is not valid UTF-8"));
  for (const char* name : {"gpt2", "llama", "llama2c"}) {
    INFO(name);
    check_round_trip(import_model(read_folder(name).files()), {});
  }
}

TEST_CASE("SentencePiece byte fallback for a space without a ▁ piece stays inside the text and decodes back",
          "[import][tokenizer]") {
  for (bool scores : {false, true}) {
    INFO((scores ? "merges from scores" : "a merges list"));
    SentencePieceVocab vocab;
    vocab.pieces = {"<unk>", "<s>", "</s>"};
    char name[8];
    for (int b = 0; b < 256; ++b) {
      std::snprintf(name, sizeof name, "<0x%02X>", b);
      vocab.pieces.push_back(name);
    }
    for (const char* p : {"a", "b", "c", "bc"}) vocab.pieces.push_back(p);
    if (scores) {
      vocab.scores.assign(vocab.pieces.size(), 0.0f);
    } else {
      vocab.merges = {{"b", "c"}};
    }
    const auto tok = make_sentencepiece_tokenizer(vocab);
    for (const std::string text : {"a b ", "a bc", " ", "bc  a", "\xC3\xA9 b"}) {
      INFO("text '" << text << "'");
      const Encoding e = tok->encode(text);
      int end = 0, covered = 0;
      for (const Span& s : e.byte_spans) {
        CHECK(s.begin >= end);  // in order, never overlapping
        CHECK(s.begin <= s.end);
        CHECK(s.end <= static_cast<int>(text.size()));
        covered += s.end - s.begin;
        end = std::max(end, s.end);
      }
      CHECK(covered == static_cast<int>(text.size()));
      CHECK(tok->decode(e.ids) == text);
    }
    CHECK(tok->encode("a bc").tokens.back() == "bc");
  }
}

TEST_CASE("GPT-2's end-of-text token is the token of its id, never a byte's", "[import]") {
  Folder by_content = read_folder("gpt2");  // an added token naming a byte's text as the EOS
  by_content.edit_json("tokenizer.json", [](json::Value& t) {
    member(t, "added_tokens") = json::parse(R"([{"id": 316, "content": "a", "special": true}])");
  });
  CHECK_THAT(import_error(by_content), Contains("tokenizer.json: field added_tokens[0].content = 'a' but model.vocab "
                                                "gives the id 316 to '<|endoftext|>'"));
  Folder byte_eos = read_folder("gpt2");
  byte_eos.edit_json("config.json", [](json::Value& c) { member(c, "eos_token_id") = json::parse("64"); });
  CHECK_THAT(import_error(byte_eos), Contains("the end-of-text id 64 is the token of byte"));
  Folder no_added = read_folder("gpt2");
  no_added.edit_json("tokenizer.json", [](json::Value& t) { erase(t, "added_tokens"); });
  const LoadedCheckpoint loaded = import_model(no_added.files());
  CHECK(loaded.tokenizer->specials().eos == 316);
  const Encoding e = loaded.tokenizer->encode("a<|endoftext|>a");
  for (int id : e.ids) CHECK(id != 316);  // never produced from text
  CHECK(loaded.tokenizer->decode(e.ids) == "a<|endoftext|>a");
}

TEST_CASE("vocabularies and merges are bounded by config.json, and merges never repeat", "[import]") {
  Folder extra = read_folder("gpt2");
  extra.edit_json("tokenizer.json", [](json::Value& t) { member(member(t, "model"), "vocab").set("zz", 317); });
  CHECK_THAT(import_error(extra), Contains("tokenizer.json: field model.vocab has more than 317 members; allowed: "
                                           "config.json's vocab_size (317)"));
  // Found by fuzz_hf_tokenizer_llama: the first id missing because another repeats (the check
  // read before the start of its list).
  Folder id_zero = read_folder("llama");
  id_zero.edit_json("tokenizer.json", [](json::Value& t) { member(member(t, "model"), "vocab").set("<unk>", 1); });
  CHECK_THAT(import_error(id_zero), Contains("tokenizer.json: field model.vocab gives the id 1 to both"));
  Folder repeated = read_folder("gpt2");
  repeated.edit_json("tokenizer.json", [](json::Value& t) { member(member(t, "model"), "merges").push("\xC4\xA0 t"); });
  CHECK_THAT(import_error(repeated), Contains("merge 61 '\xC4\xA0 t' repeats merge 1"));
  Folder llama = read_folder("llama");
  llama.edit_json("tokenizer.json",
                  [](json::Value& t) { member(member(t, "model"), "merges").push("\xE2\x96\x81 t"); });
  CHECK_THAT(import_error(llama), Contains("merge 61 '\xE2\x96\x81 t' repeats merge 1"));

  // GPT-2's own files: vocab.json + merges.txt, with more merges than tokens.
  Folder files = read_folder("gpt2");
  const json::Value t = json::parse(files.at("tokenizer.json"));
  files.remove("tokenizer.json");
  files.put("vocab.json", t.at("model").at("vocab").dump());
  std::string merges = "#version: 0.2\n";
  for (int i = 0; i < 400; ++i) merges += "\xC4\xA0 t\n";
  files.put("merges.txt", merges);
  CHECK_THAT(import_error(files), Contains("merges.txt has more than 317 merges (at line 319)"));
  merges = "#version: 0.2\n\xC4\xA0 t\n\xC4\xA0 t\n";
  files.put("merges.txt", merges);
  CHECK_THAT(import_error(files), Contains("merge 2 '\xC4\xA0 t' repeats merge 1"));
}

TEST_CASE("import messages name the field and quote file text cut and escaped", "[import]") {
  Folder flag = read_folder("gpt2");
  flag.edit_json("tokenizer.json", [](json::Value& t) { member(member(t, "pre_tokenizer"), "add_prefix_space") = 3; });
  CHECK_THAT(import_error(flag),
             Contains("tokenizer.json: field pre_tokenizer.add_prefix_space must be true or false, got the number 3"));
  Folder pair = read_folder("gpt2");
  pair.edit_json("tokenizer.json",
                 [](json::Value& t) { member(member(t, "model"), "merges").items()[0] = json::parse("[1, 2]"); });
  CHECK_THAT(import_error(pair),
             Contains("tokenizer.json: field model.merges[0][0] must be a string, got the number 1"));

  Folder nul = read_folder("gpt2");  // vocab.json + merges.txt with a NUL inside a merge
  const json::Value t = json::parse(nul.at("tokenizer.json"));
  nul.remove("tokenizer.json");
  nul.put("vocab.json", t.at("model").at("vocab").dump());
  nul.put("merges.txt", std::string("#version: 0.2\n\xC4\xA0 t\n") + std::string("h\0e x\n", 6));
  const std::string message = import_error(nul);
  CHECK_THAT(message, Contains("merge 2 'h\\x00e x' joins tokens that are not ordinary tokens"));
  CHECK(message.find('\0') == std::string::npos);

  Folder long_type = read_folder("gpt2");
  long_type.edit_json("config.json",
                      [](json::Value& c) { member(c, "model_type") = std::string(500000, 'x') + "\x1b]0;pwned\x07"; });
  const std::string long_message = import_error(long_type);
  CHECK_THAT(long_message, Contains("config.json: field model_type = 'xxxx") && Contains("bytes in all)"));
  CHECK(long_message.size() < 400);
  Folder escape = read_folder("gpt2");
  escape.edit_json("config.json", [](json::Value& c) { member(c, "model_type") = "\x1b]0;pwned\x07"; });
  CHECK_THAT(import_error(escape), Contains("model_type = '\\x1b]0;pwned\\x07' is not supported"));
  Folder huge = read_folder("gpt2");
  huge.at("config.json") += std::string(2 << 20, ' ');
  CHECK_THAT(import_error(huge), Contains("'config.json' is 2097521 bytes; the largest config.json an import reads is "
                                          "1048576 bytes"));
}

TEST_CASE("sharded safetensors checkpoints are refused as not supported", "[import]") {
  Folder f = read_folder("llama");
  f.remove("model.safetensors");
  f.put("model.safetensors.index.json", R"({"weight_map": {}})");
  CHECK_THAT(import_error(f), Contains("model.safetensors.index.json names a sharded checkpoint") &&
                                  Contains("which is not supported; supported: one model.safetensors"));
  CHECK(import_tokenizer(f.files())->vocab_size() == 354);  // the tokenizer alone still reads
}

TEST_CASE("a safetensors header with more tensors than config.json implies is refused at the first too many",
          "[import]") {
  Folder f = read_folder("gpt2");
  const SafetensorsView view(f.at("model.safetensors"));
  json::Value header = json::Value::object();
  for (const SafetensorsEntry& e : view.entries()) {
    json::Value entry = json::Value::object();
    entry.set("dtype", e.dtype);
    json::Value shape = json::Value::array();
    for (std::int64_t d : e.shape) shape.push(d);
    entry.set("shape", std::move(shape));
    entry.set("data_offsets", json::Value::array({json::Value(static_cast<std::int64_t>(e.offset)),
                                                  json::Value(static_cast<std::int64_t>(e.offset + e.nbytes))}));
    header.set(e.name, std::move(entry));
  }
  for (int i = 0; i < 1000; ++i) {
    header.set("empty." + std::to_string(i), json::parse(R"({"dtype":"F32","shape":[0],"data_offsets":[0,0]})"));
  }
  std::string head = header.dump();
  std::string file(8, '\0');
  for (int i = 0; i < 8; ++i) file[i] = static_cast<char>((head.size() >> (8 * i)) & 0xFF);
  file += head;
  file.append(f.at("model.safetensors").substr(8 + view.header_size()));
  f.at("model.safetensors") = file;
  CHECK_THAT(import_error(f),
             Contains("model.safetensors: the header lists more than") && Contains("config.json implies"));
}

TEST_CASE("tokenizer.bin with long pieces derives its merges in time proportional to its size", "[import]") {
  // 200 pieces of about 60,000 bytes: hashing every prefix and suffix of each would be ~10^12 byte
  // operations; narrowing sorted ranges is ~10^8.
  TokenizerBin bin(60000);
  for (const char* p : {"<unk>", "<s>", "</s>", " ", "a", "aa"}) bin.piece(p);  // ' ' is read as ▁
  for (int i = 0; i < 200; ++i) bin.piece(std::string(59800 + i, 'a'), static_cast<float>(i));
  const auto tok = import_tokenizer({{"tokenizer.bin", bin.bytes}});
  CHECK(tok->vocab_size() == 206);
  CHECK(tok->encode("aaaa").ids == std::vector<int>{3, 5, 5});
}

TEST_CASE("tokenizer.bin without a ' ' piece spells a space <0x20>, as run.c, and decodes it back", "[import]") {
  // run.c looks " " up among pieces written with spaces and falls back to the space's own byte;
  // spelling it as the bytes of ▁ (E2 96 81), as a tokenizer.json vocabulary is, would decode to
  // a visible ▁ here (byte pieces of a tokenizer.bin are raw bytes).
  TokenizerBin bin(8);
  for (const char* p : {"<unk>", "\n<s>\n", "\n</s>\n"}) bin.piece(p);
  for (int byte = 0; byte < 256; ++byte) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", byte);
    bin.piece(name);
  }
  for (const char* p : {"a", "b"}) bin.piece(p);
  const auto tok = import_tokenizer({{"tokenizer.bin", bin.bytes}});
  const Encoding e = tok->encode("a b");
  const int space_byte = 3 + 0x20;
  CHECK(e.ids == std::vector<int>{space_byte, 3 + 256, space_byte, 3 + 257});  // dummy prefix, a, space, b
  CHECK(tok->decode(e.ids) == "a b");
  CHECK(tok->decode({3 + 0xE2, 3 + 0x96, 3 + 0x81}) == "\xE2\x96\x81");  // ▁ by bytes stays ▁
}

TEST_CASE("json::Reader streams exactly the grammar json::parse accepts", "[import]") {
  for (const char* bad : {R"([1, "a": 2])", R"({"a": 1, 2})", R"({"a" 1})", R"([1,])", R"({"a":[}])", R"([[[)"}) {
    INFO(bad);
    CHECK_THROWS(json::parse(bad));
    CHECK_THROWS(json::Reader(bad).skip());
  }
  const std::string good = R"( {"a": [1, {"b": "x\u00e9"}, [], {}], "c": null, "d": [true, false, -1.5e3]} )";
  json::Reader r(good);
  CHECK(r.skip() == good.substr(1));
  r.finish();
  CHECK(json::parse(good).dump() == R"({"a":[1,{"b":"xé"},[],{}],"c":null,"d":[true,false,-1500]})");
  std::string deep;
  for (int i = 0; i < 65; ++i) deep += '[';
  CHECK_THROWS_WITH(json::Reader(deep).skip(), Contains("nesting deeper than 64 levels"));
  CHECK_THROWS_WITH(json::Reader("[1 2]", "tokenizer.json: field model", 100).skip(),
                    Contains("tokenizer.json: field model: invalid JSON: expected ',' or ']' at byte 103"));
}

TEST_CASE("text from files is escaped for messages and terminals", "[import]") {
  CHECK(escape_controls("a\x1b[2Jb\nc\\d\x7f") == "a\\x1b[2Jb\\nc\\\\d\\x7f");
  CHECK(escape_controls("\xE2\x80\xAE"
                        "abc \xC2\x9B \xFF") == "\\u{202e}abc \\u{009b} \\xff");
  CHECK(escape_controls("한국어 ▁x 😀") == "한국어 ▁x 😀");
  CHECK(quote(std::string(100, 'x'), 5) == "'xxxxx'... (100 bytes in all)");
  CHECK(quote(std::string("a\0b", 3)) == "'a\\x00b'");
}
