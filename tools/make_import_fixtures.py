"""Build tiny GPT-2-, Llama- and llama2.c-shaped checkpoints in their own projects' layouts, with
the logits PyTorch computes for them, into native_tests/data/import/.

The models are written here from the public architecture definitions (GPT-2's model.py as
Hugging Face's modeling_gpt2 and OpenAI's gpt-2 write it; Llama as modeling_llama writes it;
llama2.c's model.py), not from any library: no Hugging Face code is used or needed. Each folder
holds what that ecosystem ships —

  gpt2/     config.json, model.safetensors (F32; Conv1D weights [in, out], fused c_attn, tied
            head, "h.<l>.attn.bias" causal-mask buffers), tokenizer.json (ByteLevel BPE) and
            the same as vocab.json + merges.txt, tokenizer_config.json
  llama/    config.json, model.safetensors (F16; q/k/v/o, gate/up/down, RMSNorm weights, untied
            lm_head, GQA), tokenizer.json (SentencePiece BPE with byte fallback)
  llama2c/  model.bin (legacy export: 7 int32 + float32 weights, separate classifier),
            tokenizer.bin

— plus expected.json: for a prompt of token ids, the float64 logits of every position, the
ids 48 greedy steps produce (argmax over the full-sequence logits, no cache), and the ids a few
texts tokenize to (computed by the reference tokenizers below, the published algorithms).
Everything is seeded: a rerun writes the same bytes.
Run: /usr/bin/python3 tools/make_import_fixtures.py
"""
import json
import math
import os
import re
import struct
import sys

import torch

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safetensors_lite  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "native_tests", "data", "import")
STEPS = 48
TRAIN_TEXT = ("the quick brown fox jumps over the lazy dog. the dog sleeps; the fox runs! "
              "a transformer attends to every token it has seen, then predicts the next one. "
              "it's 2024 and we'll see what they've done.\n")
TEXTS = ["the quick brown fox", "Hello, world!  it's   2024\n\tthe end ", "", " leading space",
         "naïve café — 한국어 😀"]
torch.set_num_threads(1)


# ---------------------------------------------------------------- GPT-2 byte-level BPE

def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


