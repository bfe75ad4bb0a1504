// Positional information that acts inside attention: RoPE rotations of Q and K, and ALiBi's
// per-head distance penalties. (Additive encodings — sinusoidal, learned — are in embedding.h.)
#pragma once

#include <vector>

#include "core/enum_names.h"

namespace tp {
// How positions enter the model: added to the embedding (learned, sinusoidal), as rotations of Q
// and K (rope), as a distance penalty on the scores (alibi), or not at all.
enum class PosKind { Learned, Sinusoidal, Rope, Alibi, None };
// (Listed as the page offers them: the 2017 paper's choice first.)
inline constexpr EnumName<PosKind> kPosKindNames[] = {{PosKind::Sinusoidal, "sinusoidal"},
                                                      {PosKind::Learned, "learned"},
                                                      {PosKind::Rope, "rope"},
                                                      {PosKind::Alibi, "alibi"},
                                                      {PosKind::None, "none"}};
// Which dimensions of a head RoPE rotates together: adjacent pairs (2i, 2i+1), as RoFormer and
// llama2.c write it, or the two halves (i, i + head_dim/2), Hugging Face's "rotate_half" (its
// Llama checkpoints permute W_Q and W_K rows for it). Same rotation angles either way.
enum class RopePairs { Adjacent, Half };
inline constexpr EnumName<RopePairs> kRopePairsNames[] = {{RopePairs::Adjacent, "adjacent"}, {RopePairs::Half, "half"}};
}  // namespace tp

namespace tp::nn {

// cos/sin of p·θᵢ, θᵢ = base^(−2i/head_dim), for p < max_len and i < head_dim/2, and which
// dimensions form pair i; built with det_math so both targets rotate identically.
struct RopeTable {
  int max_len = 0, half = 0;
  RopePairs pairs = RopePairs::Adjacent;
  std::vector<float> cos, sin;  // [max_len, half]
  static RopeTable create(int max_len, int head_dim, double base = 10000.0, RopePairs pairs = RopePairs::Adjacent);
};

// Rotates rows of x [rows, heads · head_dim] in place; row r sits at position positions[r].
// Pair i of each head is (2i, 2i+1) or (i, i + head_dim/2), as the table says.
void rope_forward(float* x, int rows, int heads, int head_dim, const int* positions, const RopeTable& table);
// The backward of a rotation is the rotation by the opposite angle.
void rope_backward(float* dx, int rows, int heads, int head_dim, const int* positions, const RopeTable& table);

// ALiBi slopes mₕ = 2^(−8(h+1)/H).
std::vector<float> alibi_slopes(int n_heads);

// ALiBi's bias of query position t for key position u, added to the scaled score: −m·|t − u|.
inline float alibi_bias(float slope, int t, int u) { return -slope * static_cast<float>(t > u ? t - u : u - t); }

}  // namespace tp::nn
