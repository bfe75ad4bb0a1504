// A coarse profiler for `tp train --profile` and `tp_bench train --profile`: wall time per layer
// kind (embedding, attention projections and core, feed-forward matmuls and activation, norms,
// residual adds, output head, loss, optimizer), forward and backward apart.
//
// Off by default; a disabled scope costs one branch on a global flag, so the hooks stay in the
// layers permanently. Scopes never nest (each hook sits around leaf work), so the rows add up to
// the measured total. Single-threaded, like the core.
#pragma once

#include <cstdio>

namespace tp {

enum class ProfileKind {
  Embedding,
  AttentionProj,  // q, k, v, o linears (+ RoPE)
  AttentionCore,  // Q·Kᵀ, mask + softmax, P·V per head
  FfnMatmul,      // up, gate, down linears
  FfnActivation,  // GELU / ReLU / SiLU·gate
  Norm,
  Residual,   // residual adds, gradient copies, dropout
  Head,       // output projection
  Loss,       // softmax + cross-entropy
  Optimizer,  // clipping + AdamW
  Batching,
  Count
};
const char* to_string(ProfileKind kind);

void profiler_enable(bool on);
void profiler_reset();
void profiler_add(ProfileKind kind, bool backward, double seconds);
// Seconds accumulated for a kind and direction since the last reset.
double profiler_seconds(ProfileKind kind, bool backward);
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
