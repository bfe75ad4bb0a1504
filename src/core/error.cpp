// Out-of-line part of error.h: the message for a broken internal invariant.
#include "core/error.h"

namespace tp {

void throw_internal_error(const char* condition, const char* file, int line) {
  throw InternalError(str_cat("internal error: ", condition, " does not hold (", file, ":", line,
                              "); this is a bug in Transformer Playground, not in your input"));
}

}  // namespace tp
