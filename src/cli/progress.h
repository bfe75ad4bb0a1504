// The training progress line: a bar with step, loss, validation metric, tokens/s and ETA,
// redrawn in place on a terminal and printed as plain lines otherwise.
#pragma once

#include <string>

namespace tp::cli {

class Progress {
 public:
  Progress(int total_steps, bool terminal);
  // Redraws (terminal) or prints when `force` (not a terminal: only at evaluations).
  void update(int step, double loss, const std::string& metric, double tokens_per_s, bool force);
  void finish();
  // A line of its own on stderr (a warning), clearing the bar first on a terminal; the bar is
  // drawn again at the next update.
  void message(const std::string& text);

 private:
  int total_;
  bool terminal_;
  double start_;
};

double now_seconds();
std::string format_duration(double seconds);

}  // namespace tp::cli
