// Profiler accumulation and the table; see profiler.h.
#include "core/profiler.h"

#include <chrono>

namespace tp {

namespace {

bool enabled = false;
constexpr int kKinds = static_cast<int>(ProfileKind::Count);
double totals[kKinds][2] = {};

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

}  // namespace

const char* to_string(ProfileKind kind) {
  switch (kind) {
    case ProfileKind::Embedding:
      return "embedding";
    case ProfileKind::AttentionProj:
      return "attention q/k/v/o";
    case ProfileKind::AttentionCore:
      return "attention QK^T+softmax+PV";
    case ProfileKind::FfnMatmul:
      return "feed-forward matmuls";
    case ProfileKind::FfnActivation:
      return "feed-forward activation";
    case ProfileKind::Norm:
      return "norm";
    case ProfileKind::Residual:
      return "residual + dropout";
    case ProfileKind::Head:
      return "output head";
    case ProfileKind::Loss:
      return "loss (softmax + CE)";
    case ProfileKind::Optimizer:
      return "optimizer (clip + AdamW)";
    case ProfileKind::Batching:
      return "batching";
    case ProfileKind::Count:
      break;
  }
  return "?";
}

void profiler_enable(bool on) { enabled = on; }

void profiler_reset() {
  for (auto& row : totals) row[0] = row[1] = 0.0;
}

void profiler_add(ProfileKind kind, bool backward, double seconds) {
  totals[static_cast<int>(kind)][backward] += seconds;
}

double profiler_seconds(ProfileKind kind, bool backward) { return totals[static_cast<int>(kind)][backward]; }

void print_profile(std::FILE* out, int steps) {
  double sum = 0.0;
  for (const auto& row : totals) sum += row[0] + row[1];
  const double per = 1000.0 / (steps > 0 ? steps : 1);
  std::fprintf(out, "\nprofile (ms per step)            forward  backward     total  share\n");
  for (int k = 0; k < kKinds; ++k) {
    const double f = totals[k][0], b = totals[k][1];
    if (f + b == 0.0) continue;
    std::fprintf(out, "  %-28s %9.3f %9.3f %9.3f %5.1f%%\n", to_string(static_cast<ProfileKind>(k)), f * per, b * per,
                 (f + b) * per, sum > 0 ? 100.0 * (f + b) / sum : 0.0);
  }
  std::fprintf(out, "  %-28s %9s %9s %9.3f\n", "measured", "", "", sum * per);
}

ProfileScope::ProfileScope(ProfileKind kind, bool backward) : kind_(kind), backward_(backward) {
  if (enabled) start_ = now();
}

ProfileScope::~ProfileScope() {
  if (start_ >= 0.0) profiler_add(kind_, backward_, now() - start_);
}

}  // namespace tp
