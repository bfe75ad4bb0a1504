// The shared error slot of guard.h.
#include "bindings/guard.h"

namespace tp::bindings {

std::string& last_error() {
  static std::string message;
  return message;
}

std::string take_error() {
  std::string message;
  message.swap(last_error());
  return message;
}

}  // namespace tp::bindings
