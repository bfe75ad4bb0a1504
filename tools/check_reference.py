"""Self-checks of the PyTorch reference (tools/reference_model.py) and of the fixtures.

The fixtures are only as good as the reference, so before the C++ side is asked to match them
this verifies the reference against independent statements of MODEL.md: finite-difference
gradients, causality, padding, window and GQA invariants, RoPE relativity, PyTorch's own
cross-entropy / GELU / LayerNorm / MultiheadAttention, the FORMAT.md tensor names, and that
the committed fixtures are byte-identical to a fresh regeneration.
Run: /usr/bin/python3 tools/check_reference.py   (exits non-zero on any failure)
"""
import json
import math
import os
import sys
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.stateless import functional_call

sys.dont_write_bytecode = True  # keep tools/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_fixtures as mf  # noqa: E402
import reference_model as rm  # noqa: E402
import safetensors_lite  # noqa: E402

RESULTS = []


def check(name, ok, detail=""):
    RESULTS.append(ok)
    print(f"[{'PASS' if ok else 'FAIL'}] {name}" + (f" — {detail}" if detail else ""))


def fixture_model(index, double=True):
    """Model, inputs and targets exactly as make_fixtures builds fixture `index`."""
    spec = mf.FIXTURES[index]
    cfg = rm.Config(**spec["cfg"])
    gen = torch.Generator().manual_seed(1000 + index)
    model = rm.Transformer(cfg)
    mf.init_weights(model, gen)
    inputs, targets = mf.make_batch(spec, cfg, gen)
    return (model.double() if double else model), inputs, targets, spec


def run(model, inputs):
    if "ids" in inputs:
        return model(inputs["ids"])
    return model(inputs["src"], inputs["dec_in"])


def max_diff(a, b):
    return (a - b).abs().max().item()


# ---------------------------------------------------------------- gradients


def gradcheck_fixture(index, fast):
    model, inputs, targets, spec = fixture_model(index)
    names = [n for n, _ in model.named_parameters()]
    params = tuple(p.detach().clone().requires_grad_(True) for p in model.parameters())
    smoothing = spec.get("smoothing", 0.0)

    def loss_of(*ps):
        logits = functional_call(model, dict(zip(names, ps)), tuple(_args(inputs)))
        return rm.cross_entropy(logits, targets, smoothing)

    ok = torch.autograd.gradcheck(loss_of, params, eps=1e-6, atol=1e-6, rtol=1e-4,
                                  fast_mode=fast, raise_exception=False)
    n = sum(p.numel() for p in params)
    check(f"gradcheck {'fast' if fast else 'full'} {spec['name']}", ok, f"{n} parameters")


def _args(inputs):
    return [inputs["ids"]] if "ids" in inputs else [inputs["src"], inputs["dec_in"]]


# ---------------------------------------------------------------- invariants


def check_causal():
    """Changing token k must leave every decoder logit before k bit-identical."""
    worst_ok = True
    for i, spec in enumerate(mf.FIXTURES):
        if spec["cfg"]["arch"] == "encoder-only":
            continue
        model, inputs, _, _ = fixture_model(i)
        key = "ids" if "ids" in inputs else "dec_in"
        base = run(model, inputs).detach()
        for k in range(1, inputs[key].shape[1]):
            changed = {n: v.clone() for n, v in inputs.items()}
            changed[key][:, k] = torch.where(changed[key][:, k] == 7, 8, 7)
            out = run(model, changed).detach()
            worst_ok &= torch.equal(out[:, :k], base[:, :k])
    check("causal: earlier decoder logits ignore later tokens (all decoder fixtures)", worst_ok)


def _unpadded_row(inputs, b):
    """Row b alone, with its trailing <PAD> cut off, plus its lengths."""
    out = {}
    for name, ids in inputs.items():
        n = int((ids[b] != rm.PAD).sum())
        out[name] = ids[b:b + 1, :n]
    return out


def check_padding():
    """A padded row must give the same outputs at its real positions as that row run alone."""
    worst = 0.0
    for i, spec in enumerate(mf.FIXTURES):
        model, inputs, _, _ = fixture_model(i)
        full = run(model, inputs).detach()
        for b in range(full.shape[0]):
            alone = run(model, _unpadded_row(inputs, b)).detach()
            if full.dim() == 2:  # cls / mean: one vector per row
                worst = max(worst, max_diff(full[b], alone[0]))
            else:
                worst = max(worst, max_diff(full[b, :alone.shape[1]], alone[0]))
    check("padding: padded batch == each row alone, at real positions (all fixtures)",
          worst < 1e-12, f"max |diff| {worst:.2e}")


