// The file helpers and InputFile; see files.h.
#include "io/files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include <sys/stat.h>

#include "core/error.h"
#include "core/text_escape.h"

namespace tp {

namespace {

std::string errno_text(int err) { return err != 0 ? std::strerror(err) : "unknown error"; }

}  // namespace

InputFile::InputFile(const std::string& path, std::uint64_t max_bytes) : path_(path) {
  errno = 0;
  file_.reset(std::fopen(path.c_str(), "rb"));
  TP_CHECK(file_ != nullptr, "cannot open ", quote(path), " for reading: ", errno_text(errno));
  // Asked of the open file, so what is read is what was checked.
  struct stat info {};
  TP_CHECK(fstat(fileno(file_.get()), &info) == 0, "cannot read ", quote(path), ": ", errno_text(errno));
  TP_CHECK(S_ISREG(info.st_mode), "cannot read ", quote(path), ": it is not a regular file (",
           S_ISDIR(info.st_mode)                            ? "a folder"
           : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                                                            : "a pipe or socket",
           ")");
  size_ = static_cast<std::uint64_t>(info.st_size);
  TP_CHECK(size_ <= max_bytes, "cannot read ", quote(path), ": it is ", size_, " bytes, more than the ", max_bytes,
           " bytes (", max_bytes >> 20, " MB) such a file may have");
}

void InputFile::read(void* out, std::size_t n) {
  errno = 0;
  const std::size_t got = n == 0 ? 0 : std::fread(out, 1, n, file_.get());
  TP_CHECK(!std::ferror(file_.get()), "cannot read ", quote(path_), ": ", errno_text(errno));
  position_ += got;
  TP_CHECK(got == n, "cannot read ", quote(path_), ": it ended at byte ", position_, " of the ", size_,
           " it had when opened (was it changed while read?)");
}

FileBytes read_file_bytes(const std::string& path, std::uint64_t max_bytes) {
  InputFile file(path, max_bytes);
  FileBytes out;
  out.size_ = static_cast<std::size_t>(file.size());
  try {
    out.data_.reset(new char[out.size_]);  // uninitialised: every byte is read into below
  } catch (const std::bad_alloc&) {
    TP_FAIL("not enough memory to read ", quote(path), " (", file.size() >> 20, " MB)");
  }
  file.read(out.data_.get(), out.size_);
  return out;
}

std::string read_file(const std::string& path, std::uint64_t max_bytes) {
  InputFile file(path, max_bytes);
  std::string out(static_cast<std::size_t>(file.size()), '\0');  // small files: text, tests' fixtures
  file.read(out.data(), out.size());
  return out;
}

std::string read_file_head(const std::string& path, std::size_t n) {
  InputFile file(path, static_cast<std::uint64_t>(-1));
  std::string out(static_cast<std::size_t>(std::min<std::uint64_t>(n, file.size())), '\0');
  file.read(out.data(), out.size());
  return out;
}

std::string temp_path(const std::string& path) { return path + ".tmp"; }

void write_file(const std::string& path, std::string_view bytes) {
  const std::string temp = temp_path(path);
  errno = 0;
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  TP_CHECK(file != nullptr, "cannot write '", path, "': cannot create '", temp, "': ", errno_text(errno));
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  int err = errno;
  if (std::fflush(file) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (std::fclose(file) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    std::remove(temp.c_str());
    TP_FAIL("cannot write '", path, "': ", errno_text(err));
  }
  // rename() replaces the old file in one step (POSIX), so readers see the old or the new bytes.
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    err = errno;
    std::remove(temp.c_str());
    TP_FAIL("cannot write '", path, "': renaming '", temp, "' over it failed: ", errno_text(err));
  }
}

}  // namespace tp