# GPT-2's pattern with \p{L} and \p{N} read as Python's Unicode-aware [^\W\d_] and \d: exact
# for the ASCII training text; the full Unicode classes are tested against gpt-3-encoder.
GPT2_PATTERN = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+""")


def learn_merges(words, count):
    """Plain BPE: repeatedly merge the most frequent adjacent pair (ties: first seen)."""
    seqs = [list(w) for w in words]
    merges = []
    for _ in range(count):
        counts = {}
        for s in seqs:
            for a, b in zip(s, s[1:]):
                counts[(a, b)] = counts.get((a, b), 0) + 1
        if not counts:
            break
        best = max(counts, key=lambda p: counts[p])
        merges.append(best)
        for s in seqs:
            i = 0
            while i < len(s) - 1:
                if (s[i], s[i + 1]) == best:
                    s[i:i + 2] = [s[i] + s[i + 1]]
                i += 1
    return merges


def bpe_by_rank(symbols, ranks):
    """Merge the lowest-ranked adjacent pair, leftmost first, until none has a rank."""
    symbols = list(symbols)
    while len(symbols) > 1:
        best = min(range(len(symbols) - 1),
                   key=lambda i: (ranks.get((symbols[i], symbols[i + 1]), math.inf), i))
        if (symbols[best], symbols[best + 1]) not in ranks:
            break
        symbols[best:best + 2] = [symbols[best] + symbols[best + 1]]
    return symbols


def gpt2_tokenizer():
    b2u = bytes_to_unicode()
    chunks = ["".join(b2u[b] for b in c.encode()) for c in GPT2_PATTERN.findall(TRAIN_TEXT)]
    merges = learn_merges(chunks, 60)
    vocab = [b2u[b] for b in sorted(b2u, key=lambda b: ord(b2u[b]))]
    vocab += [a + b for a, b in merges] + ["<|endoftext|>"]
    ranks = {m: r for r, m in enumerate(merges)}
    ids = {t: i for i, t in enumerate(vocab)}

    def encode(text):
        out = []
        for c in GPT2_PATTERN.findall(text):
            out += [ids[t] for t in bpe_by_rank("".join(b2u[b] for b in c.encode()), ranks)]
        return out
    tokenizer_json = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": len(vocab) - 1, "content": "<|endoftext|>", "single_word": False,
                          "lstrip": False, "rstrip": False, "normalized": True, "special": True}],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                          "use_regex": True},
        "post_processor": None, "decoder": {"type": "ByteLevel"},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "fuse_unk": False,
                  "byte_fallback": False, "vocab": ids, "merges": [f"{a} {b}" for a, b in merges]},
    }
    return vocab, tokenizer_json, encode


# ---------------------------------------------------------------- SentencePiece BPE

SPACE = "\u2581"


def sentencepiece_tokenizer():
    words = [SPACE + w for w in TRAIN_TEXT.replace("\n", " ").split(" ") if w]
    merges = learn_merges(words, 60)
    chars = sorted({ch for w in words for ch in w})
    pieces = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)] + chars
    pieces += [a + b for a, b in merges if a + b not in pieces]
    ids = {p: i for i, p in enumerate(pieces)}
    ranks = {m: r for r, m in enumerate(merges)}
    # llama2.c's tokenizer.bin orders merges by the merged piece's score (higher first).
    scores = [0.0] * len(pieces)
    for r, (a, b) in enumerate(merges):
        scores[ids[a + b]] = max(scores[ids[a + b]] if scores[ids[a + b]] else -1e9, -float(r))
    for ch in chars:
        scores[ids[ch]] = -1000.0

    def encode(text):
        if not text:
            return []
        out = []
        for ch in (SPACE + text.replace(" ", SPACE)):
            out += [ids[ch]] if ch in ids else [ids[f"<0x{b:02X}>"] for b in ch.encode()]
        symbols = [pieces[i] for i in out]
        return [ids[p] for p in bpe_by_rank(symbols, ranks)]

    def encode_by_score(text):  # llama2.c's encode(): best-scoring merge anywhere, leftmost
        if not text:
            return []
        toks = []
        for ch in (" " + text).replace(" ", SPACE):
            toks += [ids[ch]] if ch in ids else [ids[f"<0x{b:02X}>"] for b in ch.encode()]
        while True:
            best, where = -math.inf, -1
            for i in range(len(toks) - 1):
                merged = pieces[toks[i]] + pieces[toks[i + 1]]
                if merged in ids and ids[merged] > 258 and scores[ids[merged]] > best:
                    best, where = scores[ids[merged]], i
            if where < 0:
                return toks
            toks[where:where + 2] = [ids[pieces[toks[where]] + pieces[toks[where + 1]]]]

    tokenizer_json = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": i, "content": p, "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": False, "special": True}
                         for i, p in enumerate(pieces[:3])],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": SPACE},
            {"type": "Replace", "pattern": {"String": " "}, "content": SPACE}]},
        "pre_tokenizer": None, "post_processor": None, "decoder": None,
        "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>", "fuse_unk": True,
                  "byte_fallback": True, "vocab": ids, "merges": [f"{a} {b}" for a, b in merges]},
    }
    return pieces, scores, tokenizer_json, encode, encode_by_score


# ---------------------------------------------------------------- the models, in float64

def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * w + b


def rms_norm(x, w, eps):
    return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + eps) * w


def causal_attention(q, k, v):
    """q [H, T, dh], k/v [G, T, dh] (GQA: query head h reads kv head h // (H/G))."""
    rep = q.shape[0] // k.shape[0]
    k, v = k.repeat_interleave(rep, 0), v.repeat_interleave(rep, 0)
    t = q.shape[1]
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    s = s.masked_fill(torch.triu(torch.ones(t, t, dtype=torch.bool), 1), -math.inf)
    return torch.softmax(s, -1) @ v


def gpt2_forward(w, cfg, ids):
    D, H, t = cfg["n_embd"], cfg["n_head"], len(ids)
    x = w["wte.weight"][ids] + w["wpe.weight"][:t]
    for l in range(cfg["n_layer"]):
        p = f"h.{l}."
        a = layer_norm(x, w[p + "ln_1.weight"], w[p + "ln_1.bias"], cfg["layer_norm_epsilon"])
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]  # Conv1D: x W + b
        q, k, v = (m.view(t, H, D // H).transpose(0, 1) for m in qkv.split(D, -1))
        y = causal_attention(q, k, v).transpose(0, 1).reshape(t, D)
        x = x + y @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = layer_norm(x, w[p + "ln_2.weight"], w[p + "ln_2.bias"], cfg["layer_norm_epsilon"])
        m = gelu_new(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"])
        x = x + m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    x = layer_norm(x, w["ln_f.weight"], w["ln_f.bias"], cfg["layer_norm_epsilon"])
    return x @ w["wte.weight"].T


def rope_tables(t, dh, theta):
    inv = 1.0 / theta ** (torch.arange(0, dh, 2, dtype=torch.float64) / dh)
    ang = torch.arange(t, dtype=torch.float64)[:, None] * inv[None, :]  # [T, dh/2]
    return torch.cos(ang), torch.sin(ang)


def rope_half(x, cos, sin):  # modeling_llama: x * cos + rotate_half(x) * sin, cos = cat(c, c)
    c, s = torch.cat((cos, cos), -1), torch.cat((sin, sin), -1)
    h = x.shape[-1] // 2
    rotated = torch.cat((-x[..., h:], x[..., :h]), -1)
    return x * c + rotated * s


def rope_adjacent(x, cos, sin):  # llama2.c: pairs (2i, 2i+1) as complex numbers
    z = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2).contiguous())
    return torch.view_as_real(z * torch.complex(cos, sin)).flatten(-2)


def llama_forward(w, cfg, ids, rope):
    D, H = cfg["hidden_size"], cfg["num_attention_heads"]
    G, t, dh = cfg["num_key_value_heads"], len(ids), cfg["hidden_size"] // cfg["num_attention_heads"]
    cos, sin = rope_tables(t, dh, cfg["rope_theta"])
    x = w["model.embed_tokens.weight"][ids]
    for l in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{l}."
        a = rms_norm(x, w[p + "input_layernorm.weight"], cfg["rms_norm_eps"])
        q = (a @ w[p + "self_attn.q_proj.weight"].T).view(t, H, dh).transpose(0, 1)
        k = (a @ w[p + "self_attn.k_proj.weight"].T).view(t, G, dh).transpose(0, 1)
        v = (a @ w[p + "self_attn.v_proj.weight"].T).view(t, G, dh).transpose(0, 1)
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        y = causal_attention(q, k, v).transpose(0, 1).reshape(t, D)
        x = x + y @ w[p + "self_attn.o_proj.weight"].T
        m = rms_norm(x, w[p + "post_attention_layernorm.weight"], cfg["rms_norm_eps"])
        gate = m @ w[p + "mlp.gate_proj.weight"].T
        x = x + (torch.nn.functional.silu(gate) * (m @ w[p + "mlp.up_proj.weight"].T)) @ w[p + "mlp.down_proj.weight"].T
    x = rms_norm(x, w["model.norm.weight"], cfg["rms_norm_eps"])
    head = w["model.embed_tokens.weight"] if cfg["tie_word_embeddings"] else w["lm_head.weight"]
    return x @ head.T


def greedy(forward, prompt, steps):
    ids = list(prompt)
    for _ in range(steps):
        ids.append(int(torch.argmax(forward(ids)[-1])))
    return ids[len(prompt):]


def randn(gen, *shape, std=0.3):
    return torch.randn(*shape, generator=gen, dtype=torch.float64) * std


# ---------------------------------------------------------------- writers

def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=None, separators=(",", ":"))
        f.write("\n")