def _allowed_by_hand(cfg, layer, key_ids, b, t, u, causal):
    """MODEL.md's disallowed list, one (t, u) pair at a time."""
    if key_ids[b, u] == rm.PAD or (causal and u > t):
        return False
    if cfg.is_local(layer) and abs(t - u) >= cfg.window:
        return t < cfg.global_tokens or u < cfg.global_tokens
    return True


def check_masks():
    """Every probability that MODEL.md disallows is exactly 0; allowed rows sum to 1."""
    bad, empty_rows, sums_ok = 0, 0, True
    for i, spec in enumerate(mf.FIXTURES):
        model, inputs, _, _ = fixture_model(i)
        run(model, inputs)
        cfg = model.cfg
        stacks = []
        if hasattr(model, "enc"):
            stacks.append((model.enc, inputs.get("ids", inputs.get("src")), False))
        if hasattr(model, "dec"):
            stacks.append((model.dec, inputs.get("ids", inputs.get("dec_in")), True))
        for stack, ids, causal in stacks:
            for layer in range(cfg.n_layers):
                probs = stack.layer(layer).self_attn.last_probs
                B, H, T, S = probs.shape
                for b in range(B):
                    for t in range(T):
                        row_allowed = [_allowed_by_hand(cfg, layer, ids, b, t, u, causal)
                                       for u in range(S)]
                        for u in range(S):
                            if not row_allowed[u]:
                                bad += int((probs[b, :, t, u] != 0).sum())
                        total = probs[b, :, t].sum(-1)
                        if any(row_allowed):
                            sums_ok &= bool(((total - 1).abs() < 1e-12).all())
                        else:
                            empty_rows += 1
                            sums_ok &= bool((probs[b, :, t] == 0).all())
    check("masks: disallowed probabilities (PAD, causal, window/global) are exactly 0",
          bad == 0, f"{bad} nonzero")
    check("masks: allowed rows sum to 1, rows with no allowed key are all zeros",
          sums_ok and empty_rows > 0, f"{empty_rows} empty rows seen")


def check_cross_attention_mask():
    worst = 0.0
    for i, spec in enumerate(mf.FIXTURES):
        if spec["cfg"]["arch"] != "encoder-decoder":
            continue
        model, inputs, _, _ = fixture_model(i)
        run(model, inputs)
        pad = inputs["src"] == rm.PAD
        for layer in range(model.cfg.n_layers):
            probs = model.dec.layer(layer).cross_attn.last_probs
            worst = max(worst, probs.permute(0, 2, 1, 3)[pad[:, None, None, :]
                                                         .expand(-1, probs.shape[2],
                                                                 probs.shape[1], -1)]
                        .abs().max().item())
    check("cross-attention: source <PAD> keys get exactly 0 probability", worst == 0.0)


def check_empty_rows_gradients():
    model, inputs, targets, spec = fixture_model(4)
    logits = run(model, inputs)
    loss = rm.cross_entropy(logits, targets)
    loss.backward()
    finite = torch.isfinite(logits).all() and all(torch.isfinite(p.grad).all()
                                                  for p in model.parameters())
    check("fully masked rows: outputs and gradients are finite (no NaN)", bool(finite),
          spec["name"])


def _copy_gqa_into_mha(gqa, mha, cfg):
    """MHA weights whose kv head h is GQA kv head h // (H/G): must compute the same function."""
    group, dh = cfg.n_heads // cfg.n_kv_heads, cfg.head_dim
    sd = {}
    for name, t in gqa.state_dict().items():
        if (".k." in name or ".v." in name) and "attn" in name:
            heads = t.reshape(cfg.n_kv_heads, dh, *t.shape[1:])
            t = heads.repeat_interleave(group, dim=0).reshape(cfg.n_heads * dh, *t.shape[1:])
        sd[name] = t
    mha.load_state_dict(sd)


