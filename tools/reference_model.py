"""PyTorch reference implementation of docs/MODEL.md, used to generate the test fixtures.

The C++ model must match this module layer by layer, so it is written for clarity and for a
literal reading of MODEL.md rather than speed: attention is spelled out (no
nn.MultiheadAttention) so that every mask, RoPE, ALiBi and the GQA grouping are visibly the
contract's. Parameter names in `state_dict()` are exactly the FORMAT.md tensor names, registered
in the order of FORMAT.md's table, so a checkpoint loads with `load_state_dict`.

Ambiguities in MODEL.md resolved here (keep in sync with the C++ side):
- the sliding window applies to self-attention only; cross-attention sees every non-<PAD>
  source position (query and key positions live in different sequences there);
- `cls_head` and `token_head` always have a bias: the `bias` flag covers attention and FFN.
"""
import json
import math
from dataclasses import asdict, dataclass, fields

import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS, PAD, UNK, CLS, MASK = 0, 1, 2, 3, 4, 5
IGNORE = -1

ARCHS = ("decoder-only", "encoder-only", "encoder-decoder")
POSITIONS = ("learned", "sinusoidal", "rope", "alibi", "none")


@dataclass
class Config:
    """ModelConfig of MODEL.md; field order is the order of the config JSON."""
    arch: str = "decoder-only"
    vocab_size: int = 64
    d_model: int = 64
    n_heads: int = 4
    n_kv_heads: int = 0  # 0 = same as n_heads (MHA), resolved in __post_init__
    n_layers: int = 2
    d_ff: int = 256
    max_len: int = 64
    pos: str = "learned"
    rope_pairs: str = "adjacent"
    rope_theta: float = 10000.0
    norm: str = "layer"
    norm_placement: str = "pre"
    norm_eps: float = 1e-5
    ffn: str = "gelu"
    window: int = 0
    global_tokens: int = 0
    layer_pattern: str = ""
    dropout: float = 0.0
    tie_embeddings: bool = False
    bias: bool = True
    head: str = "lm"
    n_classes: int = 2

    def __post_init__(self):
        if self.n_kv_heads == 0:
            self.n_kv_heads = self.n_heads
        self.validate()

    @property
    def head_dim(self):
        return self.d_model // self.n_heads

    def validate(self):
        """Reject what MODEL.md's table does not allow (a cheap guard for the fixture list)."""
        def need(ok, what):
            if not ok:
                raise ValueError(f"invalid config: {what}")
        need(self.arch in ARCHS, "arch")
        need(self.pos in POSITIONS, "pos")
        need(self.rope_pairs in ("adjacent", "half"), "rope_pairs")
        need(self.norm in ("layer", "rms"), "norm")
        need(self.norm_placement in ("pre", "post"), "norm_placement")
        need(self.ffn in ("gelu", "relu", "swiglu"), "ffn")
        need(self.d_model % self.n_heads == 0, "n_heads must divide d_model")
        need(self.n_heads % self.n_kv_heads == 0, "n_kv_heads must divide n_heads")
        need(self.pos != "rope" or self.head_dim % 2 == 0, "rope needs an even head_dim")
        need(set(self.layer_pattern) <= {"L", "G"}, "layer_pattern")
        heads = ("mlm", "cls", "mean", "token") if self.arch == "encoder-only" else ("lm",)
        need(self.head in heads, "head")
        need(self.n_classes >= 2, "n_classes")

    def is_local(self, layer):
        """Whether `layer` uses the sliding window (pattern repeats cyclically)."""
        if self.window <= 0:
            return False
        if not self.layer_pattern:
            return True
        return self.layer_pattern[layer % len(self.layer_pattern)] == "L"

    def to_json(self):
        return json.dumps(asdict(self))

    @classmethod
    def from_dict(cls, d):
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


# ---------------------------------------------------------------- positions


def sinusoidal_table(length, d_model, dtype=torch.float64):
    """P[t, 2i] = sin(t / 10000^(2i/D)), P[t, 2i+1] = cos(same); odd D ends with a sine."""
    t = torch.arange(length, dtype=torch.float64)[:, None]
    pair = torch.arange(d_model) // 2
    freq = torch.pow(10000.0, -(2.0 * pair.double()) / d_model)
    angle = t * freq[None, :]
    is_even = (torch.arange(d_model) % 2 == 0)[None, :]
    return torch.where(is_even, torch.sin(angle), torch.cos(angle)).to(dtype)


