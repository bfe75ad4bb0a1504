// What the [import] suites share: the fixture folders of native_tests/data/import (made by
// tools/make_import_fixtures.py) read into memory, and small edits to their JSON files.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/json.h"
#include "import/import.h"
#include "io/checkpoint.h"
#include "model/batch.h"
#include "model/transformer.h"

namespace tp::test {

inline const std::filesystem::path kImportDir = std::filesystem::path(TP_TEST_DATA_DIR) / "import";

struct Folder {
  std::vector<std::string> names, contents;
  std::vector<ModelFile> files() const {
    std::vector<ModelFile> out;
    for (std::size_t i = 0; i < names.size(); ++i) out.push_back({names[i], contents[i]});
    return out;
  }
  bool has(const std::string& name) const {
    for (const std::string& n : names) {
      if (n == name) return true;
    }
    return false;
  }
  std::string& at(const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) return contents[i];
    }
    FAIL("no file " << name);
    throw;
  }
  void put(const std::string& name, std::string bytes) {
    if (has(name)) {
      at(name) = std::move(bytes);
    } else {
      names.push_back(name);
      contents.push_back(std::move(bytes));
    }
  }
  void remove(const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) {
        names.erase(names.begin() + static_cast<std::ptrdiff_t>(i));
        contents.erase(contents.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
    }
  }
  // Parses the JSON file `name`, lets `edit` change it, and writes it back.
  void edit_json(const std::string& name, const std::function<void(json::Value&)>& edit) {
    json::Value v = json::parse(at(name));
    edit(v);
    at(name) = v.dump();
  }
};

inline Folder read_folder(const std::string& name) {
  Folder f;
  for (const auto& entry : std::filesystem::directory_iterator(kImportDir / name)) {
    const std::string file = entry.path().filename().string();
    if (file == "expected.json") continue;
    f.names.push_back(file);
    f.contents.push_back(read_file(entry.path().string()));
  }
  return f;
}

// The member `key` of an object, for editing (added as null when absent).
inline json::Value& member(json::Value& object, const std::string& key) {
  for (auto& [k, v] : object.members()) {
    if (k == key) return v;
  }
  return object.set(key, json::Value());
}

// Removes the member `key` of an object, if there is one.
inline void erase(json::Value& object, const std::string& key) {
  auto& m = object.members();
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (it->first == key) {
      m.erase(it);
      return;
    }
  }
}

// The message of the tp::Error that `fn` throws, or "(no error)".
template <typename Fn>
std::string error_message(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// The message of the tp::Error that importing `folder` throws, or "(no error)".
inline std::string import_error(const Folder& folder, const LoadOptions& options = {}) {
  return error_message([&] { import_model(folder.files(), options); });
}

// The logits of `prompt` run through a decoder-only model: [prompt.size() × vocab_size].
inline const float* forward_prompt(Transformer& model, const std::vector<int>& prompt) {
  Batch batch;
  batch.size = 1;
  batch.tgt_len = static_cast<int>(prompt.size());
  batch.tgt_in = prompt;
  model.forward(batch, false);
  return model.logits();
}

// A llama2.c tokenizer.bin written piece by piece: the longest piece's length, then each
// piece's score, length and bytes (little-endian, as run.c reads them).
struct TokenizerBin {
  std::string bytes;
  explicit TokenizerBin(std::int32_t max_token_length) { i32(max_token_length); }
  void piece(const std::string& p, float score = 0.0f) {
    char b[4];
    std::memcpy(b, &score, 4);
    bytes.append(b, 4);
    i32(static_cast<std::int32_t>(p.size()));
    bytes += p;
  }

 private:
  void i32(std::int32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    bytes.append(b, 4);
  }
};

}  // namespace tp::test
