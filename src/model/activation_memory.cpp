// The activation count; see activation_memory.h. Each term names the buffers it stands for.
#include "model/activation_memory.h"

#include <algorithm>

#include "core/thread_pool.h"

namespace tp {

namespace {

constexpr std::int64_t kAlign = 16;            // floats per 64 bytes: every arena block is rounded up
constexpr std::int64_t kFirstChunk = 1 << 18;  // Arena's default first chunk, in floats

struct Counter {
  std::int64_t floats = 0;
  void add(std::int64_t n) { floats += (std::max<std::int64_t>(n, 1) + kAlign - 1) / kAlign * kAlign; }
};

// One residual sublayer (sublayer.h): norm statistics, f's output, the output, the dropout mask,
// the normed input (pre) or the sum (post); backward: the masked gradient or d_in and d_f, and
// d_normed.
void sublayer(Counter& c, std::int64_t N, std::int64_t D, bool drop, bool train) {
  c.add(N);
  c.add(N);
  c.add(N * D);
  c.add(N * D);
  if (drop) c.add(N * D);
  c.add(N * D);  // normed (pre) or sum (post)
  if (!train) return;
  c.add(N * D);  // pre: masked (with dropout) or d_normed; post: d_in
  c.add(N * D);  // pre: d_normed; post: d_f
}

// Attention over B rows of T queries and S keys (nn/attention.cpp): Q, K, V, the probabilities
// and the concatenated heads; the score and mask rows of one (b, h); backward: dconcat, dQ, dK,
// dV and the dP, dS rows.
void attention(Counter& c, const ModelConfig& m, std::int64_t B, std::int64_t T, std::int64_t S, bool train) {
  const std::int64_t dh = m.d_model / m.n_heads, HD = m.n_heads * dh, GD = m.kv_heads() * dh;
  c.add(B * T * HD);
  c.add(B * S * GD);
  c.add(B * S * GD);
  c.add(B * m.n_heads * T * S);
  c.add(B * T * HD);
  // Score rows and mask per scratch slot: one per thread when the (batch, head) tasks are split
  // across the pool (nn/attention.cpp attention_slots), else one; and the slots' bookkeeping.
  const std::int64_t slots = std::min<std::int64_t>(B * m.n_heads, threads::count());
  c.add(slots * T * S);
  c.add(slots * T * S);  // the mask: a full [T, S] one at most
  c.add(2 * slots);
  if (!train) return;
  c.add(B * T * HD);
  c.add(B * T * HD);
  c.add(B * S * GD);
  c.add(B * S * GD);
  const std::int64_t group_slots = std::min<std::int64_t>(B * m.kv_heads(), threads::count());
  c.add(group_slots * T * S);
  c.add(group_slots * T * S);
}

// The FFN (nn/feed_forward.cpp) over N rows: up, hidden, and gate (SwiGLU) or the GELU gate;
// backward: d_hidden, d_up, and for SwiGLU silu(g) and dh ⊙ u.
void feed_forward(Counter& c, const ModelConfig& m, std::int64_t N, bool train) {
  const std::int64_t size = N * m.d_ff;
  c.add(size);
  c.add(size);
  if (m.ffn != FfnKind::Relu) c.add(size);
  if (!train) return;
  c.add(size);
  c.add(size);
  if (m.ffn == FfnKind::SwiGlu) {
    c.add(size);
    c.add(size);
  }
}

// One stack (model/stack.cpp): the embedding and its dropout mask, every layer, the final norm
// (pre-norm) and its gradient.
void stack(Counter& c, const ModelConfig& m, std::int64_t B, std::int64_t T, std::int64_t S_cross, bool train) {
  const std::int64_t N = B * T, D = m.d_model;
  const bool drop = train && m.dropout > 0.0f;
  c.add(N * D);
  if (drop) c.add(N * D);
  for (int l = 0; l < m.n_layers; ++l) {
    sublayer(c, N, D, drop, train);
    attention(c, m, B, T, T, train);
    if (S_cross > 0) {
      sublayer(c, N, D, drop, train);
      attention(c, m, B, T, S_cross, train);
    }
    sublayer(c, N, D, drop, train);
    feed_forward(c, m, N, train);
  }
  if (m.norm_placement == NormPlacement::Pre) {
    c.add(N);
    c.add(N);
    c.add(N * D);
    if (train) c.add(N * D);
  }
}

}  // namespace

std::int64_t activation_floats(const ModelConfig& m, const BatchShape& batch, bool train) {
  Counter c;
  const std::int64_t B = batch.size, D = m.d_model;
  const std::int64_t S = m.has_encoder() ? batch.src_len : 0, T = m.has_decoder() ? batch.tgt_len : 0;
  if (m.has_encoder()) stack(c, m, B, S, 0, train);
  if (m.has_decoder()) stack(c, m, B, T, m.arch == Arch::EncoderDecoder ? S : 0, train);
  // The output (model/heads.cpp, transformer.cpp): pooled rows, the logits, their softmax and
  // gradient; backward: the gradient of the last hidden state, of the pooled rows and of the
  // encoder output (encoder-decoder).
  const bool pooled = m.head == HeadKind::Cls || m.head == HeadKind::Mean;
  const std::int64_t positions = m.has_decoder() ? T : S;
  const std::int64_t rows = pooled ? B : B * positions, out = m.output_size();
  if (pooled) c.add(B * D);
  c.add(rows * out);
  c.add(rows * out);
  if (train) {
    c.add(rows * out);
    c.add(B * positions * D);
    if (pooled) c.add(B * D);
    if (m.arch == Arch::EncoderDecoder) c.add(B * S * D);
  }
  return c.floats;
}

std::int64_t estimate_activation_bytes(const ModelConfig& config, const BatchShape& batch, bool train) {
  const std::int64_t floats = activation_floats(config, batch, train);
  return std::max(kFirstChunk, floats + floats / 2) * static_cast<std::int64_t>(sizeof(float));
}

}  // namespace tp
