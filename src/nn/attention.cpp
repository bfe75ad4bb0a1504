// Attention forward/backward; see attention.h for shapes and docs/MODEL.md for the math.
#include "nn/attention.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/profiler.h"
#include "core/thread_pool.h"
#include "kernels/kernels.h"

namespace tp::nn {

using kernels::Trans;

namespace {

bool allowed(const MaskSpec& m, int t, int u) {
  if (m.causal && u > t) return false;
  if (m.window > 0 && std::abs(t - u) >= m.window && t >= m.global_tokens && u >= m.global_tokens) return false;
  return true;
}

// The additive mask [T, S] for batch row b and head h: 0 / ALiBi bias where allowed, −inf where not.
void build_mask(const MaskSpec& m, const AttentionDims& d, int b, int h, float* out) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  const int* ids = m.key_ids && m.pad_id >= 0 ? m.key_ids + static_cast<long>(b) * d.S : nullptr;
  const float slope = m.alibi ? m.alibi[h] : 0.0f;
  for (int t = 0; t < d.T; ++t) {
    const int tq = m.query_pos0 + t;
    float* row = out + static_cast<long>(t) * d.S;
    for (int u = 0; u < d.S; ++u) {
      const int uk = m.key_pos ? m.key_pos[u] : u;
      if ((ids && ids[u] == m.pad_id) || !allowed(m, tq, uk)) {
        row[u] = neg_inf;
      } else {
        row[u] = m.alibi ? alibi_bias(slope, tq, uk) : 0.0f;
      }
    }
  }
}

// The key-padding row [S] of batch row b (0, or −inf at <PAD> keys), shared by every query row;
// null when no key of the row is <PAD>.
const float* padding_row(const MaskSpec& m, const AttentionDims& d, int b, float* out) {
  if (!m.key_ids || m.pad_id < 0) return nullptr;
  const int* ids = m.key_ids + static_cast<long>(b) * d.S;
  bool any = false;
  for (int u = 0; u < d.S; ++u) {
    out[u] = ids[u] == m.pad_id ? -std::numeric_limits<float>::infinity() : 0.0f;
    any = any || ids[u] == m.pad_id;
  }
  return any ? out : nullptr;
}

// How one attention call masks. Causal self-attention over positions 0.. (training and full
// forward passes) is a band: query t sees keys u <= t, so Q·Kᵀ, P·V and their gradients skip the
// upper triangle (kernels::Band) and the softmax stops at the diagonal; only <PAD> keys then
// need an additive mask, one row per batch row. Windows, ALiBi, cached positions (generation)
// and the trace (which shows the whole score matrix) use the full [T, S] mask.
struct MaskPlan {
  bool band = false;       // causal from position 0: skip the upper triangle
  bool full_mask = false;  // build the [T, S] additive mask
  kernels::Band lower, k_up_to, k_from;
  int visible = -1;  // softmax: row t sees keys [0, t + 1) when banded

  MaskPlan(const MaskSpec& m, bool tracing) {
    band = m.causal && m.query_pos0 == 0 && m.key_pos == nullptr;
    full_mask = tracing || m.alibi != nullptr || m.window > 0 || (m.causal && !band);
    if (band) {
      lower.kind = kernels::Band::Kind::Lower;
      k_up_to.kind = kernels::Band::Kind::KUpTo;
      k_from.kind = kernels::Band::Kind::KFrom;
      visible = 1;
    }
  }
};

// Splitting attention across the thread pool: one task per (batch row, head) forward, per
// (batch row, key/value group) backward — the heads of a group add into the same dK and dV rows,
// so one task runs them in head order, as one thread does. Each task computes its own outputs
// whole, so the result is one thread's. With fewer tasks than threads (one long sequence, few
// heads) the products inside each task split instead. Returns the number of scratch slots.
int attention_slots(int tasks, double flops_per_task, bool tracing) {
  if (tracing || tasks < threads::count()) return 1;  // a trace is filled in head order
  return threads::parts_for(tasks * flops_per_task) > 1 ? threads::count() : 1;
}

// Runs fn(task, slot) for every task, across the pool when there is more than one slot.
template <typename Fn>
void for_each_task(int tasks, int slots, Fn fn) {
  if (slots > 1) {
    threads::parallel_for(tasks, fn);
    return;
  }
  for (int t = 0; t < tasks; ++t) fn(t, 0);
}

}  // namespace

