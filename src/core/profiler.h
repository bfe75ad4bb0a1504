// A coarse profiler for `tp train --profile`: wall time per layer kind (attention, feed-forward,
// norms, embedding, output head and loss, optimizer), forward and backward apart.
//
// Off by default; a disabled scope costs one branch on a global flag, so the hooks stay in the
// layers permanently. Single-threaded, like the core.
#pragma once

#include <cstdio>

namespace tp {

enum class ProfileKind { Embedding, Attention, FeedForward, Norm, Head, Optimizer, Batching, Count };
const char* to_string(ProfileKind kind);

void profiler_enable(bool on);
bool profiler_enabled();
void profiler_reset();
void profiler_add(ProfileKind kind, bool backward, double seconds);
// A table of milliseconds per step by kind and direction, with shares of the total.
void print_profile(std::FILE* out, int steps);

class ProfileScope {
 public:
  ProfileScope(ProfileKind kind, bool backward);
  ~ProfileScope();
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;

 private:
  ProfileKind kind_;
  bool backward_;
  double start_ = -1.0;
};

}  // namespace tp
