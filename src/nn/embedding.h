// Token embedding plus the additive positional encodings (sinusoidal, learned), forward and
// backward side by side. RoPE and ALiBi act inside attention (nn/positional.h).
#pragma once

#include <vector>

#include "core/params.h"
#include "nn/positional.h"

namespace tp::nn {

// The sinusoidal table P[max_len, d]: P[t,2i] = sin(t / base^(2i/d)), P[t,2i+1] = cos(...); the
// model uses base 10000 (explanatory views may ask for another).
// Built with det_math so native and wasm tables are bit-identical.
std::vector<float> sinusoidal_table(int max_len, int d, double base = 10000.0);

struct Embedding {
  int vocab = 0, d = 0;
  int table = -1;      // tok_emb.weight [vocab, d]
  int positions = -1;  // pos_emb.weight [max_len, d] (learned) or -1
  PosKind pos = PosKind::None;
  std::vector<float> sinusoid;  // [max_len, d] when pos = sinusoidal

  // Registers "tok_emb.weight" [vocab, d] (and "pos_emb.weight" [max_len, d] for learned positions).
  static Embedding create(ParameterSet& params, int vocab, int d, PosKind pos, int max_len);

  // x[b, t] = E[ids[b, t]] + P[pos0 + t]; ids [B, T]. Throws tp::Error on an id outside the
  // vocabulary or a position past max_len.
  void forward(const ParameterSet& params, const int* ids, int B, int T, float* x, int pos0 = 0) const;
  // dE[ids] += dx; dP[t] += Σ_b dx[b, t] (learned positions).
  void backward(ParameterSet& params, const int* ids, int B, int T, const float* dx) const;

  // The additive position row for position t (zeros for rope/alibi/none), for the trace.
  void position_row(const ParameterSet& params, int t, float* out) const;
};

}  // namespace tp::nn