std::vector<float> mask_matrix(const MaskSpec& m, int T, int S, int head) {
  AttentionDims d;
  d.T = T;
  d.S = S;
  std::vector<float> out(static_cast<std::size_t>(T) * S);
  build_mask(m, d, 0, head, out.data());
  return out;
}

void attend(const float* q, const float* k, const float* v, const AttentionDims& d, const MaskSpec& mask, float* probs,
            float* concat, Arena& arena, Trace* trace, const std::string& prefix) {
  const int HD = d.H * d.dh, GD = d.G * d.dh, group = d.H / d.G;
  const long kv_rows = d.kv_rows_per_batch > 0 ? d.kv_rows_per_batch : d.S;
  const float scale = 1.0f / std::sqrt(static_cast<float>(d.dh));
  const MaskPlan plan(mask, trace != nullptr);
  const std::size_t ts = static_cast<std::size_t>(d.T) * d.S, mask_size = plan.full_mask ? ts : d.S;
  const int slots = attention_slots(d.B * d.H, (plan.band ? 2.0 : 4.0) * ts * d.dh + 30.0 * ts, trace != nullptr);
  // Per slot: the scores, the mask and which (batch row, head) that mask was built for. A full
  // mask serves every head unless ALiBi makes it per head, and every batch row unless padding
  // makes it per row; the key-padding row serves one batch row.
  float* scores_buf = arena.alloc(slots * ts);
  float* mask_buf = arena.alloc(slots * mask_size);
  int* built = arena.alloc_ints(2 * static_cast<std::size_t>(slots));  // [slot]: key, has padding
  std::fill(built, built + 2 * slots, -1);
  const bool per_head = mask.alibi != nullptr, per_row = mask.key_ids != nullptr && mask.pad_id >= 0;
  // The trace shows the raw scores everywhere, so it computes the whole Q·Kᵀ.
  const kernels::Band score_band = trace ? kernels::Band{} : plan.lower;
  for_each_task(d.B * d.H, slots, [&](int task, int slot) {
    const int b = task / d.H, h = task % d.H, g = h / group;
    float* scores = scores_buf + slot * ts;
    float* mask_rows = mask_buf + slot * mask_size;
    int& key = built[2 * slot];
    const float* row_mask = nullptr;
    if (plan.full_mask) {
      const int want = (per_row ? b : 0) * d.H + (per_head ? h : 0);
      if (key != want) build_mask(mask, d, b, h, mask_rows);
      key = want;
      row_mask = mask_rows;
    } else {
      if (key != b) built[2 * slot + 1] = padding_row(mask, d, b, mask_rows) != nullptr;
      key = b;
      row_mask = built[2 * slot + 1] ? mask_rows : nullptr;
    }
    const float* qh = q + static_cast<long>(b) * d.T * HD + h * d.dh;
    const float* kg = k + b * kv_rows * GD + g * d.dh;
    const float* vg = v + b * kv_rows * GD + g * d.dh;
    float* ph = probs + (static_cast<long>(b) * d.H + h) * ts;
    float* out = concat + static_cast<long>(b) * d.T * HD + h * d.dh;
    // scores [T, S] = q_h · k_gᵀ;  probs = softmax(scale · scores + mask);  out [T, dh] = probs · v_g
    kernels::matmul(Trans::N, Trans::T, d.T, d.S, d.dh, qh, HD, kg, GD, scores, d.S, false, nullptr, score_band);
    kernels::softmax_forward(scores, ph, d.T, d.S, scale, row_mask, plan.full_mask ? d.S : 0, plan.visible);
    kernels::matmul(Trans::N, Trans::N, d.T, d.dh, d.S, ph, d.S, vg, GD, out, HD, false, nullptr, plan.k_up_to);
    if (trace && b == 0) {
      const std::size_t off = static_cast<std::size_t>(h) * ts;
      const Shape hts{d.H, d.T, d.S};
      float* raw = trace->slot(prefix + ".scores", hts) + off;
      float* scaled = trace->slot(prefix + ".scaled", hts) + off;
      float* masked = trace->slot(prefix + ".masked", hts) + off;
      for (std::size_t i = 0; i < ts; ++i) {
        raw[i] = scores[i];
        scaled[i] = scores[i] * scale;
        masked[i] = scaled[i] + mask_rows[i];
      }
      std::copy(ph, ph + ts, trace->slot(prefix + ".probs", hts) + off);
      float* head_out = trace->slot(prefix + ".head_out", {d.H, d.T, d.dh}) + static_cast<std::size_t>(h) * d.T * d.dh;
      for (int t = 0; t < d.T; ++t)
        std::copy(out + static_cast<long>(t) * HD, out + static_cast<long>(t) * HD + d.dh, head_out + t * d.dh);
    }
  });
}

