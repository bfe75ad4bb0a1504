// The schedule names' parser; see train_options.h.
#include "model/train_options.h"

#include "core/error.h"

namespace tp {

ScheduleKind parse_schedule(std::string_view name) {
  std::string allowed;
  for (const auto& k : kScheduleKindNames) {
    if (name == k.name) return k.value;
    allowed += str_cat(allowed.empty() ? "" : ", ", k.name);
  }
  TP_FAIL("schedule '", name, "' is unknown; allowed: ", allowed);
}

}  // namespace tp
