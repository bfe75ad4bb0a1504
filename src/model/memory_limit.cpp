// max_parameter_bytes per platform; see memory_limit.h.
#include "model/memory_limit.h"

#ifndef __EMSCRIPTEN__
#include <unistd.h>
#endif

namespace tp {

namespace {

#ifndef __EMSCRIPTEN__
// Physical memory from sysconf, or 0 when the system does not say.
std::int64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::int64_t>(pages) * page;
}
#endif

}  // namespace

std::int64_t max_parameter_bytes() {
#ifdef __EMSCRIPTEN__
  return kWasmMaxParameterBytes;
#else
  static const std::int64_t physical = physical_memory_bytes();
  return physical > 0 ? physical : kWasmMaxParameterBytes;
#endif
}

std::string parameter_limit_source() {
#ifdef __EMSCRIPTEN__
  return "";
#else
  static const bool known = physical_memory_bytes() > 0;
  return known ? " (this machine's physical memory)" : " (this machine's memory is unknown; the web module's limit)";
#endif
}

}  // namespace tp
