// Multi-head attention: self (bidirectional or causal) and cross, MHA/GQA/MQA, padding, sliding
// window with global tokens, RoPE and ALiBi — forward and backward side by side.
//
// Shapes (row-major, no copies between steps): q [B, T, H·dh], k and v [B, S, G·dh],
// probs [B, H, T, S], concat [B, T, H·dh]. Per head, the scores and the weighted sum are plain
// matmuls on strided views of q, k and v (lda = H·dh or G·dh), so no head is ever gathered into
// its own buffer.
#pragma once

#include <string>
#include <vector>

#include "core/arena.h"
#include "model/config.h"
#include "model/trace.h"
#include "nn/linear.h"
#include "nn/positional.h"

namespace tp::nn {

// Which (query, key) pairs may attend; see docs/MODEL.md "Attention".
struct MaskSpec {
  bool causal = false;
  int window = 0;                 // 0: no window
  int global_tokens = 0;
  const int* key_ids = nullptr;   // [B, S] token ids of the keys; <PAD> keys are masked
  int query_pos0 = 0;             // absolute position of query row 0
  const int* key_pos = nullptr;   // absolute position of each key row [S]; null: 0..S-1
  const float* alibi = nullptr;   // per-head slopes [H], or null
};

// Shapes of one attention call. kv_rows_per_batch ≥ S lets k/v live in a larger cache.
struct AttentionDims {
  int B = 1, T = 1, S = 1, H = 1, G = 1, dh = 1;
  int kv_rows_per_batch = 0;  // 0: S
};

// probs = softmax(q kᵀ/√dh + mask) per head; concat = probs v. `scratch` holds T·S floats.
// With a trace, records <prefix>.scores/.scaled/.masked/.probs [H,T,S] and .head_out [H,T,dh]
// for batch row 0.
void attend(const float* q, const float* k, const float* v, const AttentionDims& dims, const MaskSpec& mask,
            float* probs, float* concat, Arena& arena, Trace* trace = nullptr, const std::string& prefix = "");
// dq (overwritten), dk and dv (overwritten) from dconcat; `mask` is the forward's.
void attend_backward(const float* q, const float* k, const float* v, const float* probs, const float* dconcat,
                     const AttentionDims& dims, const MaskSpec& mask, float* dq, float* dk, float* dv, Arena& arena);

struct AttentionSaved {
  float* q = nullptr;       // [B, T, H·dh] after RoPE
  float* k = nullptr;       // [B, S, G·dh] after RoPE
  float* v = nullptr;       // [B, S, G·dh]
  float* probs = nullptr;   // [B, H, T, S]
  float* concat = nullptr;  // [B, T, H·dh]
  MaskSpec mask;            // what forward masked with (backward skips the same band)
  std::vector<int> q_positions, k_positions;  // RoPE positions per row
};

struct Attention {
  int d_model = 0, n_heads = 0, n_kv_heads = 0, head_dim = 0;
  bool self = true;  // self-attention (RoPE/ALiBi apply) or cross-attention
  bool rope = false;
  Linear q, k, v, o;
  std::vector<float> alibi;  // slopes, when pos = alibi and self-attention
  const RopeTable* rope_table = nullptr;

  static Attention create(ParameterSet& params, const std::string& name, const ModelConfig& config, bool self,
                          const RopeTable* rope_table);

  // out [B, T, D] = attention of x [B, T, D] over m [B, S, D] (m == x for self-attention).
  void forward(const ParameterSet& params, const float* x, const float* m, int B, int T, int S, MaskSpec mask,
               float* out, Arena& arena, AttentionSaved& saved, Trace* trace, const std::string& prefix) const;
  // dx (+)= ∂L/∂x; for cross-attention dm (+)= ∂L/∂m (for self-attention pass dm == dx).
  void backward(ParameterSet& params, const float* x, const float* m, int B, int T, int S, const AttentionSaved& saved,
                const float* dout, float* dx, bool accumulate_dx, float* dm, bool accumulate_dm, Arena& arena) const;
};

}  // namespace tp::nn