void attend_backward(const float* q, const float* k, const float* v, const float* probs, const float* dconcat,
                     const AttentionDims& d, const MaskSpec& mask, float* dq, float* dk, float* dv, Arena& arena) {
  const int HD = d.H * d.dh, GD = d.G * d.dh, group = d.H / d.G;
  const long kv_rows = d.kv_rows_per_batch > 0 ? d.kv_rows_per_batch : d.S;
  const float scale = 1.0f / std::sqrt(static_cast<float>(d.dh));
  const MaskPlan plan(mask, false);
  const std::size_t ts = static_cast<std::size_t>(d.T) * d.S;
  const int slots = attention_slots(d.B * d.G, group * ((plan.band ? 4.0 : 8.0) * ts * d.dh + 6.0 * ts), false);
  float* dprobs_buf = arena.alloc(slots * ts);
  float* dscores_buf = arena.alloc(slots * ts);
  for_each_task(d.B * d.G, slots, [&](int task, int slot) {
    const int b = task / d.G, g = task % d.G;
    float* dprobs = dprobs_buf + slot * ts;
    float* dscores = dscores_buf + slot * ts;
    const float* kg = k + b * kv_rows * GD + g * d.dh;
    const float* vg = v + b * kv_rows * GD + g * d.dh;
    for (int h = g * group; h < (g + 1) * group; ++h) {
      const bool first_in_group = h % group == 0;
      const float* qh = q + static_cast<long>(b) * d.T * HD + h * d.dh;
      const float* ph = probs + (static_cast<long>(b) * d.H + h) * ts;
      const float* dout = dconcat + static_cast<long>(b) * d.T * HD + h * d.dh;
      // dP = dO · Vᵀ;  dS = softmax'(P) dP · scale  (the gradient of the raw q·k scores)
      kernels::matmul(Trans::N, Trans::T, d.T, d.S, d.dh, dout, HD, vg, GD, dprobs, d.S, false, nullptr, plan.lower);
      kernels::softmax_backward(ph, dprobs, dscores, d.T, d.S, scale, false, plan.visible);
      // dQ = dS · K;  dK += dSᵀ · Q;  dV += Pᵀ · dO  (heads of one group share K and V)
      kernels::matmul(Trans::N, Trans::N, d.T, d.dh, d.S, dscores, d.S, kg, GD,
                      dq + static_cast<long>(b) * d.T * HD + h * d.dh, HD, false, nullptr, plan.k_up_to);
      kernels::matmul(Trans::T, Trans::N, d.S, d.dh, d.T, dscores, d.S, qh, HD, dk + b * kv_rows * GD + g * d.dh, GD,
                      !first_in_group, nullptr, plan.k_from);
      kernels::matmul(Trans::T, Trans::N, d.S, d.dh, d.T, ph, d.S, dout, HD, dv + b * kv_rows * GD + g * d.dh, GD,
                      !first_in_group, nullptr, plan.k_from);
    }
  });
}

Attention Attention::create(ParameterSet& params, const std::string& name, const AttentionShape& shape, bool self,
                            PosKind pos, const RopeTable* rope_table) {
  Attention a;
  a.d_model = shape.d_model;
  a.n_heads = shape.n_heads;
  a.n_kv_heads = shape.n_kv_heads;
  a.head_dim = shape.d_model / shape.n_heads;
  a.self = self;
  a.rope = self && pos == PosKind::Rope;
  a.rope_table = a.rope ? rope_table : nullptr;
  const int qd = a.n_heads * a.head_dim, kvd = a.n_kv_heads * a.head_dim;
  a.q = Linear::create(params, name + ".q", shape.d_model, qd, shape.bias);
  a.k = Linear::create(params, name + ".k", shape.d_model, kvd, shape.bias);
  a.v = Linear::create(params, name + ".v", shape.d_model, kvd, shape.bias);
  a.o = Linear::create(params, name + ".o", qd, shape.d_model, shape.bias);
  if (self && pos == PosKind::Alibi) a.alibi = alibi_slopes(shape.n_heads);
  return a;
}

