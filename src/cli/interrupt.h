// Ctrl-C (SIGINT) and SIGTERM while `tp train` runs: the command finishes the step in progress,
// saves the model of the last completed step and exits with 128 + the signal's number (130 for
// Ctrl-C, 143 for SIGTERM), instead of dying and losing the run.
//
// Only the command line installs this; the library never handles signals or exits. The handler
// only records the signal (all a handler may safely do) and restores the default action, so a
// second Ctrl-C still stops the process at once, for example during a long save.
#pragma once

namespace tp::cli {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers for SIGINT and SIGTERM
  ~InterruptGuard();  // puts back what was there before
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  int signal() const;  // the signal that arrived, 0 while none has
};

const char* signal_name(int sig);  // "SIGINT", "SIGTERM"

}  // namespace tp::cli
