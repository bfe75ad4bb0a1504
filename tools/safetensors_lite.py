"""A minimal safetensors reader/writer for F32 tensors (see docs/FORMAT.md).

Debian ships no Python `safetensors` package, and the fixtures only ever need little-endian
float32, so this covers exactly that subset. Output is byte-for-byte deterministic: tensors are
written in the order given and the JSON header is compact, which keeps regenerated fixtures
identical in git.
"""
import json
import struct

import numpy as np

_ALIGN = 8
_MAX_HEADER = 100 * 1024 * 1024


_NUMPY_DTYPES = {"F32": "<f4", "F16": "<f2"}


def _as_bytes(value, dtype="F32"):
    """Little-endian bytes (float32, or float16 for dtype F16) and shape of a torch tensor,
    numpy array or number list."""
    if hasattr(value, "detach"):  # torch.Tensor, without importing torch here
        value = value.detach().cpu().double().numpy()
    array = np.ascontiguousarray(np.asarray(value, dtype=_NUMPY_DTYPES[dtype]))
    return array.tobytes(), list(array.shape)


def _padded_header(header):
    """UTF-8 JSON header, padded with spaces so the data section starts 8-byte aligned."""
    raw = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return raw + b" " * (-len(raw) % _ALIGN)


def save(path, tensors, metadata=None, dtype="F32"):
    """Write `tensors` (name -> tensor/array, in insertion order) and string `metadata`, every
    tensor as `dtype` (F32, or F16 for the imported-model fixtures)."""
    header, chunks, offset = {}, [], 0
    if metadata is not None:
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise ValueError("safetensors metadata must map strings to strings")
        header["__metadata__"] = dict(metadata)
    for name, value in tensors.items():
        data, shape = _as_bytes(value, dtype)
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    head = _padded_header(header)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(head)))
        f.write(head)
        for chunk in chunks:
            f.write(chunk)


def _check_entry(name, entry, expected_begin, data_len):
    if set(entry) != {"dtype", "shape", "data_offsets"}:
        raise ValueError(f"{name}: tensor entry needs exactly dtype, shape, data_offsets")
    if entry["dtype"] != "F32":
        raise ValueError(f"{name}: only F32 is supported, got {entry['dtype']}")
    begin, end = entry["data_offsets"]
    count = int(np.prod(entry["shape"], dtype=np.int64))
    # FORMAT.md forbids gaps and overlaps, so each tensor must start where the last ended.
    if begin != expected_begin or end - begin != 4 * count or end > data_len:
        raise ValueError(f"{name}: bad data_offsets {entry['data_offsets']}")
    return begin, end


def load(path):
    """Read a file written by `save` (or any F32-only safetensors file).

    Returns (tensors, metadata): tensors maps name -> float32 numpy array in file order.
    """
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise ValueError("file shorter than 8 bytes")
    (n,) = struct.unpack("<Q", blob[:8])
    if n > _MAX_HEADER or 8 + n > len(blob):
        raise ValueError("header length out of range")
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    if not isinstance(header, dict):
        raise ValueError("header is not a JSON object")
    metadata = header.pop("__metadata__", {})
    data = memoryview(blob)[8 + n:]
    tensors, cursor = {}, 0
    for name, entry in header.items():
        begin, cursor = _check_entry(name, entry, cursor, len(data))
        array = np.frombuffer(data[begin:cursor], dtype="<f4").reshape(entry["shape"])
        tensors[name] = array.copy()
    if cursor != len(data):
        raise ValueError("trailing bytes after the last tensor")
    return tensors, metadata


def load_torch(path):
    """Like `load`, but the tensors are torch.float32 tensors (handy for load_state_dict)."""
    import torch
    tensors, metadata = load(path)
    return {k: torch.from_numpy(v) for k, v in tensors.items()}, metadata
