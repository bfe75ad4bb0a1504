// [import] How weights reach the parameter slab, for our checkpoints, Hugging Face safetensors
// and llama2.c .bin alike: a model above the parameter limit (model/memory_limit.h) is refused
// from its header as too big even when the file is cut short a few KB in (a file with its
// weights cut would otherwise be refused as truncated, after the reader had gone through it), a
// tensor one value short is refused, and what loads holds every value of the file. The slab is
// left unset before a load (core/params.h): the sanitizer build fills it with NaN first, so there
// these cases prove that every value is written, not only that the written ones are right.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "import/import.h"
#include "import_util.h"
#include "io/checkpoint.h"
#include "model_util.h"

using namespace tp;
using Catch::Contains;
using test::error_message;
using test::import_error;
using test::read_folder;

namespace {

// Every dimension at its maximum: hundreds of GB of parameters, above any limit of either build.
constexpr int kVocab = 1000000, kWidth = 4096, kLayers = 64, kHeads = 32, kFf = 65536, kLen = 4096;

std::string u64_le(std::uint64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  return out;
}

// The start of a safetensors file: a header listing one F32 tensor of `shape` (with `metadata`),
// then `keep` - header bytes of data, as if the file were cut there.
std::string cut_safetensors(const std::string& name, std::int64_t rows, std::int64_t cols, const json::Value& metadata,
                            std::size_t keep) {
  json::Value header = json::Value::object();
  if (metadata.is_object()) header.set("__metadata__", metadata);
  json::Value entry = json::Value::object();
  entry.set("dtype", "F32");
  entry.set("shape", json::Value::array({json::Value(rows), json::Value(cols)}));
  entry.set("data_offsets", json::Value::array({json::Value(std::int64_t{0}), json::Value(4 * rows * cols)}));
  header.set(name, std::move(entry));
  const std::string head = header.dump();
  std::string out = u64_le(head.size()) + head;
  if (out.size() < keep) out.resize(keep, '\0');
  return out;
}

std::string int32s_le(const std::vector<std::int32_t>& values) {
  std::string out;
  for (std::int32_t v : values) {
    const auto u = static_cast<std::uint32_t>(v);
    for (int i = 0; i < 4; ++i) out += static_cast<char>((u >> (8 * i)) & 0xFF);
  }
  return out;
}

// The too-big refusal, naming what described the model, its size and the limit.
void check_too_big(const std::string& message, const std::string& where) {
  CHECK_THAT(message, Contains(where));
  CHECK_THAT(message, Contains("parameters, which need"));
  CHECK_THAT(message, Contains(str_cat("the limit is ", max_parameter_bytes() / (1 << 20), " MB")));
  CHECK_THAT(message, !Contains("truncated") && !Contains("ends early") && !Contains("past the end"));
}

// A scratch file for load_checkpoint_file, removed with the object.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& name, std::string_view bytes)
      : path((std::filesystem::temp_directory_path() / ("tp_import_loading_" + name)).string()) {
    write_file(path, bytes);
  }
  ~TempFile() { std::filesystem::remove(path); }
};

bool same_values(const ParameterSet& a, const ParameterSet& b) {
  if (a.count() != b.count()) return false;
  for (int i = 0; i < a.count(); ++i) {
    if (std::memcmp(a.value(i), b.value(i), a.info(i).size * sizeof(float)) != 0) return false;
  }
  return true;
}