def apply_rope(x, positions, base=10000.0, pairs="adjacent"):
    """Rotate pair i of x [B, T, heads, dh] by positions[t] * base^(-2i/dh).

    pairs = "adjacent": pair i is (2i, 2i+1); "half": pair i is (i, i + dh/2) (rotate_half)."""
    dh = x.shape[-1]
    theta = torch.pow(float(base), -2.0 * torch.arange(dh // 2, dtype=torch.float64) / dh)
    angle = positions.double()[:, None] * theta[None, :]          # [T, dh/2]
    cos = torch.cos(angle).to(x.dtype)[None, :, None, :]
    sin = torch.sin(angle).to(x.dtype)[None, :, None, :]
    if pairs == "half":
        a, b = x[..., : dh // 2], x[..., dh // 2:]
        return torch.cat((a * cos - b * sin, a * sin + b * cos), dim=-1)
    even, odd = x[..., 0::2], x[..., 1::2]
    rotated = torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1)
    return rotated.flatten(-2)


def alibi_slopes(n_heads):
    """m_h = 2^(-8(h+1)/H)."""
    h = torch.arange(n_heads, dtype=torch.float64)
    return torch.pow(2.0, -8.0 * (h + 1) / n_heads)


def alibi_bias(n_heads, t_len, s_len, dtype):
    """A_h[t, u] = -m_h |t - u|, shaped [1, H, T, S] to broadcast over the batch."""
    dist = (torch.arange(t_len)[:, None] - torch.arange(s_len)[None, :]).abs().double()
    return (-alibi_slopes(n_heads)[:, None, None] * dist[None]).to(dtype)[None]


# ---------------------------------------------------------------- masks (True = allowed)


def key_padding_mask(key_ids):
    """[B, 1, S]: a key is usable unless its token is <PAD>."""
    return (key_ids != PAD)[:, None, :]


def causal_mask(t_len, s_len):
    t = torch.arange(t_len)[:, None]
    u = torch.arange(s_len)[None, :]
    return (u <= t)[None]


def window_mask(t_len, s_len, window, global_tokens):
    """|t - u| < window, except that global positions see and are seen by everything."""
    t = torch.arange(t_len)[:, None]
    u = torch.arange(s_len)[None, :]
    near = (t - u).abs() < window
    return (near | (t < global_tokens) | (u < global_tokens))[None]


def self_attention_mask(cfg, key_ids, layer, causal):
    """Allowed [B, T, T] for layer `layer` of a stack reading `key_ids`."""
    n = key_ids.shape[1]
    allowed = key_padding_mask(key_ids)
    if causal:
        allowed = allowed & causal_mask(n, n)
    if cfg.is_local(layer):
        allowed = allowed & window_mask(n, n, cfg.window, cfg.global_tokens)
    return allowed


def masked_softmax(scores, allowed):
    """Softmax over the last axis where `allowed`; rows with no allowed key become all zeros.

    The row maximum is detached: softmax is shift invariant, so this changes no value or
    gradient, and it keeps the -inf of an empty row out of autograd (which would give NaN).
    """
    scores = scores.masked_fill(~allowed, float("-inf"))
    row_max = scores.amax(dim=-1, keepdim=True).detach()
    row_max = torch.where(torch.isfinite(row_max), row_max, torch.zeros_like(row_max))
    e = torch.exp(scores - row_max)
    total = e.sum(dim=-1, keepdim=True)
    return e / torch.where(total > 0, total, torch.ones_like(total))


# ---------------------------------------------------------------- layers


class Norm(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.kind, self.eps = cfg.norm, cfg.norm_eps
        self.weight = nn.Parameter(torch.ones(cfg.d_model))
        if cfg.norm == "layer":
            self.bias = nn.Parameter(torch.zeros(cfg.d_model))

    def forward(self, x):
        if self.kind == "rms":
            return x / torch.sqrt((x * x).mean(-1, keepdim=True) + self.eps) * self.weight
        mean = x.mean(-1, keepdim=True)
        var = ((x - mean) ** 2).mean(-1, keepdim=True)  # biased, as MODEL.md says
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias


class Attention(nn.Module):
    """Multi-head attention with G key/value heads; q, k, v, o named as in FORMAT.md."""

    def __init__(self, cfg, self_attention):
        super().__init__()
        dh = cfg.head_dim
        self.n_heads, self.n_kv, self.dh = cfg.n_heads, cfg.n_kv_heads, dh
        # RoPE and ALiBi are defined for self-attention only (MODEL.md).
        self.rope = self_attention and cfg.pos == "rope"
        self.alibi = self_attention and cfg.pos == "alibi"
        self.rope_theta, self.rope_pairs = cfg.rope_theta, cfg.rope_pairs
        self.q = nn.Linear(cfg.d_model, cfg.n_heads * dh, bias=cfg.bias)
        self.k = nn.Linear(cfg.d_model, cfg.n_kv_heads * dh, bias=cfg.bias)
        self.v = nn.Linear(cfg.d_model, cfg.n_kv_heads * dh, bias=cfg.bias)
        self.o = nn.Linear(cfg.n_heads * dh, cfg.d_model, bias=cfg.bias)
        self.last_probs = None  # [B, H, T, S], kept for inspection and checks

    def _project(self, x, m):
        b, t, s = x.shape[0], x.shape[1], m.shape[1]
        q = self.q(x).view(b, t, self.n_heads, self.dh)
        k = self.k(m).view(b, s, self.n_kv, self.dh)
        v = self.v(m).view(b, s, self.n_kv, self.dh)
        if self.rope:
            q = apply_rope(q, torch.arange(t), self.rope_theta, self.rope_pairs)
            k = apply_rope(k, torch.arange(s), self.rope_theta, self.rope_pairs)
        # Query head h reads kv head h // (H/G): consecutive query heads share one kv head.
        group = self.n_heads // self.n_kv
        k = k.repeat_interleave(group, dim=2)
        v = v.repeat_interleave(group, dim=2)
        return q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)  # [B, H, *, dh]

    def forward(self, x, m, allowed):
        """x [B,T,D] queries, m [B,S,D] keys/values, allowed [B,T,S] boolean."""
        q, k, v = self._project(x, m)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
        if self.alibi:
            scores = scores + alibi_bias(self.n_heads, q.shape[2], k.shape[2], scores.dtype)
        probs = masked_softmax(scores, allowed[:, None])
        self.last_probs = probs.detach()
        out = (probs @ v).transpose(1, 2).flatten(2)  # heads concatenated in order
        return self.o(out)


def gelu_tanh(z):
    return 0.5 * z * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z ** 3)))


