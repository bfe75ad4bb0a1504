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
#include "core/trace.h"
#include "nn/kv_rows.h"
#include "nn/linear.h"
#include "nn/positional.h"

namespace tp::nn {

// Which (query, key) pairs may attend; see docs/MODEL.md "Attention".
struct MaskSpec {
  bool causal = false;
  int window = 0;  // 0: no window
  int global_tokens = 0;
  const int* key_ids = nullptr;  // [B, S] token ids of the keys; keys equal to pad_id are masked
  int pad_id = -1;               // the tokenizer's <PAD> (-1: no padding)
  int query_pos0 = 0;            // absolute position of query row 0
  const int* key_pos = nullptr;  // absolute position of each key row [S]; null: 0..S-1
  const float* alibi = nullptr;  // per-head slopes [H], or null
};

// The additive mask [T, S] `m` gives query rows 0..T-1 over keys 0..S-1 (key ids: m.key_ids,
// batch row 0): 0 where a query may attend (the ALiBi bias instead, with m.alibi, for head
// `head`), −inf where it may not. The rule the forward pass masks with, for views to draw.
std::vector<float> mask_matrix(const MaskSpec& m, int T, int S, int head = 0);

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
  float* q = nullptr;                         // [B, T, H·dh] after RoPE
  float* k = nullptr;                         // [B, S, G·dh] after RoPE
  float* v = nullptr;                         // [B, S, G·dh]
  float* probs = nullptr;                     // [B, H, T, S]
  float* concat = nullptr;                    // [B, T, H·dh]
  MaskSpec mask;                              // what forward masked with (backward skips the same band)
  std::vector<int> q_positions, k_positions;  // RoPE positions per row
};

// The sizes of one attention layer; the head size is d_model / n_heads.
struct AttentionShape {
  int d_model = 0, n_heads = 0, n_kv_heads = 0;
  bool bias = true;
};

// One attention layer. Every pass — training, a full inference pass, a generation step against
// cached keys — is the same three steps: project q, k and v, attend, project the heads out;
// forward() and forward_cached() differ in where K and V rows live, and a generation step of
// one to three tokens computes q, k and v in one matrix-vector pass and (one token) attends with
// attend_one().
struct Attention {
  int d_model = 0, n_heads = 0, n_kv_heads = 0, head_dim = 0;
  bool self = true;  // self-attention (RoPE/ALiBi apply) or cross-attention
  bool rope = false;
  Linear q, k, v, o;
  std::vector<float> alibi;  // slopes, when pos = alibi and self-attention
  const RopeTable* rope_table = nullptr;

  // Registers "<name>.q/.k/.v/.o"; `pos` decides whether RoPE or ALiBi apply (self-attention only).
  static Attention create(ParameterSet& params, const std::string& name, const AttentionShape& shape, bool self,
                          PosKind pos, const RopeTable* rope_table);

  // q [n, H·dh] = x [n, D] W_Qᵀ, RoPE-rotated at `positions` when it applies.
  void project_q(const ParameterSet& params, const float* x, int n, const int* positions, float* q) const;
  // k, v [n, G·dh] from m [n, D]; k RoPE-rotated at `positions` when it applies.
  void project_kv(const ParameterSet& params, const float* m, int n, const int* positions, float* k, float* v) const;
  // project_q and project_kv as one parallel region (kernels::matmul_group, or for a generation
  // step's few rows of self-attention one kernels::matvec_fused pass): q from x [nq, D], k and v
  // from m [nkv, D] (m == x for self-attention). The same bits as project_q and project_kv.
  void project_qkv(const ParameterSet& params, const float* x, int nq, const int* q_positions, const float* m, int nkv,
                   const int* k_positions, float* q, float* k, float* v) const;
  // out [B, T, D] = concat W_Oᵀ, concat = attend(q, k, v) (see attend()); ALiBi slopes are added
  // to `mask` here. With a trace, also records <prefix>.concat and .out.
  void attend_out(const ParameterSet& params, const float* q, const float* k, const float* v, const AttentionDims& dims,
                  MaskSpec mask, float* probs, float* concat, float* out, Arena& arena, Trace* trace,
                  const std::string& prefix) const;

  // out [B, T, D] = attention of x [B, T, D] over m [B, S, D] (m == x for self-attention).
  void forward(const ParameterSet& params, const float* x, const float* m, int B, int T, int S, MaskSpec mask,
               float* out, Arena& arena, AttentionSaved& saved, Trace* trace, const std::string& prefix) const;
  // dx (+)= ∂L/∂x; for cross-attention dm (+)= ∂L/∂m (for self-attention pass dm == dx).
  void backward(ParameterSet& params, const float* x, const float* m, int B, int T, int S, const AttentionSaved& saved,
                const float* dout, float* dx, bool accumulate_dx, float* dm, bool accumulate_dm, Arena& arena) const;

  // Generation, self-attention: the n new rows x [n, D] of `tokens` at positions pos0.. append
  // their K/V rows to `cache`, then attend over every cached row; out [n, D]. `mask` gives the
  // causal/window settings; the cache supplies the key positions and ids.
  void forward_cached(const ParameterSet& params, const float* x, int n, int pos0, const int* tokens, KvRows& cache,
                      MaskSpec mask, float* out, Arena& arena) const;
  // One query row q [H·dh] against every row of `cache` (mask with the cache's positions and ids
  // set, ALiBi slopes included): concat [H·dh]. Per head a row of scores, its softmax and the
  // weighted sum of value rows; no [T, S] mask or probability matrix is built.
  void attend_one(const float* q, const KvRows& cache, const MaskSpec& mask, float* concat, Arena& arena) const;
  // Generation, cross-attention: x [n, D] over encoder keys and values k, v [S, G·dh] computed
  // once (project_kv of the encoder output); out [n, D].
  void forward_cross_cached(const ParameterSet& params, const float* x, int n, const float* k, const float* v, int S,
                            MaskSpec mask, float* out, Arena& arena) const;
};

}  // namespace tp::nn