void Attention::project_q(const ParameterSet& params, const float* x, int n, const int* positions, float* out) const {
  q.forward(params, x, out, n);
  if (rope) rope_forward(out, n, n_heads, head_dim, positions, *rope_table);
}

void Attention::project_kv(const ParameterSet& params, const float* m, int n, const int* positions, float* k_out,
                           float* v_out) const {
  k.forward(params, m, k_out, n);
  v.forward(params, m, v_out, n);
  if (rope) rope_forward(k_out, n, n_kv_heads, head_dim, positions, *rope_table);
}

void Attention::project_qkv(const ParameterSet& params, const float* x, int nq, const int* q_positions, const float* m,
                            int nkv, const int* k_positions, float* q_out, float* k_out, float* v_out) const {
  if (m == x && nkv == nq && nq < kMatvecRows) {
    // A generation step: q, k and v in one pass of the matrix-vector kernel over the weights,
    // the same bits as each layer's forward() takes for so few rows.
    const kernels::MatvecOut outs[3] = {q.matvec_out(params, q_out), k.matvec_out(params, k_out),
                                        v.matvec_out(params, v_out)};
    kernels::matvec_fused(nq, d_model, x, d_model, outs, 3);
  } else if (nq < kMatvecRows || nkv < kMatvecRows) {  // each as its layer's forward() runs it
    q.forward(params, x, q_out, nq);
    k.forward(params, m, k_out, nkv);
    v.forward(params, m, v_out, nkv);
  } else {
    const kernels::MatmulArgs products[3] = {q.forward_product(params, x, q_out, nq),
                                             k.forward_product(params, m, k_out, nkv),
                                             v.forward_product(params, m, v_out, nkv)};
    kernels::matmul_group(products, 3);
  }
  if (rope) {
    rope_forward(q_out, nq, n_heads, head_dim, q_positions, *rope_table);
    rope_forward(k_out, nkv, n_kv_heads, head_dim, k_positions, *rope_table);
  }
}

void Attention::attend_out(const ParameterSet& params, const float* q_rows, const float* k_rows, const float* v_rows,
                           const AttentionDims& dims, MaskSpec mask, float* probs, float* concat, float* out,
                           Arena& arena, Trace* trace, const std::string& prefix) const {
  if (!alibi.empty()) mask.alibi = alibi.data();
  {
    ProfileScope scope(ProfileKind::AttentionCore, false);
    attend(q_rows, k_rows, v_rows, dims, mask, probs, concat, arena, trace, prefix);
  }
  {
    ProfileScope scope(ProfileKind::AttentionProj, false);
    o.forward(params, concat, out, dims.B * dims.T);
  }
  if (trace) {
    trace->record(prefix + ".concat", {dims.T, n_heads * head_dim}, concat);
    trace->record(prefix + ".out", {dims.T, d_model}, out);
  }
}

void Attention::forward(const ParameterSet& params, const float* x, const float* m, int B, int T, int S, MaskSpec mask,
                        float* out, Arena& arena, AttentionSaved& saved, Trace* trace,
                        const std::string& prefix) const {
  const int HD = n_heads * head_dim, GD = n_kv_heads * head_dim;
  saved.q = arena.alloc(static_cast<std::size_t>(B) * T * HD);
  saved.k = arena.alloc(static_cast<std::size_t>(B) * S * GD);
  saved.v = arena.alloc(static_cast<std::size_t>(B) * S * GD);
  saved.probs = arena.alloc(static_cast<std::size_t>(B) * n_heads * T * S);
  saved.concat = arena.alloc(static_cast<std::size_t>(B) * T * HD);
  {
    ProfileScope scope(ProfileKind::AttentionProj, false);
    if (rope) {
      saved.q_positions.resize(static_cast<std::size_t>(B) * T);
      saved.k_positions.resize(static_cast<std::size_t>(B) * S);
      for (int b = 0; b < B; ++b) {
        for (int t = 0; t < T; ++t) saved.q_positions[b * T + t] = mask.query_pos0 + t;
        for (int u = 0; u < S; ++u) saved.k_positions[b * S + u] = mask.key_pos ? mask.key_pos[u] : u;
      }
    }
    project_qkv(params, x, B * T, saved.q_positions.data(), m, B * S, saved.k_positions.data(), saved.q, saved.k,
                saved.v);
  }
  saved.mask = mask;
  if (!alibi.empty()) saved.mask.alibi = alibi.data();
  if (trace) {
    trace->record(prefix + ".q", {T, HD}, saved.q);
    trace->record(prefix + ".k", {S, GD}, saved.k);
    trace->record(prefix + ".v", {S, GD}, saved.v);
  }
  const AttentionDims dims{B, T, S, n_heads, n_kv_heads, head_dim, 0};
  attend_out(params, saved.q, saved.k, saved.v, dims, mask, saved.probs, saved.concat, out, arena, trace, prefix);
}

