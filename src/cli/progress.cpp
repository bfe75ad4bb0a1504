// Progress bar drawing.
#include "cli/progress.h"

#include <chrono>
#include <cstdio>

namespace tp::cli {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string format_duration(double seconds) {
  const int s = static_cast<int>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%dh%02dm", s / 3600, s / 60 % 60);
  else
    std::snprintf(buf, sizeof buf, "%dm%02ds", s / 60, s % 60);
  return buf;
}

Progress::Progress(int total_steps, bool terminal) : total_(total_steps), terminal_(terminal), start_(now_seconds()) {}

void Progress::update(int step, double loss, const std::string& metric, double tokens_per_s, bool force) {
  if (!terminal_ && !force) return;
  const double elapsed = now_seconds() - start_;
  const double eta = step > 0 ? elapsed / step * (total_ - step) : 0.0;
  constexpr int kWidth = 24;
  const int filled = total_ > 0 ? kWidth * step / total_ : kWidth;
  std::string bar(filled, '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "%s[%s] step %d/%d  loss %.4f  %s  %.0f tok/s  ETA %s%s", terminal_ ? "\r" : "", bar.c_str(),
               step, total_, loss, metric.c_str(), tokens_per_s, format_duration(eta).c_str(),
               terminal_ ? "\x1b[K" : "\n");
  std::fflush(stderr);
}

void Progress::message(const std::string& text) {
  std::fprintf(stderr, "%s%s\n", terminal_ ? "\r\x1b[K" : "", text.c_str());
  std::fflush(stderr);
}

void Progress::finish() {
  if (terminal_) std::fprintf(stderr, "\n");
}

}  // namespace tp::cli
