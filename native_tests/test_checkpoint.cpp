// [checkpoint] safetensors reading/writing and model checkpoints (docs/FORMAT.md).
//
// A checkpoint must give back the same model bit for bit (same logits on the same batch) for
// every architecture, and every malformed file, from a cut-off download to a config that does
// not fit the tensors, must be refused with a tp::Error that says what is wrong; after such a
// refusal the module must still load good files. Malformed files are made by editing a good
// one (its JSON header, or the tensor list before writing), so each case breaks one rule only.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>

#include "core/error.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "model_util.h"

using namespace tp;
using test::logits_of;

namespace {

// The message of the tp::Error `f` throws; any other outcome fails the test.
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  FAIL("expected a tp::Error, but nothing was thrown");
  return {};
}

std::string le64(std::uint64_t n) {
  std::string s;
  for (int i = 0; i < 8; ++i) s += static_cast<char>((n >> (8 * i)) & 0xFF);
  return s;
}

std::string raw_file(const std::string& header, const std::string& data = "") {
  return le64(header.size()) + header + data;
}

// A file split into its parsed header and data section, to edit one thing and put back.
struct Parts {
  json::Value header;
  std::string data;
};

Parts split(const std::string& file) {
  const SafetensorsView view(file);
  return {json::parse(std::string_view(file).substr(8, view.header_size())), file.substr(8 + view.header_size())};
}

std::string join(const Parts& parts) { return raw_file(parts.header.dump(), parts.data); }

std::string with_field(const std::string& file, const std::string& tensor, const std::string& field, json::Value v) {
  Parts p = split(file);
  json::Value entry = p.header.at(tensor);
  entry.set(field, std::move(v));
  p.header.set(tensor, std::move(entry));
  return join(p);
}

json::Value ints(std::initializer_list<double> values) {
  json::Value a = json::Value::array();
  for (double v : values) a.push(v);
  return a;
}