def check_gqa():
    worst = 0.0
    for i, spec in enumerate(mf.FIXTURES):
        cfg_d = dict(spec["cfg"])
        if cfg_d.get("n_kv_heads", cfg_d["n_heads"]) == cfg_d["n_heads"]:
            continue
        gqa, inputs, _, _ = fixture_model(i)
        mha = rm.Transformer(rm.Config(**dict(cfg_d, n_kv_heads=cfg_d["n_heads"]))).double()
        _copy_gqa_into_mha(gqa, mha, gqa.cfg)
        worst = max(worst, max_diff(run(gqa, inputs), run(mha, inputs)))
    check("GQA/MQA == MHA with kv head h//(H/G) duplicated (all GQA/MQA fixtures)",
          worst < 1e-12, f"max |diff| {worst:.2e}")


def check_mha_against_torch():
    """Our attention (n_kv_heads = n_heads, causal + key padding) vs nn.MultiheadAttention."""
    torch.manual_seed(0)
    cfg = rm.Config(d_model=12, n_heads=3, d_ff=8, n_layers=1, max_len=8)
    ours = rm.Attention(cfg, self_attention=True).double()
    theirs = nn.MultiheadAttention(12, 3, batch_first=True).double()
    with torch.no_grad():
        theirs.in_proj_weight.copy_(torch.cat([ours.q.weight, ours.k.weight, ours.v.weight]))
        theirs.in_proj_bias.copy_(torch.cat([ours.q.bias, ours.k.bias, ours.v.bias]))
        theirs.out_proj.weight.copy_(ours.o.weight)
        theirs.out_proj.bias.copy_(ours.o.bias)
    x = torch.randn(2, 6, 12, dtype=torch.float64)
    ids = torch.tensor([[7, 8, 9, 10, 11, 6], [7, 8, 9, 2, 2, 2]])
    allowed = rm.key_padding_mask(ids) & rm.causal_mask(6, 6)
    mine = ours(x, x, allowed)
    ref, _ = theirs(x, x, x, key_padding_mask=ids == rm.PAD,
                    attn_mask=~rm.causal_mask(6, 6)[0], need_weights=False)
    check("MHA matches nn.MultiheadAttention (causal + key padding)",
          max_diff(mine, ref) < 1e-12, f"max |diff| {max_diff(mine, ref):.2e}")


# ---------------------------------------------------------------- positions


