// Lookup of embedded data files by name.
#include "tasks/embedded.h"

#include "core/error.h"

namespace tp::embedded {

std::string file_text(const std::string& name) {
  std::string available;
  for (const File& f : files()) {
    if (name == f.name) return std::string(reinterpret_cast<const char*>(f.data), f.size);
    available += available.empty() ? f.name : std::string(", ") + f.name;
  }
  TP_FAIL("no embedded data file named '", name, "'; available: ", available);
}

}  // namespace tp::embedded
