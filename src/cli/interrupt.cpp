// Signal handling for `tp train`; see interrupt.h.
#include "cli/interrupt.h"

#include <csignal>

namespace tp::cli {

namespace {

volatile std::sig_atomic_t g_signal = 0;
struct sigaction g_previous_int, g_previous_term;

extern "C" void record_signal(int sig) { g_signal = sig; }

void install(int sig, struct sigaction* previous) {
  struct sigaction action {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the first signal is ours, the next one gets the default action (termination).
  action.sa_flags = SA_RESETHAND;
  sigaction(sig, &action, previous);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal = 0;
  install(SIGINT, &g_previous_int);
  install(SIGTERM, &g_previous_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

int InterruptGuard::signal() const { return g_signal; }

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

}  // namespace tp::cli