def expected(forward, prompt, tokenize):
    logits = forward(prompt)
    return {"prompt_ids": prompt, "logits": [[round(float(v), 12) for v in row] for row in logits],
            "greedy_ids": greedy(forward, prompt, STEPS),
            "texts": [{"text": t, "ids": tokenize(t)} for t in TEXTS]}


def make_gpt2(gen):
    vocab, tokenizer_json, encode = gpt2_tokenizer()
    cfg = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": len(vocab),
           "n_positions": 64, "n_embd": 16, "n_layer": 2, "n_head": 4, "n_inner": None,
           "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5,
           "resid_pdrop": 0.1, "embd_pdrop": 0.1, "attn_pdrop": 0.1, "scale_attn_weights": True,
           "bos_token_id": len(vocab) - 1, "eos_token_id": len(vocab) - 1,
           "tie_word_embeddings": True, "torch_dtype": "float32"}
    D, V, P = cfg["n_embd"], cfg["vocab_size"], cfg["n_positions"]
    w = {"wte.weight": randn(gen, V, D), "wpe.weight": randn(gen, P, D, std=0.1)}
    for l in range(cfg["n_layer"]):
        p = f"h.{l}."
        w[p + "ln_1.weight"] = 1 + randn(gen, D, std=0.1)
        w[p + "ln_1.bias"] = randn(gen, D, std=0.1)
        w[p + "attn.c_attn.weight"] = randn(gen, D, 3 * D)
        w[p + "attn.c_attn.bias"] = randn(gen, 3 * D, std=0.1)
        w[p + "attn.c_proj.weight"] = randn(gen, D, D)
        w[p + "attn.c_proj.bias"] = randn(gen, D, std=0.1)
        w[p + "ln_2.weight"] = 1 + randn(gen, D, std=0.1)
        w[p + "ln_2.bias"] = randn(gen, D, std=0.1)
        w[p + "mlp.c_fc.weight"] = randn(gen, D, 4 * D)
        w[p + "mlp.c_fc.bias"] = randn(gen, 4 * D, std=0.1)
        w[p + "mlp.c_proj.weight"] = randn(gen, 4 * D, D, std=0.15)
        w[p + "mlp.c_proj.bias"] = randn(gen, D, std=0.1)
    w["ln_f.weight"] = 1 + randn(gen, D, std=0.1)
    w["ln_f.bias"] = randn(gen, D, std=0.1)
    w = {k: v.float().double() for k, v in w.items()}  # the values the F32 file holds
    tensors = dict(w)
    for l in range(cfg["n_layer"]):  # the causal-mask buffers old GPT-2 files carry
        tensors[f"h.{l}.attn.bias"] = torch.tril(torch.ones(1, 1, P, P))
    d = os.path.join(OUT, "gpt2")
    os.makedirs(d, exist_ok=True)
    write_json(os.path.join(d, "config.json"), cfg)
    safetensors_lite.save(os.path.join(d, "model.safetensors"), tensors, {"format": "pt"})
    write_json(os.path.join(d, "tokenizer.json"), tokenizer_json)
    # And the same vocabulary and merges as GPT-2's original files, which every GPT-2 folder on
    # the Hub has beside tokenizer.json (GPT2Tokenizer reads them; a URL import asks for them).
    write_json(os.path.join(d, "vocab.json"), tokenizer_json["model"]["vocab"])
    with open(os.path.join(d, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n" + "".join(m + "\n" for m in tokenizer_json["model"]["merges"]))
    # As GPT-2's own folder: a tokenizer_config.json that adds no specials around a prompt.
    write_json(os.path.join(d, "tokenizer_config.json"),
               {"model_max_length": P, "tokenizer_class": "GPT2Tokenizer"})
    prompt = encode("the quick brown fox")
    write_json(os.path.join(d, "expected.json"), expected(lambda ids: gpt2_forward(w, cfg, ids), prompt, encode))


LLAMA_POST_PROCESSOR = {
    "type": "TemplateProcessing",
    "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
    "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
             {"SpecialToken": {"id": "<s>", "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
    "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}},
}


def make_llama(gen):
    pieces, scores, tokenizer_json, encode, _ = sentencepiece_tokenizer()
    cfg = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "vocab_size": len(pieces),
           "hidden_size": 16, "intermediate_size": 40, "num_hidden_layers": 2,
           "num_attention_heads": 4, "num_key_value_heads": 2, "hidden_act": "silu",
           "max_position_embeddings": 64, "rms_norm_eps": 1e-6, "rope_theta": 500.0,
           "rope_scaling": None, "attention_bias": False, "mlp_bias": False,
           "tie_word_embeddings": False, "bos_token_id": 1, "eos_token_id": 2,
           "torch_dtype": "float16"}
    D, V, F = cfg["hidden_size"], cfg["vocab_size"], cfg["intermediate_size"]
    KV = cfg["num_key_value_heads"] * D // cfg["num_attention_heads"]
    w = {"model.embed_tokens.weight": randn(gen, V, D)}
    for l in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{l}."
        w[p + "input_layernorm.weight"] = 1 + randn(gen, D, std=0.1)
        w[p + "self_attn.q_proj.weight"] = randn(gen, D, D)
        w[p + "self_attn.k_proj.weight"] = randn(gen, KV, D)
        w[p + "self_attn.v_proj.weight"] = randn(gen, KV, D)
        w[p + "self_attn.o_proj.weight"] = randn(gen, D, D)
        w[p + "post_attention_layernorm.weight"] = 1 + randn(gen, D, std=0.1)
        w[p + "mlp.gate_proj.weight"] = randn(gen, F, D)
        w[p + "mlp.up_proj.weight"] = randn(gen, F, D)
        w[p + "mlp.down_proj.weight"] = randn(gen, D, F, std=0.15)
    w["model.norm.weight"] = 1 + randn(gen, D, std=0.1)
    w["lm_head.weight"] = randn(gen, V, D)
    w = {k: v.half().double() for k, v in w.items()}  # the values the F16 file holds
    d = os.path.join(OUT, "llama")
    os.makedirs(d, exist_ok=True)
    write_json(os.path.join(d, "config.json"), cfg)
    safetensors_lite.save(os.path.join(d, "model.safetensors"), w, {"format": "pt"}, dtype="F16")
    # As Llama's own files: the post-processor puts <s> before the text, and tokenizer_config.json
    # says the same with add_bos_token (Hugging Face rebuilds the post-processor from it).
    tokenizer_json = dict(tokenizer_json, post_processor=LLAMA_POST_PROCESSOR)
    write_json(os.path.join(d, "tokenizer.json"), tokenizer_json)
    write_json(os.path.join(d, "tokenizer_config.json"),
               {"add_bos_token": True, "add_eos_token": False, "bos_token": "<s>", "eos_token": "</s>",
                "unk_token": "<unk>", "tokenizer_class": "LlamaTokenizer"})
    prompt = [1] + encode("the quick brown fox")
    write_json(os.path.join(d, "expected.json"),
               expected(lambda ids: llama_forward(w, cfg, ids, rope_half), prompt, encode))


def make_llama2c(gen):
    pieces, scores, _, _, encode_by_score = sentencepiece_tokenizer()
    dim, hidden, layers, heads, kv_heads, seq = 16, 40, 2, 4, 2, 64
    V, KV, hd = len(pieces), kv_heads * 16 // heads, 16 // heads
    cfg = {"hidden_size": dim, "num_attention_heads": heads, "num_key_value_heads": kv_heads,
           "num_hidden_layers": layers, "rms_norm_eps": 1e-5, "rope_theta": 10000.0,
           "tie_word_embeddings": False}
    w = {"model.embed_tokens.weight": randn(gen, V, dim)}
    order = []
    for l in range(layers):
        p = f"model.layers.{l}."
        w[p + "input_layernorm.weight"] = 1 + randn(gen, dim, std=0.1)
        w[p + "self_attn.q_proj.weight"] = randn(gen, dim, dim)
        w[p + "self_attn.k_proj.weight"] = randn(gen, KV, dim)
        w[p + "self_attn.v_proj.weight"] = randn(gen, KV, dim)
        w[p + "self_attn.o_proj.weight"] = randn(gen, dim, dim)
        w[p + "post_attention_layernorm.weight"] = 1 + randn(gen, dim, std=0.1)
        w[p + "mlp.gate_proj.weight"] = randn(gen, hidden, dim)  # w1
        w[p + "mlp.down_proj.weight"] = randn(gen, dim, hidden, std=0.15)  # w2
        w[p + "mlp.up_proj.weight"] = randn(gen, hidden, dim)  # w3
    w["model.norm.weight"] = 1 + randn(gen, dim, std=0.1)
    w["lm_head.weight"] = randn(gen, V, dim)
    w = {k: v.float().double() for k, v in w.items()}
    for name in ["input_layernorm", "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                 "self_attn.o_proj", "post_attention_layernorm", "mlp.gate_proj",
                 "mlp.down_proj", "mlp.up_proj"]:
        order += [w[f"model.layers.{l}.{name}.weight"] for l in range(layers)]
    cos, sin = rope_tables(seq, hd, 10000.0)
    d = os.path.join(OUT, "llama2c")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.bin"), "wb") as f:
        f.write(struct.pack("<7i", dim, hidden, layers, heads, kv_heads, -V, seq))  # -V: separate wcls
        for t in [w["model.embed_tokens.weight"]] + order + [w["model.norm.weight"], cos, sin,
                                                               w["lm_head.weight"]]:
            f.write(t.float().numpy().astype("<f4").tobytes())
    with open(os.path.join(d, "tokenizer.bin"), "wb") as f:
        texts = [p.replace(SPACE, " ").encode() for p in pieces]
        texts[1], texts[2] = b"\n<s>\n", b"\n</s>\n"  # as llama2.c's export writes them
        f.write(struct.pack("<i", max(len(t) for t in texts)))
        for t, s in zip(texts, scores):
            f.write(struct.pack("<fi", s, len(t)) + t)
    prompt = [1] + encode_by_score("the quick brown fox")
    write_json(os.path.join(d, "expected.json"),
               expected(lambda ids: llama_forward(w, cfg, ids, rope_adjacent), prompt, encode_by_score))


def main():
    make_gpt2(torch.Generator().manual_seed(2))
    make_llama(torch.Generator().manual_seed(3))
    make_llama2c(torch.Generator().manual_seed(4))
    total = 0
    for dirpath, _, names in os.walk(OUT):
        for n in names:
            total += os.path.getsize(os.path.join(dirpath, n))
    print(f"wrote {OUT}: {total} bytes")


if __name__ == "__main__":
    main()
