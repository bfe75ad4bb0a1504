// Signal handling for `tp train`; see interrupt.h.
#include "cli/interrupt.h"

#include <csignal>

#include <unistd.h>

namespace tp::cli {

namespace {

volatile std::sig_atomic_t g_signal = 0;
char g_temp_file[4096];  // NUL-terminated; empty: nothing to remove
volatile std::sig_atomic_t g_has_temp = 0;
struct sigaction g_previous_int, g_previous_term;

// Only async-signal-safe calls: unlink, signal and raise.
extern "C" void on_signal(int sig) {
  if (g_signal == 0) {
    g_signal = sig;
    return;
  }
  if (g_has_temp) unlink(g_temp_file);
  std::signal(sig, SIG_DFL);
  std::raise(sig);  // the default action: the process ends, with the signal as its status
}

void install(int sig, struct sigaction* previous) {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: a first signal during the save lets the write go on rather than fail it.
  action.sa_flags = SA_RESTART;
  sigaction(sig, &action, previous);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal = 0;
  install(SIGINT, &g_previous_int);
  install(SIGTERM, &g_previous_term);
}

InterruptGuard::~InterruptGuard() {
  g_has_temp = 0;
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

int InterruptGuard::signal() const { return g_signal; }

void InterruptGuard::protect(const std::string& temp_file) {
  g_has_temp = 0;
  if (temp_file.empty() || temp_file.size() >= sizeof g_temp_file) return;
  temp_file.copy(g_temp_file, temp_file.size());
  g_temp_file[temp_file.size()] = '\0';
  g_has_temp = 1;
}

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