bool all_finite(const ParameterSet& params) {
  for (int i = 0; i < params.count(); ++i) {
    for (std::size_t k = 0; k < params.info(i).size; ++k) {
      if (!std::isfinite(params.value(i)[k])) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("a header claiming a model above the limit is refused as too big, before its cut weights", "[import]") {
  SECTION("config.json of Hugging Face, model.safetensors cut at 4 KB") {
    test::Folder f = read_folder("gpt2");
    f.edit_json("config.json", [](json::Value& c) {
      c.set("vocab_size", kVocab);
      c.set("n_embd", kWidth);
      c.set("n_layer", kLayers);
      c.set("n_head", kHeads);
      c.set("n_inner", kFf);
      c.set("n_positions", kLen);
    });
    f.put("model.safetensors", cut_safetensors("wte.weight", kVocab, kWidth, json::Value(), 4096));
    check_too_big(import_error(f), "config.json describes a model this build cannot hold");
    check_too_big(error_message([&] { import_config(f.files()); }), "config.json");
  }
  SECTION("a llama2.c header in a 4 KB file") {
    test::Folder f = read_folder("llama2c");
    std::string bin = int32s_le({kWidth, kFf, kLayers, kHeads, kHeads, kVocab, kLen});
    bin.resize(4096, '\0');
    f.put("model.bin", bin);
    check_too_big(import_error(f), "the llama2.c model header describes a model this build cannot hold");
  }
  SECTION("our checkpoint's config, from bytes and from a file, cut at 4 KB") {
    json::Value config = json::Value::object();
    config.set("arch", "decoder-only");
    config.set("vocab_size", kVocab);
    config.set("d_model", kWidth);
    config.set("n_heads", kHeads);
    config.set("n_layers", kLayers);
    config.set("d_ff", kFf);
    config.set("max_len", kLen);
    json::Value metadata = json::Value::object();
    metadata.set("format", kCheckpointFormat);
    metadata.set("format_version", kCheckpointFormatVersion);
    metadata.set("config", config.dump());
    const std::string bytes = cut_safetensors("tok_emb.weight", kVocab, kWidth, metadata, 4096);
    check_too_big(error_message([&] { load_checkpoint(bytes); }), "checkpoint: metadata 'config'");
    const TempFile file("too_big.safetensors", bytes);
    check_too_big(error_message([&] { load_checkpoint_file(file.path); }), "checkpoint: metadata 'config'");
  }
}

TEST_CASE("a file one value short of its header is refused, in every format", "[import]") {
  SECTION("our checkpoint, from bytes and streamed from a file") {
    Transformer model(test::small_config(Arch::DecoderOnly), 3);
    std::string bytes = save_checkpoint(model, nullptr, "");
    bytes.resize(bytes.size() - 4);
    CHECK_THAT(error_message([&] { load_checkpoint(bytes); }), Contains("past the end of the data section"));
    const TempFile file("short.safetensors", bytes);
    CHECK_THAT(error_message([&] { load_checkpoint_file(file.path); }), Contains("past the end of the data section"));
  }
  SECTION("Hugging Face model.safetensors") {
    test::Folder f = read_folder("llama");
    f.at("model.safetensors").resize(f.at("model.safetensors").size() - 2);
    CHECK_THAT(import_error(f), Contains("model.safetensors: tensor"));
    CHECK_THAT(import_error(f), Contains("past the end of the data section"));
  }
  SECTION("llama2.c model.bin") {
    test::Folder f = read_folder("llama2c");
    const std::size_t full = f.at("model.bin").size();
    f.at("model.bin").resize(full - 4);
    CHECK_THAT(import_error(f), Contains(str_cat("the llama2.c model file has ", full - 4, " bytes, but its header")));
    CHECK_THAT(import_error(f), Contains(str_cat("implies ", full)));
  }
}

TEST_CASE("a checkpoint streamed from its file holds exactly the values saved", "[import][checkpoint]") {
  for (const Arch arch : {Arch::DecoderOnly, Arch::EncoderDecoder}) {
    Transformer model(test::small_config(arch), 11);
    const std::string bytes = save_checkpoint(model, nullptr, "copy");
    const TempFile file("exact.safetensors", bytes);
    const LoadedCheckpoint streamed = load_checkpoint_file(file.path);
    const LoadedCheckpoint from_bytes = load_checkpoint(bytes);
    CHECK(streamed.task == "copy");
    CHECK(same_values(streamed.model->params(), model.params()));
    CHECK(same_values(from_bytes.model->params(), model.params()));
    CHECK(save_checkpoint(*streamed.model, nullptr, "copy") == bytes);
  }
}

TEST_CASE("every parameter of an imported model is written from its file", "[import]") {
  // In the sanitizer build an unwritten value is NaN (core/params.h); elsewhere this still
  // checks that the import left nothing that is not a number.
  for (const char* name : {"gpt2", "llama", "llama2c"}) {
    INFO(name);
    const LoadedCheckpoint loaded = import_model(read_folder(name).files());
    CHECK(all_finite(loaded.model->params()));
  }
}
