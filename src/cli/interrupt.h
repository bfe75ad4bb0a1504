// Ctrl-C (SIGINT) and SIGTERM while `tp train` runs: the command finishes the step in progress,
// saves the model of the last completed step and exits with 128 + the signal's number (130 for
// Ctrl-C, 143 for SIGTERM), instead of dying and losing the run.
//
// Only the command line installs this; the library never handles signals or exits. The first
// signal is only recorded (all a handler may safely do); a second one stops the process at once,
// for example during a long save — after removing the temporary file the save is writing, if one
// was named (protect), so no half-written FILE.tmp is left behind.
#pragma once

#include <string>

namespace tp::cli {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers for SIGINT and SIGTERM
  ~InterruptGuard();  // puts back what was there before
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  int signal() const;  // the signal that arrived, 0 while none has
  // The file a second signal removes before the process stops (empty: none). The path is copied
  // into static storage, since a handler may not allocate.
  void protect(const std::string& temp_file);
};

const char* signal_name(int sig);  // "SIGINT", "SIGTERM"

}  // namespace tp::cli
