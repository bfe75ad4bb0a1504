// Whole-file helpers for the CLI and the tests, and the open file a checkpoint is streamed from.
//
// Errors name the path and the operating system's reason. Every reader refuses what is not a
// regular file (a folder, a device such as /dev/zero, a pipe) and a file above its max_bytes
// before reading any of it. write_file writes `path`.tmp and renames it over `path`, so a failed
// write leaves an existing file untouched. Not for the web module: it is linked without a file
// system (-sFILESYSTEM=0), where Emscripten aborts on any file call; the page passes bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace tp {

// A file's bytes in storage of exactly its size, read into once: never grown while reading and
// never zero-filled before it is overwritten (model weights are most of a load's bytes).
class FileBytes {
 public:
  FileBytes() = default;
  std::string_view view() const { return {data_.get(), size_}; }
  std::size_t size() const { return size_; }

 private:
  friend FileBytes read_file_bytes(const std::string& path, std::uint64_t max_bytes);
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
};

// An open regular file of at most max_bytes, read front to back.
class InputFile {
 public:
  InputFile(const std::string& path, std::uint64_t max_bytes);
  std::uint64_t size() const { return size_; }
  std::uint64_t position() const { return position_; }
  const std::string& path() const { return path_; }
  // Exactly n bytes into out, or a tp::Error naming the path and where the file ended.
  void read(void* out, std::size_t n);

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::string path_;
  std::unique_ptr<std::FILE, Closer> file_;
  std::uint64_t size_ = 0, position_ = 0;
};

FileBytes read_file_bytes(const std::string& path, std::uint64_t max_bytes);
std::string read_file(const std::string& path, std::uint64_t max_bytes);
// At most the first n bytes of `path` (fewer when it is shorter): a format's header, read to
// refuse a model before the rest of its file is.
std::string read_file_head(const std::string& path, std::size_t n);
void write_file(const std::string& path, std::string_view bytes);
// The temporary file write_file writes before renaming it over `path`.
std::string temp_path(const std::string& path);

}  // namespace tp