void Attention::backward(ParameterSet& params, const float* x, const float* m, int B, int T, int S,
                         const AttentionSaved& saved, const float* dout, float* dx, bool accumulate_dx, float* dm,
                         bool accumulate_dm, Arena& arena) const {
  const int HD = n_heads * head_dim, GD = n_kv_heads * head_dim;
  float* dconcat = arena.alloc(static_cast<std::size_t>(B) * T * HD);
  {
    ProfileScope scope(ProfileKind::AttentionProj, true);
    o.backward(params, saved.concat, dout, dconcat, B * T, false);
  }
  float* dq = arena.alloc(static_cast<std::size_t>(B) * T * HD);
  float* dk = arena.alloc(static_cast<std::size_t>(B) * S * GD);
  float* dv = arena.alloc(static_cast<std::size_t>(B) * S * GD);
  const AttentionDims dims{B, T, S, n_heads, n_kv_heads, head_dim, 0};
  {
    ProfileScope scope(ProfileKind::AttentionCore, true);
    attend_backward(saved.q, saved.k, saved.v, saved.probs, dconcat, dims, saved.mask, dq, dk, dv, arena);
  }
  ProfileScope scope(ProfileKind::AttentionProj, true);
  if (rope) {
    rope_backward(dq, B * T, n_heads, head_dim, saved.q_positions.data(), *rope_table);
    rope_backward(dk, B * S, n_kv_heads, head_dim, saved.k_positions.data(), *rope_table);
  }
  // The three input gradients and three weight gradients in one region. For self-attention dm
  // is dx: dX = dQ·Wq, then dX += dK·Wk, then dX += dV·Wv, in that order (matmul_group keeps it).
  const bool acc_m = (dm == dx) ? true : accumulate_dm;
  kernels::MatmulArgs products[6];
  int count = 0;
  if (dx) products[count++] = q.dx_product(params, dq, dx, B * T, accumulate_dx);
  if (dm) {
    products[count++] = k.dx_product(params, dk, dm, B * S, acc_m);
    products[count++] = v.dx_product(params, dv, dm, B * S, true);
  }
  products[count++] = q.dw_product(params, x, dq, B * T);
  products[count++] = k.dw_product(params, m, dk, B * S);
  products[count++] = v.dw_product(params, m, dv, B * S);
  kernels::matmul_group(products, count);
  q.bias_backward(params, dq, B * T);
  k.bias_backward(params, dk, B * S);
  v.bias_backward(params, dv, B * S);
}

void Attention::forward_cached(const ParameterSet& params, const float* x, int n, int pos0, const int* tokens,
                               KvRows& cache, MaskSpec mask, float* out, Arena& arena) const {
  const int HD = n_heads * head_dim, GD = n_kv_heads * head_dim;
  int* positions = arena.alloc_ints(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) positions[i] = pos0 + i;
  float* q_rows = arena.alloc(static_cast<std::size_t>(n) * HD);
  float* k_rows = arena.alloc(static_cast<std::size_t>(n) * GD);
  float* v_rows = arena.alloc(static_cast<std::size_t>(n) * GD);
  project_qkv(params, x, n, positions, x, n, positions, q_rows, k_rows, v_rows);
  for (int i = 0; i < n; ++i) {  // each new row into its cache slot (the ring may wrap)
    const int row = cache.row_for(pos0 + i);
    cache.positions[row] = pos0 + i;
    cache.tokens[row] = tokens[i];
    std::copy(k_rows + static_cast<std::size_t>(i) * GD, k_rows + static_cast<std::size_t>(i + 1) * GD,
              cache.k.begin() + static_cast<std::ptrdiff_t>(row) * GD);
    std::copy(v_rows + static_cast<std::size_t>(i) * GD, v_rows + static_cast<std::size_t>(i + 1) * GD,
              cache.v.begin() + static_cast<std::ptrdiff_t>(row) * GD);
  }
  mask.query_pos0 = pos0;
  mask.key_pos = cache.positions.data();
  mask.key_ids = cache.tokens.data();
  if (!alibi.empty()) mask.alibi = alibi.data();
  float* concat = arena.alloc(static_cast<std::size_t>(n) * HD);
  if (n == 1) {
    ProfileScope scope(ProfileKind::AttentionCore, false);
    attend_one(q_rows, cache, mask, concat, arena);
  } else {
    const AttentionDims dims{1, n, cache.used, n_heads, n_kv_heads, head_dim, cache.capacity};
    float* probs = arena.alloc(static_cast<std::size_t>(n_heads) * n * cache.used);
    ProfileScope scope(ProfileKind::AttentionCore, false);
    attend(q_rows, cache.k.data(), cache.v.data(), dims, mask, probs, concat, arena);
  }
  ProfileScope scope(ProfileKind::AttentionProj, false);
  o.forward(params, concat, out, n);
}

