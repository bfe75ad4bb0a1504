// The data files of src/tasks/data, compiled into the library (see cmake/embed_files.cmake), so
// the built-in tasks work in a browser that downloads nothing but the wasm module.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tp::embedded {

struct File {
  const char* name;           // file name, e.g. "sentiment.tsv"
  const unsigned char* data;  // the bytes, followed by one 0 byte
  std::size_t size;           // without the trailing 0
};

const std::vector<File>& files();

// The contents of the named file; throws tp::Error listing the available names if missing.
std::string file_text(const std::string& name);

}  // namespace tp::embedded
