"""Export a benchmark shape's Hugging Face folder (F32) as ONNX with past key-values, for
onnxruntime-web: the same weights, the same math (GPT-2: LayerNorm, gelu_new, tied head;
Llama: RMSNorm, rotate-half RoPE with theta 1e4, SwiGLU, tied head), one decoder step of T new
tokens against P cached positions.

  inputs   input_ids int64 [1, T]; past_key_<l>, past_value_<l> float32 [1, H, P, dh] (P may be 0)
  outputs  logits float32 [1, T, V]; present_key_<l>, present_value_<l> [1, H, P + T, dh]

The modules are written here from the public definitions (as tools/make_import_fixtures.py
does); no Hugging Face code. torch.onnx.export (Debian's torch 1.13, opset 14) traces them with
T and P as dynamic axes.

  /usr/bin/python3 bench/import/export_onnx.py HF_FOLDER OUT.onnx
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch

torch.set_num_threads(1)


def read_safetensors_f32(path):
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        header.pop("__metadata__", None)
        data = f.read()
    out = {}
    for name, e in header.items():
        if e["dtype"] != "F32":
            raise SystemExit(f"{path}: {name} is {e['dtype']}; export from the F32 folder")
        begin, end = e["data_offsets"]
        out[name] = torch.from_numpy(np.frombuffer(data[begin:end], dtype="<f4").reshape(e["shape"]).copy())
    return out


def linear(x, weight):
    """x [T, in] · weight [out, in]ᵀ as one Gemm with transB, reading the weight's own initializer:
    torch exports a bias-free linear as MatMul of a Transpose, which constant folding turns into
    a transposed copy (for the tied head, a second copy of the embedding)."""
    return torch.nn.functional.linear(x, weight, torch.zeros(weight.shape[0]))


def attend(q, k, v, past):
    """q [1, H, T, dh], k/v [1, H, P+T, dh]: causal softmax attention, queries at P.. P+T-1."""
    t, s = q.shape[2], k.shape[2]
    allowed = torch.arange(s).unsqueeze(0) <= (torch.arange(t).unsqueeze(1) + past)
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, -1) @ v


class Gpt2(torch.nn.Module):
    def __init__(self, w, cfg):
        super().__init__()
        self.cfg = cfg
        self.w = torch.nn.ParameterDict({k.replace(".", "_"): torch.nn.Parameter(v, requires_grad=False)
                                         for k, v in w.items()})

    def p(self, name):
        return self.w[name.replace(".", "_")]

    def forward(self, input_ids, *past):
        cfg, D, H = self.cfg, self.cfg["n_embd"], self.cfg["n_head"]
        P = past[0].shape[2]
        T = input_ids.shape[1]
        eps = cfg["layer_norm_epsilon"]
        positions = torch.arange(T) + P
        x = self.p("wte.weight")[input_ids[0]] + self.p("wpe.weight")[positions]
        presents = []
        for l in range(cfg["n_layer"]):
            h = f"h.{l}."
            a = torch.nn.functional.layer_norm(x, (D,), self.p(h + "ln_1.weight"), self.p(h + "ln_1.bias"), eps)
            qkv = a @ self.p(h + "attn.c_attn.weight") + self.p(h + "attn.c_attn.bias")
            q, k, v = (m.reshape(T, H, D // H).transpose(0, 1).unsqueeze(0) for m in qkv.split(D, -1))
            k = torch.cat([past[2 * l], k], 2)
            v = torch.cat([past[2 * l + 1], v], 2)
            presents += [k, v]
            y = attend(q, k, v, P)[0].transpose(0, 1).reshape(T, D)
            x = x + y @ self.p(h + "attn.c_proj.weight") + self.p(h + "attn.c_proj.bias")
            m = torch.nn.functional.layer_norm(x, (D,), self.p(h + "ln_2.weight"), self.p(h + "ln_2.bias"), eps)
            m = m @ self.p(h + "mlp.c_fc.weight") + self.p(h + "mlp.c_fc.bias")
            m = 0.5 * m * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (m + 0.044715 * m * m * m)))
            x = x + m @ self.p(h + "mlp.c_proj.weight") + self.p(h + "mlp.c_proj.bias")
        x = torch.nn.functional.layer_norm(x, (D,), self.p("ln_f.weight"), self.p("ln_f.bias"), eps)
        return linear(x, self.p("wte.weight")).unsqueeze(0), *presents


class Llama(torch.nn.Module):
    def __init__(self, w, cfg):
        super().__init__()
        self.cfg = cfg
        self.w = torch.nn.ParameterDict({k.replace(".", "_"): torch.nn.Parameter(v, requires_grad=False)
                                         for k, v in w.items()})
        dh = cfg["hidden_size"] // cfg["num_attention_heads"]
        self.register_buffer("inv_freq", 1.0 / (cfg["rope_theta"] ** (torch.arange(0, dh, 2).float() / dh)))

    def p(self, name):
        return self.w[name.replace(".", "_")]

    def forward(self, input_ids, *past):
        cfg = self.cfg
        D, H, G = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_key_value_heads"]
        dh, eps = D // H, cfg["rms_norm_eps"]
        P = past[0].shape[2]
        T = input_ids.shape[1]
        angles = (torch.arange(T) + P).float().unsqueeze(1) * self.inv_freq.unsqueeze(0)  # [T, dh/2]
        cos, sin = torch.cat([angles.cos()] * 2, -1), torch.cat([angles.sin()] * 2, -1)

        def rope(x):  # x [1, heads, T, dh]: x cos + rotate_half(x) sin
            half = torch.cat([-x[..., dh // 2:], x[..., :dh // 2]], -1)
            return x * cos + half * sin

        def rms(x, weight):
            return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + eps) * weight

        x = self.p("model.embed_tokens.weight")[input_ids[0]]
        presents = []
        for l in range(cfg["num_hidden_layers"]):
            pre = f"model.layers.{l}."
            a = rms(x, self.p(pre + "input_layernorm.weight"))
            lin = linear
            q = lin(a, self.p(pre + "self_attn.q_proj.weight")).reshape(T, H, dh).transpose(0, 1).unsqueeze(0)
            k = lin(a, self.p(pre + "self_attn.k_proj.weight")).reshape(T, G, dh).transpose(0, 1).unsqueeze(0)
            v = lin(a, self.p(pre + "self_attn.v_proj.weight")).reshape(T, G, dh).transpose(0, 1).unsqueeze(0)
            q, k = rope(q), rope(k)
            k = torch.cat([past[2 * l], k], 2)
            v = torch.cat([past[2 * l + 1], v], 2)
            presents += [k, v]
            if H != G:  # GQA: each key/value head serves H / G query heads
                k, v = k.repeat_interleave(H // G, 1), v.repeat_interleave(H // G, 1)
            y = attend(q, k, v, P)
            x = x + lin(y[0].transpose(0, 1).reshape(T, D), self.p(pre + "self_attn.o_proj.weight"))
            m = rms(x, self.p(pre + "post_attention_layernorm.weight"))
            gate = lin(m, self.p(pre + "mlp.gate_proj.weight"))
            up = lin(m, self.p(pre + "mlp.up_proj.weight"))
            x = x + lin(torch.nn.functional.silu(gate) * up, self.p(pre + "mlp.down_proj.weight"))
        x = rms(x, self.p("model.norm.weight"))
        return linear(x, self.p("model.embed_tokens.weight")).unsqueeze(0), *presents


def main():
    folder, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    w = read_safetensors_f32(os.path.join(folder, "model.safetensors"))
    if cfg["model_type"] == "gpt2":
        model, layers, kv_heads, dh = Gpt2(w, cfg), cfg["n_layer"], cfg["n_head"], cfg["n_embd"] // cfg["n_head"]
    else:
        model, layers = Llama(w, cfg), cfg["num_hidden_layers"]
        kv_heads, dh = cfg["num_key_value_heads"], cfg["hidden_size"] // cfg["num_attention_heads"]
    model.eval()
    ids = torch.tensor([[1, 2]], dtype=torch.int64)
    past = [torch.zeros(1, kv_heads, 3, dh) for _ in range(2 * layers)]
    past_names = [f"past_{kind}_{l}" for l in range(layers) for kind in ("key", "value")]
    present_names = [f"present_{kind}_{l}" for l in range(layers) for kind in ("key", "value")]
    axes = {"input_ids": {1: "tokens"}, "logits": {1: "tokens"}}
    axes.update({n: {2: "past"} for n in past_names})
    axes.update({n: {2: "total"} for n in present_names})
    tmp = out + ".tmp"
    with torch.no_grad():
        torch.onnx.export(model, (ids, *past), tmp, input_names=["input_ids", *past_names],
                          output_names=["logits", *present_names], dynamic_axes=axes, opset_version=14,
                          do_constant_folding=True)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