// Every parameter set to distinct random values, so biases and norms (zero and one after
// init) are really carried by the file rather than re-created by the loader.
void randomize(Transformer& model, std::uint64_t seed) {
  Rng rng(seed);
  ParameterSet& params = model.params();
  for (int i = 0; i < params.count(); ++i) {
    float* v = params.value(i);
    for (std::size_t k = 0; k < params.info(i).size; ++k) v[k] = rng.uniform(-0.5f, 0.5f);
  }
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// A checkpoint written from `model`'s tensors and metadata after `edit` changed them: the way
// to make files that are valid safetensors but wrong for their config.
using TensorEdit = std::function<void(std::vector<SafetensorsTensor>&, SafetensorsMetadata&)>;
std::string edited_checkpoint(const Transformer& model, const TensorEdit& edit) {
  const SafetensorsView view(save_checkpoint(model, nullptr, ""));
  SafetensorsMetadata metadata = view.metadata();
  std::vector<SafetensorsTensor> tensors;
  for (int i = 0; i < model.params().count(); ++i) {
    const ParamInfo& info = model.params().info(i);
    std::vector<std::int64_t> shape(info.shape.dims, info.shape.dims + info.shape.ndim);
    tensors.push_back({info.name, shape, model.params().value(i)});
  }
  edit(tensors, metadata);
  return write_safetensors(tensors, metadata);
}

void set_metadata(SafetensorsMetadata& metadata, const std::string& key, const std::string& value) {
  for (auto& [k, v] : metadata) {
    if (k == key) {
      v = value;
      return;
    }
  }
  metadata.emplace_back(key, value);
}

void erase_metadata(SafetensorsMetadata& metadata, const std::string& key) {
  for (std::size_t i = 0; i < metadata.size(); ++i) {
    if (metadata[i].first == key) metadata.erase(metadata.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

struct Malformed {
  std::string what;
  std::string bytes;
  std::string message;  // a fragment the error must contain
};

// The reference model of the malformed cases: decoder-only, learned positions, biases, untied.
const ModelConfig& base_config() {
  static const ModelConfig c = test::small_config(Arch::DecoderOnly);
  return c;
}

std::vector<Malformed> safetensors_cases(const std::string& good) {
  const std::size_t n = SafetensorsView(good).header_size();
  const std::string f32 = R"({"dtype":"F32","shape":[2],"data_offsets":)";
  return {
      {"empty file", "", "shorter than the 8-byte header length"},
      {"5 bytes", "\x01\x02\x03\x04\x05", "the file is 5 bytes"},
      {"huge header length", le64(1ULL << 40) + "{}", "above the limit of 100000000 bytes"},
      {"header length 2^64-1", le64(~0ULL) + "{}", "above the limit"},
      {"header length past end", good.substr(0, 8 + n / 2), "past the end of the file"},
      {"truncated data", good.substr(0, good.size() - 4), "past the end of the data section"},
      {"non-UTF-8 header", raw_file("{\"t\xff\":1}"), "header is not valid UTF-8"},
      {"invalid JSON", raw_file("{\"a\": }"), "invalid JSON"},
      {"duplicate key", raw_file(R"({"a":{},"a":{}})"), "duplicate key 'a'"},
      {"header not an object", raw_file("[1, 2]"), "header must be a JSON object, got an array"},
      {"entry not an object", raw_file(R"({"t": 5})"), "tensor 't' must be an object"},
      {"missing field", raw_file(R"({"t":{"dtype":"F32","data_offsets":[0,0]}})"), "missing the field 'shape'"},
      {"extra field", with_field(good, "tok_emb.weight", "scale", 1.0), "unknown field 'scale'"},
      {"dtype F64", with_field(good, "tok_emb.weight", "dtype", "F64"),
       "unsupported dtype 'F64'; supported: F32, F16, BF16"},
      {"dtype not a string", with_field(good, "tok_emb.weight", "dtype", 32), "dtype must be a string"},
      {"negative shape", with_field(good, "tok_emb.weight", "shape", ints({-13, 8})), "must be a non-negative integer"},
      {"non-integer shape", with_field(good, "tok_emb.weight", "shape", ints({1.5})), "got 1.5"},
      {"shape not an array", with_field(good, "tok_emb.weight", "shape", "13x8"), "shape must be an array"},
      {"shape overflows",
       raw_file(R"({"t":{"dtype":"F32","shape":[4503599627370496,4503599627370496],"data_offsets":[0,0]}})"),
       "more elements than"},
      {"one offset", with_field(good, "tok_emb.weight", "data_offsets", ints({0})), "array of two non-negative"},
      {"begin > end", raw_file(R"({"t":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})", std::string(8, '\0')),
       "begin must not exceed end"},
      {"size mismatch", with_field(good, "tok_emb.weight", "shape", ints({13, 7})), "needs 364 bytes"},
      {"overlap", raw_file(R"({"a":)" + f32 + R"([0,8]},"b":)" + f32 + "[4,12]}}", std::string(12, '\0')), "overlap"},
      {"gap", raw_file(R"({"a":)" + f32 + R"([0,8]},"b":)" + f32 + "[12,20]}}", std::string(20, '\0')),
       "gap of 4 unused bytes at offset 8"},
      {"trailing bytes", good + "abcd", "4 trailing bytes"},
      {"offsets past end", raw_file(R"({"a":)" + f32 + "[0,8]}}", std::string(4, '\0')), "past the end of the data"},
      {"metadata not an object", raw_file(R"({"__metadata__":["a"]})"), "'__metadata__' must be an object of strings"},
      {"metadata not strings", raw_file(R"({"__metadata__":{"format_version":1}})"),
       "values must be strings, but 'format_version' is a number"},
  };
}

std::vector<Malformed> checkpoint_cases(const Transformer& model, const std::string& good) {
  auto meta = [&](const std::function<void(SafetensorsMetadata&)>& f) {
    return edited_checkpoint(model, [&](std::vector<SafetensorsTensor>&, SafetensorsMetadata& m) { f(m); });
  };
  auto tensors = [&](const std::function<void(std::vector<SafetensorsTensor>&)>& f) {
    return edited_checkpoint(model, [&](std::vector<SafetensorsTensor>& t, SafetensorsMetadata&) { f(t); });
  };
  ModelConfig tied = base_config();
  tied.tie_embeddings = true;
  ModelConfig tied_swiglu = tied;
  tied_swiglu.ffn = FfnKind::SwiGlu;
  ModelConfig deeper = base_config();
  deeper.n_layers = 2;
  // 50 million parameters (within the memory limit) in a file of a few thousand: refused from
  // the counts alone, without building the 200 MB model first.
  ModelConfig huge = base_config();
  huge.d_model = 1024;
  huge.n_heads = 8;
  huge.n_kv_heads = 0;
  huge.d_ff = 4096;
  huge.n_layers = 4;
  const float zeros[4] = {0, 0, 0, 0};
  auto other_vocab = train_tokenizer({}, "abc");
  return {
      {"no metadata", meta([](SafetensorsMetadata& m) { m.clear(); }), "has no '__metadata__'"},
      {"no format", meta([](SafetensorsMetadata& m) { erase_metadata(m, "format"); }), "'format' is missing"},
      {"other format", meta([](SafetensorsMetadata& m) { set_metadata(m, "format", "pytorch"); }),
       "'format' is \"pytorch\"; expected \"transformer-playground\""},
      {"format_version 2", meta([](SafetensorsMetadata& m) { set_metadata(m, "format_version", "2"); }),
       "format_version \"2\" is not supported"},
      {"no config", meta([](SafetensorsMetadata& m) { erase_metadata(m, "config"); }), "'config' is missing"},
      {"config not JSON", meta([](SafetensorsMetadata& m) { set_metadata(m, "config", "{d_model: 8}"); }),
       "metadata 'config' is invalid JSON"},
      {"config unknown field", meta([](SafetensorsMetadata& m) { set_metadata(m, "config", R"({"depth":3})"); }),
       "unknown config field 'depth'"},
      {"config invalid value",
       meta([](SafetensorsMetadata& m) { set_metadata(m, "config", R"({"d_model":8,"n_heads":3})"); }),
       "not divisible by n_heads"},
      {"tensor missing", tensors([](std::vector<SafetensorsTensor>& t) {
         t.erase(std::find_if(t.begin(), t.end(),
                              [](const SafetensorsTensor& x) { return x.name == "dec.0.ffn.up.bias"; }));
       }),
       "1 missing: 'dec.0.ffn.up.bias'"},
      {"unknown tensor", tensors([&](std::vector<SafetensorsTensor>& t) {
         t.push_back({"extra.weight", {4}, zeros});
       }),
       "1 unknown: 'extra.weight'"},
      {"untied file, tied config",
       meta([&](SafetensorsMetadata& m) { set_metadata(m, "config", tied.to_json().dump()); }),
       "1 unknown: 'lm_head.weight'"},
      {"missing and unknown together",
       meta([&](SafetensorsMetadata& m) { set_metadata(m, "config", tied_swiglu.to_json().dump()); }),
       "(2 missing: 'dec.0.ffn.gate.weight', 'dec.0.ffn.gate.bias'; 1 unknown: 'lm_head.weight')"},
      {"a whole layer missing",
       meta([&](SafetensorsMetadata& m) { set_metadata(m, "config", deeper.to_json().dump()); }),
       "16 missing: 'dec.1.self_attn.q.weight', 'dec.1.self_attn.q.bias', "},
      {"a whole layer missing (list shortened)",
       meta([&](SafetensorsMetadata& m) { set_metadata(m, "config", deeper.to_json().dump()); }), " and 8 more)"},
      {"config far larger than the tensors",
       meta([&](SafetensorsMetadata& m) { set_metadata(m, "config", huge.to_json().dump()); }),
       "the config describes a model of 50"},
      {"shape mismatch", tensors([](std::vector<SafetensorsTensor>& t) {
         t[0].shape = {8, 13};
       }),
       "tensor 'tok_emb.weight' has shape [8, 13] but the config needs [13, 8]"},
      {"dtype I32", with_field(good, "tok_emb.weight", "dtype", "I32"),
       "has dtype I32; checkpoint tensors must be F32"},
      {"tokenizer vocab mismatch",
       meta([&](SafetensorsMetadata& m) { set_metadata(m, "tokenizer", other_vocab->to_json().dump()); }),
       "the tokenizer has vocab_size 9 but the config has vocab_size 13"},
      {"tokenizer invalid", meta([](SafetensorsMetadata& m) { set_metadata(m, "tokenizer", R"({"kind":"morse"})"); }),
       "unknown tokenizer kind 'morse'"},
  };
}

}  // namespace

TEST_CASE("save/load gives bit-identical logits for every architecture", "[checkpoint]") {
  std::vector<std::pair<std::string, ModelConfig>> configs;
  auto add = [&](std::string name, Arch arch, const std::function<void(ModelConfig&)>& edit) {
    ModelConfig c = test::small_config(arch);
    edit(c);
    configs.emplace_back(std::move(name), c);
  };
  add("decoder-only learned layer pre gelu", Arch::DecoderOnly, [](ModelConfig&) {});
  add("decoder-only gqa rope rms swiglu tied no-bias", Arch::DecoderOnly, [](ModelConfig& c) {
    c.n_heads = 4;
    c.n_kv_heads = 2;
    c.pos = PosKind::Rope;
    c.norm = NormKind::Rms;
    c.ffn = FfnKind::SwiGlu;
    c.tie_embeddings = true;
    c.bias = false;
    c.n_layers = 2;
  });
  add("decoder-only alibi mqa post window", Arch::DecoderOnly, [](ModelConfig& c) {
    c.n_heads = 2;
    c.n_kv_heads = 1;
    c.pos = PosKind::Alibi;
    c.norm_placement = NormPlacement::Post;
    c.window = 2;
    c.global_tokens = 1;
    c.layer_pattern = "LG";
    c.n_layers = 2;
    c.norm_eps = 1e-6f;
  });
  add("encoder-only cls sinusoidal post", Arch::EncoderOnly, [](ModelConfig& c) {
    c.head = HeadKind::Cls;
    c.n_classes = 3;
    c.pos = PosKind::Sinusoidal;
    c.norm_placement = NormPlacement::Post;
  });
  add("encoder-only mlm tied", Arch::EncoderOnly, [](ModelConfig& c) { c.tie_embeddings = true; });
  add("encoder-only token alibi relu", Arch::EncoderOnly, [](ModelConfig& c) {
    c.head = HeadKind::Token;
    c.n_classes = 4;
    c.pos = PosKind::Alibi;
    c.ffn = FfnKind::Relu;
  });
  add("encoder-only mean mqa rope window", Arch::EncoderOnly, [](ModelConfig& c) {
    c.head = HeadKind::Mean;
    c.n_kv_heads = 1;
    c.pos = PosKind::Rope;
    c.window = 3;
    c.global_tokens = 1;
  });
  add("encoder-decoder tied learned", Arch::EncoderDecoder, [](ModelConfig& c) { c.tie_embeddings = true; });
  add("encoder-decoder gqa rope rms swiglu", Arch::EncoderDecoder, [](ModelConfig& c) {
    c.n_heads = 4;
    c.n_kv_heads = 2;
    c.pos = PosKind::Rope;
    c.norm = NormKind::Rms;
    c.ffn = FfnKind::SwiGlu;
    c.dropout = 0.1f;
  });

  for (const auto& [name, config] : configs) {
    INFO(name);
    Transformer original(config, 1234);
    randomize(original, 99);
    Rng rng(5);
    const Batch batch = test::random_batch(config, 3, 6, rng);
    const std::vector<float> expected = logits_of(original, batch);

    const std::string bytes = save_checkpoint(original, nullptr, "");
    LoadedCheckpoint loaded = load_checkpoint(bytes);
    REQUIRE(loaded.model != nullptr);
    CHECK(loaded.tokenizer == nullptr);
    CHECK(loaded.task.empty());
    CHECK(loaded.model->config().to_json().dump() == config.to_json().dump());
    REQUIRE(loaded.model->params().count() == original.params().count());
    for (int i = 0; i < original.params().count(); ++i) {
      INFO(original.params().info(i).name);
      CHECK(std::memcmp(loaded.model->params().value(i), original.params().value(i),
                        original.params().info(i).size * sizeof(float)) == 0);
    }
    CHECK(same_bits(logits_of(*loaded.model, batch), expected));
    CHECK(save_checkpoint(*loaded.model, nullptr, "") == bytes);  // stable: save(load(x)) == x
  }
}

TEST_CASE("the tokenizer and task travel with the checkpoint", "[checkpoint]") {
  const std::string text = "the cat sat on the mat. the dog sat on the log!";
  for (TokenizerKind kind : {TokenizerKind::Char, TokenizerKind::Word, TokenizerKind::Bpe, TokenizerKind::Byte}) {
    INFO(tokenizer_kind_name(kind));
    TokenizerOptions options;
    options.kind = kind;
    if (kind == TokenizerKind::Bpe) options.vocab_size = 270;
    const auto tokenizer = train_tokenizer(options, text);
    ModelConfig config = base_config();
    config.vocab_size = tokenizer->vocab_size();
    Transformer model(config, 3);

    LoadedCheckpoint loaded = load_checkpoint(save_checkpoint(model, tokenizer.get(), "copy"));
    REQUIRE(loaded.tokenizer != nullptr);
    CHECK(loaded.task == "copy");
    CHECK(loaded.tokenizer->kind() == kind);
    CHECK(loaded.tokenizer->vocab_size() == tokenizer->vocab_size());
    CHECK(loaded.tokenizer->to_json().dump() == tokenizer->to_json().dump());
    CHECK(loaded.tokenizer->encode(text).ids == tokenizer->encode(text).ids);
  }
  const auto small = train_tokenizer({}, "abc");
  Transformer model(base_config(), 3);
  CHECK_THAT(error_of([&] { save_checkpoint(model, small.get(), ""); }),
             Catch::Contains("tokenizer has vocab_size 9 but the model has vocab_size 13"));
}

TEST_CASE("the safetensors writer follows the format", "[checkpoint]") {
  const float a[6] = {1.0f, -2.0f, 0.5f, 3.0f, 4.0f, 5.0f};
  const float s[1] = {7.0f};
  const std::string bytes = write_safetensors({{"a", {2, 3}, a}, {"empty", {0, 4}, nullptr}, {"s", {}, s}},
                                              {{"z", "last?"}, {"b", "ünïcode \"quoted\""}});
  const SafetensorsView view(bytes);
  CHECK(view.header_size() % 8 == 0);
  CHECK(bytes.size() == 8 + view.header_size() + 7 * 4);
  // f32 little-endian on disk whatever the host: 1.0f is 00 00 80 3f.
  CHECK(bytes.substr(8 + view.header_size(), 4) == std::string("\x00\x00\x80\x3f", 4));
  CHECK(bytes.substr(8, 16) == R"({"__metadata__":)");
  REQUIRE(view.metadata().size() == 2);
  CHECK(view.metadata()[0].first == "z");
  CHECK(*view.find_metadata("b") == "ünïcode \"quoted\"");
  REQUIRE(view.entries().size() == 3);
  CHECK(view.entries()[0].name == "a");
  CHECK(view.entries()[0].shape == std::vector<std::int64_t>{2, 3});
  CHECK(view.float_data("a") == std::vector<float>(a, a + 6));
  CHECK(view.float_data("empty").empty());
  CHECK(view.float_data("s") == std::vector<float>{7.0f});
  CHECK(view.find("nope") == nullptr);
  CHECK_THAT(error_of([&] { view.float_data("nope"); }), Catch::Contains("no tensor named 'nope'"));

  CHECK_THAT(error_of([&] {
               write_safetensors({{"a", {1}, a}, {"a", {1}, a}}, {});
             }),
             Catch::Contains("duplicate tensor name 'a'"));
  CHECK_THAT(error_of([&] {
               write_safetensors({{"__metadata__", {1}, a}}, {});
             }),
             Catch::Contains("cannot name a tensor"));
  CHECK_THAT(error_of([&] { write_safetensors({{"a", {-1}, a}}, {}); }), Catch::Contains("negative dimension"));
}

TEST_CASE("the reader accepts any header order and I32/I64 and reads the PyTorch fixtures", "[checkpoint]") {
  // Upstream writers order the header by name, not by position.
  const std::string header = R"({"second":{"dtype":"I64","shape":[1],"data_offsets":[4,12]},)"
                             R"("first":{"dtype":"I32","shape":[1],"data_offsets":[0,4]}})";
  const SafetensorsView view(raw_file(header, std::string(12, '\x01')));
  REQUIRE(view.entries().size() == 2);
  CHECK(view.entries()[0].name == "first");
  CHECK(view.raw(view.at("second")).size() == 8);
  CHECK_THAT(error_of([&] { view.float_data("first"); }),
             Catch::Contains("only F32, F16 and BF16 can be read as floats"));

  // The PyTorch fixtures (tools/safetensors_lite.py) carry FORMAT.md names under "param.": the
  // config in their metadata must register exactly those tensors with those shapes.
  for (const char* name :
       {"dec_rope_rms_gqa_swiglu_tied", "enc_cls_sinusoidal_rms_post", "encdec_learned_layer_pre_relu"}) {
    INFO(name);
    const std::string bytes = read_file(std::string(TP_TEST_DATA_DIR) + "/fixtures/" + name + ".safetensors");
    const SafetensorsView fixture(bytes);
    REQUIRE(fixture.find_metadata("config") != nullptr);
    Transformer model(ModelConfig::from_json(json::parse(*fixture.find_metadata("config"))), 0);
    int params = 0;
    for (const SafetensorsEntry& e : fixture.entries()) params += e.name.rfind("param.", 0) == 0;
    CHECK(params == model.params().count());
    for (const ParamInfo& info : model.params().infos()) {
      const SafetensorsEntry* e = fixture.find("param." + info.name);
      REQUIRE(e != nullptr);
      CHECK(e->shape == std::vector<std::int64_t>(info.shape.dims, info.shape.dims + info.shape.ndim));
    }
  }
}

TEST_CASE("malformed safetensors files are rejected with a clear message", "[checkpoint]") {
  Transformer model(base_config(), 1);
  const std::string good = save_checkpoint(model, nullptr, "");
  const std::vector<Malformed> cases = safetensors_cases(good);
  for (const Malformed& m : cases) {
    INFO(m.what);
    CHECK_THAT(error_of([&] { load_checkpoint(m.bytes); }), Catch::Contains(m.message));
  }
}

TEST_CASE("checkpoints that do not fit their config are rejected and good ones still load after", "[checkpoint]") {
  Transformer model(base_config(), 1);
  randomize(model, 8);
  const std::string good = save_checkpoint(model, nullptr, "");
  std::vector<Malformed> cases = checkpoint_cases(model, good);
  for (Malformed& m : safetensors_cases(good)) cases.push_back(std::move(m));
  // Twice over: a failed load must leave nothing behind that changes the next one.
  for (int round = 0; round < 2; ++round) {
    for (const Malformed& m : cases) {
      INFO(m.what);
      CHECK_THAT(error_of([&] { load_checkpoint(m.bytes); }), Catch::Contains(m.message));
    }
  }
  Rng rng(2);
  const Batch batch = test::random_batch(base_config(), 2, 5, rng);
  LoadedCheckpoint loaded = load_checkpoint(good);
  CHECK(same_bits(logits_of(*loaded.model, batch), logits_of(model, batch)));
}

TEST_CASE("read_file and write_file", "[checkpoint]") {
  namespace fs = std::filesystem;
  const std::string dir = (fs::temp_directory_path() / "tp_checkpoint_test").string();
  fs::create_directories(dir);
  const std::string path = dir + "/model.safetensors";
  Transformer model(base_config(), 4);
  const std::string bytes = save_checkpoint(model, nullptr, "copy");
  write_file(path, "old contents");
  write_file(path, bytes);  // replaces the old file
  CHECK(read_file(path) == bytes);
  CHECK_FALSE(fs::exists(path + ".tmp"));
  CHECK(load_checkpoint(read_file(path)).task == "copy");

  CHECK_THAT(error_of([&] { read_file(dir + "/missing.safetensors"); }),
             Catch::Contains("cannot open '" + dir + "/missing.safetensors' for reading: No such file"));
  CHECK_THAT(error_of([&] { write_file(dir + "/no/such/dir/x.safetensors", bytes); }),
             Catch::Contains("cannot write '" + dir + "/no/such/dir/x.safetensors'"));
  // A write that cannot complete (the target is a directory) leaves no temp file behind.
  fs::create_directories(dir + "/a_dir");
  CHECK_THAT(error_of([&] { write_file(dir + "/a_dir", bytes); }), Catch::Contains("renaming"));
  CHECK_FALSE(fs::exists(dir + "/a_dir.tmp"));
  fs::remove_all(dir);
}