def check_rope():
    torch.manual_seed(1)
    dh = 8
    q = torch.randn(1, 1, 1, dh, dtype=torch.float64)
    k = torch.randn(1, 1, 1, dh, dtype=torch.float64)

    def dot(p_q, p_k):
        rq = rm.apply_rope(q, torch.tensor([p_q]))
        rk = rm.apply_rope(k, torch.tensor([p_k]))
        return (rq * rk).sum().item()

    spread = 0.0
    for d in (-5, -1, 0, 2, 7):
        values = [dot(p + d, p) for p in range(0, 30, 3) if p + d >= 0]
        spread = max(spread, max(values) - min(values))
    check("RoPE: rotated q·k depends only on the position difference",
          spread < 1e-12, f"max spread {spread:.2e}")

    # Independent statement: pair (2i, 2i+1) is the complex number q2i + i·q2i+1 times e^{i p θ}.
    p = 5
    z = torch.complex(q[..., 0::2], q[..., 1::2])
    theta = torch.tensor([10000.0 ** (-2 * i / dh) for i in range(dh // 2)], dtype=torch.float64)
    zr = z * torch.exp(1j * p * theta)
    expect = torch.stack((zr.real, zr.imag), dim=-1).flatten(-2)
    got = rm.apply_rope(q, torch.tensor([p]))
    check("RoPE: adjacent-pair rotation equals complex multiplication by e^{i p θ_i}",
          max_diff(got, expect) < 1e-14)


def check_alibi_and_sinusoids():
    slopes = rm.alibi_slopes(8).tolist()
    check("ALiBi slopes for H=8 are 1/2, 1/4, ..., 1/256",
          slopes == [2.0 ** -(h + 1) for h in range(8)])
    bias = rm.alibi_bias(4, 3, 5, torch.float64)[0]
    expect = torch.tensor([[[-(2.0 ** (-8 * (h + 1) / 4)) * abs(t - u) for u in range(5)]
                            for t in range(3)] for h in range(4)], dtype=torch.float64)
    check("ALiBi bias is -m_h |t-u|", torch.equal(bias, expect))
    d = 9
    table = rm.sinusoidal_table(6, d)
    expect = torch.tensor([[math.sin(t / 10000 ** (2 * (j // 2) / d)) if j % 2 == 0 else
                            math.cos(t / 10000 ** (2 * (j // 2) / d)) for j in range(d)]
                           for t in range(6)], dtype=torch.float64)
    check("sinusoidal table (odd D=9, last column a sine)", max_diff(table, expect) < 1e-15)


# ---------------------------------------------------------------- small pieces vs PyTorch


def check_pieces():
    torch.manual_seed(2)
    z = torch.randn(50, dtype=torch.float64) * 3
    check("gelu_tanh == F.gelu(approximate='tanh')",
          max_diff(rm.gelu_tanh(z), F.gelu(z, approximate="tanh")) < 1e-14)
    cfg = rm.Config(d_model=6, n_heads=2, norm_eps=1e-5)
    norm = rm.Norm(cfg).double()
    with torch.no_grad():
        norm.weight.normal_()
        norm.bias.normal_()
    x = torch.randn(4, 6, dtype=torch.float64)
    ref = F.layer_norm(x, (6,), norm.weight, norm.bias, 1e-5)
    check("LayerNorm == F.layer_norm", max_diff(norm(x), ref) < 1e-14)

    logits = torch.randn(3, 5, 7, dtype=torch.float64)
    targets = torch.randint(0, 7, (3, 5))
    targets[0, 2:] = -1
    targets[2, 0] = -1
    for eps in (0.0, 0.1, 0.3):
        ref = F.cross_entropy(logits.reshape(-1, 7), targets.reshape(-1), ignore_index=-1,
                              label_smoothing=eps)
        check(f"cross_entropy == F.cross_entropy(ignore_index=-1, label_smoothing={eps})",
              abs(rm.cross_entropy(logits, targets, eps).item() - ref.item()) < 1e-14)


# ---------------------------------------------------------------- FORMAT.md names


def _linear(prefix, bias):
    return [f"{prefix}.weight"] + ([f"{prefix}.bias"] if bias else [])


def _norm(prefix, cfg):
    return [f"{prefix}.weight"] + ([f"{prefix}.bias"] if cfg.norm == "layer" else [])


def _attn(prefix, cfg):
    return sum((_linear(f"{prefix}.{p}", cfg.bias) for p in "qkvo"), [])


def _ffn(prefix, cfg):
    parts = ["up", "gate", "down"] if cfg.ffn == "swiglu" else ["up", "down"]
    return sum((_linear(f"{prefix}.{p}", cfg.bias) for p in parts), [])


def expected_names(cfg):
    """FORMAT.md's table, written out independently of the module."""
    names = ["tok_emb.weight"] + (["pos_emb.weight"] if cfg.pos == "learned" else [])
    cross = cfg.arch == "encoder-decoder"
    for stack in (["enc"] if cfg.arch != "decoder-only" else []) + \
                 (["dec"] if cfg.arch != "encoder-only" else []):
        for i in range(cfg.n_layers):
            p = f"{stack}.{i}"
            names += _attn(f"{p}.self_attn", cfg) + _norm(f"{p}.norm1", cfg)
            if stack == "dec" and cross:
                names += _attn(f"{p}.cross_attn", cfg) + _norm(f"{p}.norm2", cfg)
                names += _ffn(f"{p}.ffn", cfg) + _norm(f"{p}.norm3", cfg)
            else:
                names += _ffn(f"{p}.ffn", cfg) + _norm(f"{p}.norm2", cfg)
        if cfg.norm_placement == "pre":
            names += _norm(f"{stack}.final_norm", cfg)
    if cfg.head in ("lm", "mlm") and not cfg.tie_embeddings:
        names.append("lm_head.weight")
    if cfg.head in ("cls", "mean"):
        names += ["cls_head.weight", "cls_head.bias"]
    if cfg.head == "token":
        names += ["token_head.weight", "token_head.bias"]
    return names


def expected_shape(name, cfg):
    D, F_, V, C, L = cfg.d_model, cfg.d_ff, cfg.vocab_size, cfg.n_classes, cfg.max_len
    kv = cfg.n_kv_heads * cfg.head_dim
    last = name.rsplit(".", 2)[-2]
    bias = name.endswith(".bias")
    table = {"tok_emb": [V, D], "pos_emb": [L, D], "lm_head": [V, D],
             "q": [D] if bias else [D, D], "k": [kv] if bias else [kv, D],
             "v": [kv] if bias else [kv, D], "o": [D] if bias else [D, D],
             "up": [F_] if bias else [F_, D], "gate": [F_] if bias else [F_, D],
             "down": [D] if bias else [D, F_],
             "cls_head": [C] if bias else [C, D], "token_head": [C] if bias else [C, D]}
    return table.get(last, [D])  # anything else is a norm


def check_fixture_files():
    """Every fixture: names/shapes per FORMAT.md, metadata, and outputs reproducible."""
    names_ok, meta_ok, worst = True, True, 0.0
    for spec in mf.FIXTURES:
        path = os.path.join(mf.OUT_DIR, spec["name"] + ".safetensors")
        tensors, meta = safetensors_lite.load_torch(path)
        config = json.loads(meta["config"])
        meta_ok &= list(config) == mf.CONFIG_KEYS and set(meta) == {
            "config", "label_smoothing", "description"} and config["dropout"] == 0
        cfg = rm.Config.from_dict(config)
        want = expected_names(cfg)
        params = [n[len("param."):] for n in tensors if n.startswith("param.")]
        grads = [n[len("grad."):] for n in tensors if n.startswith("grad.")]
        names_ok &= params == want and grads == want
        names_ok &= all(list(tensors["param." + n].shape) == expected_shape(n, cfg) for n in want)
        worst = max(worst, _recompute_error(cfg, tensors, meta))
    check("fixtures: param./grad. names and shapes are FORMAT.md's, in table order", names_ok)
    check("fixtures: metadata keys and config JSON keys as specified", meta_ok)
    check("fixtures: reloading F32 params and recomputing gives the stored logits/loss/grads",
          worst < 1e-4, f"max relative error {worst:.2e}")


def _recompute_error(cfg, tensors, meta):
    model = rm.Transformer(cfg)
    model.load_state_dict({n[6:]: t for n, t in tensors.items() if n.startswith("param.")})
    model = model.double()
    inputs = {n[6:]: t.long() for n, t in tensors.items()
              if n.startswith("input.") and n != "input.targets"}
    logits = run(model, inputs)
    loss = rm.cross_entropy(logits, tensors["input.targets"].long(),
                            float(meta["label_smoothing"]))
    loss.backward()
    errs = [_rel(logits, tensors["output.logits"]), _rel(loss.reshape(1), tensors["output.loss"])]
    errs += [_rel(p.grad, tensors["grad." + n]) for n, p in model.named_parameters()]
    return max(errs)


def _rel(a, b):
    a, b = a.detach().double(), b.double()
    return ((a - b).abs().max() / b.abs().max().clamp_min(1e-30)).item()


def check_tied_and_determinism():
    model, _, _, _ = fixture_model(1)
    check("tied embeddings create no lm_head.weight",
          "lm_head.weight" not in model.state_dict() and model.cfg.tie_embeddings)
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        for i, spec in enumerate(mf.FIXTURES):
            fresh, _ = mf.build_fixture(i, spec, tmp)
            with open(fresh, "rb") as a, open(os.path.join(mf.OUT_DIR, os.path.basename(fresh)),
                                                  "rb") as b:
                same &= a.read() == b.read()
    check("fixtures regenerate byte-identically", same)


def check_safetensors_roundtrip():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.safetensors")
        data = {"a": torch.arange(6.0).reshape(2, 3), "b": torch.tensor([1.5]),
                "c": torch.zeros(0)}
        safetensors_lite.save(path, data, {"k": "v"})
        back, meta = safetensors_lite.load_torch(path)
        with open(path, "rb") as f:
            n = int.from_bytes(f.read(8), "little")
        ok = meta == {"k": "v"} and list(back) == ["a", "b", "c"] and n % 8 == 0
        ok &= all(torch.equal(back[k], v) for k, v in data.items())
    check("safetensors_lite round trip (order, metadata, 8-byte header padding)", ok)


def main():
    torch.set_num_threads(1)
    for index in (0, 1, 4, 7, 9, 14):  # finite differences for every parameter
        gradcheck_fixture(index, fast=False)
    for index in range(len(mf.FIXTURES)):
        gradcheck_fixture(index, fast=True)
    check_causal()
    check_padding()
    check_masks()
    check_cross_attention_mask()
    check_empty_rows_gradients()
    check_gqa()
    check_mha_against_torch()
    check_rope()
    check_alibi_and_sinusoids()
    check_pieces()
    check_safetensors_roundtrip()
    check_fixture_files()
    check_tied_and_determinism()
    failed = RESULTS.count(False)
    print(f"{len(RESULTS) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