class FeedForward(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.kind = cfg.ffn
        self.up = nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.bias)
        if cfg.ffn == "swiglu":
            self.gate = nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.bias)
        self.down = nn.Linear(cfg.d_ff, cfg.d_model, bias=cfg.bias)

    def forward(self, x):
        if self.kind == "relu":
            return self.down(torch.relu(self.up(x)))
        if self.kind == "gelu":
            return self.down(gelu_tanh(self.up(x)))
        g = self.gate(x)
        return self.down(g * torch.sigmoid(g) * self.up(x))


class Layer(nn.Module):
    """One encoder or decoder layer; `cross` adds the decoder's cross-attention."""

    def __init__(self, cfg, cross):
        super().__init__()
        self.pre = cfg.norm_placement == "pre"
        self.p = cfg.dropout
        # Registration order follows FORMAT.md's table, which fixes the state_dict order.
        self.self_attn = Attention(cfg, self_attention=True)
        self.norm1 = Norm(cfg)
        if cross:
            self.cross_attn = Attention(cfg, self_attention=False)
            self.norm2 = Norm(cfg)
            self.ffn = FeedForward(cfg)
            self.norm3 = Norm(cfg)
        else:
            self.ffn = FeedForward(cfg)
            self.norm2 = Norm(cfg)
        self.cross = cross

    def _drop(self, x):
        return F.dropout(x, self.p, self.training) if self.p > 0 else x

    def forward(self, x, self_allowed, memory=None, cross_allowed=None):
        ffn_norm = self.norm3 if self.cross else self.norm2
        if self.pre:
            h = self.norm1(x)
            h = x + self._drop(self.self_attn(h, h, self_allowed))
            if self.cross:
                n = self.norm2(h)
                h = h + self._drop(self.cross_attn(n, memory, cross_allowed))
            return h + self._drop(self.ffn(ffn_norm(h)))
        h = self.norm1(x + self._drop(self.self_attn(x, x, self_allowed)))
        if self.cross:
            h = self.norm2(h + self._drop(self.cross_attn(h, memory, cross_allowed)))
        return ffn_norm(h + self._drop(self.ffn(h)))


