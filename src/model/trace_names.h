// The names of a trace's entries (core/trace.h): the one list that the C++ forward pass records
// under and that the page's views look up (web/lib/generated/schema.js carries it to JavaScript;
// a test checks that every name a forward pass records is on this list, and every pattern on it
// is recorded by some architecture).
//
// Patterns use {stack} (enc, dec), {layer} (0, 1, ...) and {attn} (self_attn, cross_attn). The
// order is the forward pass's, which is the order the walk-through presents them. Shapes: T
// positions of the stack, S key positions (the source for cross-attention), D = d_model,
// H heads of dh dimensions, G key/value heads, F = d_ff, V outputs (vocabulary or classes).
#pragma once

#include <cstddef>
#include <string>

#include "core/json.h"

namespace tp {

struct TraceName {
  const char* pattern;
  const char* shape;
  const char* doc;
};

inline constexpr TraceName kTraceNames[] = {
    {"{stack}.embed.tokens", "T, D", "the token embedding rows"},
    {"{stack}.embed.positions", "T, D", "the additive position rows (zeros for rope, alibi and none)"},
    {"{stack}.embed.sum", "T, D", "tokens + positions: the first layer's input"},
    {"{stack}.{layer}.norm1", "T, D", "pre-norm: the self-attention's input; post-norm: the first sublayer's output"},
    {"{stack}.{layer}.{attn}.q", "T, H*dh", "queries (after RoPE)"},
    {"{stack}.{layer}.{attn}.k", "S, G*dh", "keys (after RoPE)"},
    {"{stack}.{layer}.{attn}.v", "S, G*dh", "values"},
    {"{stack}.{layer}.{attn}.scores", "H, T, S", "q . k per head"},
    {"{stack}.{layer}.{attn}.scaled", "H, T, S", "scores / sqrt(dh)"},
    {"{stack}.{layer}.{attn}.masked", "H, T, S", "scaled + mask (-inf where not allowed, ALiBi's penalty)"},
    {"{stack}.{layer}.{attn}.probs", "H, T, S", "softmax of each row: the attention weights"},
    {"{stack}.{layer}.{attn}.head_out", "H, T, dh", "probs . v per head"},
    {"{stack}.{layer}.{attn}.concat", "T, H*dh", "the heads side by side"},
    {"{stack}.{layer}.{attn}.out", "T, D", "concat . W_O"},
    {"{stack}.{layer}.add1", "T, D", "input + self-attention (post-norm: before the norm)"},
    {"{stack}.{layer}.norm2", "T, D", "the second sublayer's norm"},
    {"{stack}.{layer}.add2", "T, D", "input + the second sublayer"},
    {"{stack}.{layer}.norm3", "T, D", "the feed-forward's norm (decoder layers with cross-attention)"},
    {"{stack}.{layer}.add3", "T, D", "input + the feed-forward (decoder layers with cross-attention)"},
    {"{stack}.{layer}.ffn.pre", "T, F", "the first linear's output (SwiGLU: the gate) before the activation"},
    {"{stack}.{layer}.ffn.hidden", "T, F", "after the activation (SwiGLU: silu(gate) * up)"},
    {"{stack}.{layer}.ffn.out", "T, D", "the second linear's output"},
    {"{stack}.final_norm", "T, D", "pre-norm stacks: the last norm"},
    {"pooled", "1, D", "cls and mean heads: the vector the classifier reads"},
    {"logits", "T, V", "the output layer (one row for pooled heads)"},
    {"probs", "T, V", "softmax of the logits"},
};

// The pattern `name` matches, or nullptr.
const TraceName* find_trace_name(const std::string& name);
// The list as [{ pattern, shape, doc }].
json::Value describe_trace_names();

}  // namespace tp
