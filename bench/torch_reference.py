"""Peer benchmark: the reference model trained by PyTorch.

Decoder-only, d_model 128, 4 heads, 2 layers, d_ff 512 (GELU, tanh form), seq 64, batch 16,
vocab 65, learned positions, pre-LayerNorm, untied head, AdamW (betas 0.9/0.98, decay on weights
only) with gradient clipping at 1.0 — the model and step `tp_bench train` measures, written the
way a PyTorch user would (nn.Linear, nn.LayerNorm, F.gelu). Random token windows as data.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/torch_reference.py [STEPS] [--threads N] [--seq N] [--batch N]

--threads N is torch.set_num_threads(N) (intra-op threads, OpenMP in Debian's build); OpenBLAS
has a thread pool of its own, sized by OPENBLAS_NUM_THREADS (1 unless the environment says
otherwise). scripts/bench.mjs tries each reasonable set-up — intra-op 1/2, OpenBLAS 1/2,
OMP_WAIT_POLICY=PASSIVE, OPENBLAS_CORETYPE as the machine sets it or unset — and keeps the best.
--seq and --batch change the sequence length and batch as `tp_bench train` does. Prints one
JSON line: {"bench": "train", "impl": "pytorch", "threads", "seq_len", "tokens_per_s",
"step_ms", "step_ms_all", "blas", "openblas", ...}; step_ms is the median of STEPS (default 30)
timed steps after 5 warm-up steps.
"""
import json
import math
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def option(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


VOCAB, D, H, LAYERS, FF = 65, 128, 4, 2, 512
SEQ, BATCH, THREADS = option("--seq", 64), option("--batch", 16), option("--threads", 1)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.q, self.k, self.v, self.o = (nn.Linear(D, D) for _ in range(4))
        self.up, self.down = nn.Linear(D, FF), nn.Linear(FF, D)
        self.register_buffer("mask", torch.full((SEQ, SEQ), float("-inf")).triu(1))

    def forward(self, x):
        B, T, _ = x.shape
        h = self.norm1(x)
        split = lambda t: t.view(B, T, H, D // H).transpose(1, 2)  # noqa: E731  [B, H, T, dh]
        q, k, v = split(self.q(h)), split(self.k(h)), split(self.v(h))
        scores = q @ k.transpose(-2, -1) / math.sqrt(D // H) + self.mask[:T, :T]
        attn = (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
        x = x + self.o(attn)
        return x + self.down(F.gelu(self.up(self.norm2(x)), approximate="tanh"))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(SEQ, D)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.final_norm = nn.LayerNorm(D)
        self.head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, ids):
        x = self.tok(ids) + self.pos.weight[: ids.shape[1]]
        for block in self.blocks:
            x = block(x)
        return self.head(self.final_norm(x))


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else 30
    torch.set_num_threads(THREADS)
    torch.manual_seed(1)
    model = Model()
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    other = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": other, "weight_decay": 0.0}],
                            lr=3e-3, betas=(0.9, 0.98), eps=1e-8)
    stream = torch.randint(6, VOCAB, (1 << 16,))

    def step():
        starts = torch.randint(0, stream.numel() - SEQ - 1, (BATCH,))
        window = torch.stack([stream[s: s + SEQ + 1] for s in starts.tolist()])
        logits = model(window[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), window[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return loss.item()

    for _ in range(5):
        step()
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        loss = step()
        times.append(time.perf_counter() - start)
    ms = 1000 * statistics.median(times)
    blas, openblas = blas_in_use()
    print(json.dumps({"bench": "train", "impl": "pytorch", "torch": torch.__version__, "threads": torch.get_num_threads(),
                      "seq_len": SEQ, "batch": BATCH, "blas": blas, "openblas": openblas,
                      "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
                      "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
                      "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE"),
                      "tokens_per_step": BATCH * SEQ, "steps": steps, "tokens_per_s": round(BATCH * SEQ / (ms / 1000), 1),
                      "step_ms": round(ms, 3), "loss": round(loss, 4),
                      "step_ms_all": [round(1000 * t, 3) for t in times]}))


def blas_in_use():
    """The BLAS library torch calls, and OpenBLAS's own description of itself (version, the
    kernels it chose for this CPU) when it is OpenBLAS. Debian's torch calls whatever
    libblas.so.3 points at: OpenBLAS, or the (much slower) netlib reference BLAS when
    libopenblas0 is not installed; the figure cannot be read without knowing which."""
    import ctypes
    path = os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")
    try:
        lib = ctypes.CDLL(path)
        lib.openblas_get_config.restype = ctypes.c_char_p
        lib.openblas_get_corename.restype = ctypes.c_char_p
        return path, {"config": lib.openblas_get_config().decode(), "core": lib.openblas_get_corename().decode()}
    except (OSError, AttributeError):
        return path, None


if __name__ == "__main__":
    main()