class Stack(nn.Module):
    """enc or dec: layers named 0..n-1, then final_norm for pre-norm."""

    def __init__(self, cfg, causal, cross):
        super().__init__()
        self.cfg, self.causal, self.n = cfg, causal, cfg.n_layers
        for i in range(cfg.n_layers):
            self.add_module(str(i), Layer(cfg, cross))
        if cfg.norm_placement == "pre":
            self.final_norm = Norm(cfg)

    def layer(self, i):
        return getattr(self, str(i))

    def forward(self, x, ids, memory=None, memory_ids=None):
        cross_allowed = None
        if memory is not None:
            cross_allowed = key_padding_mask(memory_ids).expand(-1, ids.shape[1], -1)
        for i in range(self.n):
            allowed = self_attention_mask(self.cfg, ids, i, self.causal)
            x = self.layer(i)(x, allowed, memory, cross_allowed)
        return self.final_norm(x) if hasattr(self, "final_norm") else x


class Transformer(nn.Module):
    """The whole model. forward(ids) for one-stack models, forward(src, dec_in) otherwise."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.d_model)
        if cfg.pos == "learned":
            self.pos_emb = nn.Embedding(cfg.max_len, cfg.d_model)
        if cfg.arch != "decoder-only":
            self.enc = Stack(cfg, causal=False, cross=False)
        if cfg.arch != "encoder-only":
            self.dec = Stack(cfg, causal=True, cross=cfg.arch == "encoder-decoder")
        self._make_head(cfg)

    def _make_head(self, cfg):
        if cfg.head in ("lm", "mlm"):
            if not cfg.tie_embeddings:
                self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        elif cfg.head in ("cls", "mean"):
            self.cls_head = nn.Linear(cfg.d_model, cfg.n_classes)
        else:
            self.token_head = nn.Linear(cfg.d_model, cfg.n_classes)

    def embed(self, ids):
        """tok_emb[ids] + P[t] (no sqrt(D) scaling), then dropout."""
        x = self.tok_emb(ids)
        t = ids.shape[1]
        if self.cfg.pos == "learned":
            x = x + self.pos_emb.weight[:t]
        elif self.cfg.pos == "sinusoidal":
            x = x + sinusoidal_table(t, self.cfg.d_model, x.dtype)
        return F.dropout(x, self.cfg.dropout, self.training) if self.cfg.dropout > 0 else x

    def forward(self, ids, dec_in=None):
        arch = self.cfg.arch
        if arch == "decoder-only":
            return self.output(self.dec(self.embed(ids), ids), ids)
        enc_out = self.enc(self.embed(ids), ids)
        if arch == "encoder-only":
            return self.output(enc_out, ids)
        y = self.dec(self.embed(dec_in), dec_in, memory=enc_out, memory_ids=ids)
        return self.output(y, dec_in)

    def output(self, y, ids):
        head = self.cfg.head
        if head in ("lm", "mlm"):
            w = self.tok_emb.weight if self.cfg.tie_embeddings else self.lm_head.weight
            return y @ w.t()
        if head == "token":
            return self.token_head(y)
        if head == "cls":
            pooled = y[:, 0]
        else:  # mean over the non-<PAD> positions
            keep = (ids != PAD).to(y.dtype)[..., None]
            pooled = (y * keep).sum(1) / keep.sum(1)
        return self.cls_head(pooled)


def cross_entropy(logits, targets, label_smoothing=0.0):
    """Mean over targets != -1 of (1-e)(-log p_y) + (e/K) sum_j (-log p_j), PyTorch semantics."""
    k = logits.shape[-1]
    logp = F.log_softmax(logits.reshape(-1, k), dim=-1)
    t = targets.reshape(-1)
    keep = t != IGNORE
    logp, t = logp[keep], t[keep]
    nll = -logp.gather(1, t[:, None]).squeeze(1)
    smooth = -logp.mean(dim=1)
    return ((1.0 - label_smoothing) * nll + label_smoothing * smooth).mean()