void Attention::attend_one(const float* q_row, const KvRows& cache, const MaskSpec& mask, float* concat,
                           Arena& arena) const {
  const int S = cache.used, HD = n_heads * head_dim, GD = n_kv_heads * head_dim, group = n_heads / n_kv_heads;
  const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
  // Every cached key precedes the query, so the causal mask hides none: a mask row is needed only
  // for a window, <PAD> keys or ALiBi (whose bias differs per head).
  bool pad = false;
  if (mask.key_ids && mask.pad_id >= 0) {
    for (int u = 0; u < S && !pad; ++u) pad = mask.key_ids[u] == mask.pad_id;
  }
  const bool per_head = mask.alibi != nullptr, masked = per_head || pad || mask.window > 0;
  AttentionDims one{1, 1, S, n_heads, n_kv_heads, head_dim, 0};
  const int slots = attention_slots(n_heads, 4.0 * S * head_dim + 30.0 * S, false);
  float* scores_buf = arena.alloc(static_cast<std::size_t>(slots) * S);
  float* probs_buf = arena.alloc(static_cast<std::size_t>(slots) * S);
  float* mask_buf = masked ? arena.alloc(static_cast<std::size_t>(per_head ? slots : 1) * S) : nullptr;
  if (masked && !per_head) build_mask(mask, one, 0, 0, mask_buf);
  for_each_task(n_heads, slots, [&](int h, int slot) {
    const int g = h / group;
    float* scores = scores_buf + static_cast<std::size_t>(slot) * S;
    float* probs = probs_buf + static_cast<std::size_t>(slot) * S;
    const float* row_mask = mask_buf;
    if (per_head) {
      float* own = mask_buf + static_cast<std::size_t>(slot) * S;
      build_mask(mask, one, 0, h, own);
      row_mask = own;
    }
    // scores [S] = K_g q_h (the key rows as a matrix of S rows, GD apart); probs = softmax(scale ·
    // scores + mask); out [dh] = probs · V_g
    kernels::matvec(1, S, head_dim, q_row + h * head_dim, head_dim, {cache.k.data() + g * head_dim, DType::F32, GD},
                    nullptr, scores, S);
    kernels::softmax_forward(scores, probs, 1, S, scale, row_mask, 0);
    kernels::matmul(Trans::N, Trans::N, 1, head_dim, S, probs, S, cache.v.data() + g * head_dim, GD,
                    concat + h * head_dim, HD);
  });
}

void Attention::forward_cross_cached(const ParameterSet& params, const float* x, int n, const float* k_rows,
                                     const float* v_rows, int S, MaskSpec mask, float* out, Arena& arena) const {
  float* q_rows = arena.alloc(static_cast<std::size_t>(n) * n_heads * head_dim);
  project_q(params, x, n, nullptr, q_rows);
  const AttentionDims dims{1, n, S, n_heads, n_kv_heads, head_dim, 0};
  float* probs = arena.alloc(static_cast<std::size_t>(n_heads) * n * S);
  float* concat = arena.alloc(static_cast<std::size_t>(n) * n_heads * head_dim);
  attend_out(params, q_rows, k_rows, v_rows, dims, mask, probs, concat, out, arena, nullptr, "");
}

}  // namespace tp::nn
