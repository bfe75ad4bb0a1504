// hostile_models.mjs — model folders a hostile user would write, for the import tests that
// measure what a refusal costs: the CLI (native_tests/cli_hostile_test.cmake, through
// `node native_tests/hostile_models.mjs OUTDIR NAME`) and tp.importModel in Node
// (wasm_tests/import_limits.test.mjs, through `hostileModel(name)`).
//
// Each case is a set of files { name: Uint8Array } built from a tiny valid model — GPT-2 (byte-level
// BPE, 260 tokens) or Llama (SentencePiece with byte fallback, 262 pieces), written here from
// their layouts (docs/FORMAT.md "Imported models") — with one thing made hostile, and the message
// its refusal must give. `bytes` of a case is what its files hold in all: the budget of a refusal
// is 2 × bytes + 64 MB.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const encoder = new TextEncoder();
const text = (s) => encoder.encode(s);
const json = (v) => text(JSON.stringify(v));

// A deterministic stream of small numbers (weights need not be good, only finite).
function filler(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) / 4294967296 - 0.5) * 0.2;
  };
}

const DTYPE_BYTES = { F32: 4, F16: 2, BF16: 2 };

function encodeValue(view, offset, dtype, v) {
  if (dtype === 'F32') return view.setFloat32(offset, v, true);
  const f32 = new DataView(new ArrayBuffer(4));
  f32.setFloat32(0, v, true);
  const bits = f32.getUint32(0, true);
  if (dtype === 'BF16') return view.setUint16(offset, bits >>> 16, true);
  // F16 (values here are small and finite, or ±inf / NaN written as such)
  const sign = (bits >>> 16) & 0x8000;
  if (!Number.isFinite(v)) return view.setUint16(offset, sign | (Number.isNaN(v) ? 0x7e00 : 0x7c00), true);
  const exp = ((bits >>> 23) & 0xff) - 127 + 15;
  const mant = (bits >>> 13) & 0x3ff;
  view.setUint16(offset, exp <= 0 ? sign : sign | (exp << 10) | mant, true);
}

// tensors: [[name, shape, dtype, values | null (filler)]] -> safetensors bytes.
export function safetensors(tensors, seed = 1) {
  const next = filler(seed);
  const header = {};
  let offset = 0;
  for (const [name, shape, dtype] of tensors) {
    const size = shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[dtype];
    header[name] = { dtype, shape, data_offsets: [offset, offset + size] };
    offset += size;
  }
  let head = JSON.stringify(header);
  head += ' '.repeat((8 - (head.length % 8)) % 8);
  const headBytes = text(head);
  const out = new Uint8Array(8 + headBytes.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(headBytes.length), true);
  out.set(headBytes, 8);
  let at = 8 + headBytes.length;
  for (const [, shape, dtype, values] of tensors) {
    const n = shape.reduce((a, b) => a * b, 1);
    for (let i = 0; i < n; ++i, at += DTYPE_BYTES[dtype]) encodeValue(view, at, dtype, values ? values[i] : next());
  }
  return out;
}

// GPT-2's byte -> code point map (the 188 printable Latin-1 bytes stand for themselves).
function byteToUnicode() {
  const map = [];
  let next = 256;
  for (let b = 0; b < 256; ++b) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    map.push(String.fromCodePoint(printable ? b : next++));
  }
  return map;
}

// A tiny GPT-2: 260 tokens (256 bytes, 3 merges, <|endoftext|>), d_model 8, one layer.
export function gpt2({ dtype = 'F32' } = {}) {
  const V = 260, D = 8, T = 16, F = 32;
  const tokens = [...byteToUnicode(), 'ab', 'Ġt', 'he', '<|endoftext|>'];
  const vocab = Object.fromEntries(tokens.map((t, i) => [t, i]));
  const merges = ['a b', 'Ġ t', 'h e'];
  const config = {
    model_type: 'gpt2', vocab_size: V, n_positions: T, n_embd: D, n_layer: 1, n_head: 2, n_inner: F,
    activation_function: 'gelu_new', layer_norm_epsilon: 1e-5, bos_token_id: V - 1, eos_token_id: V - 1,
  };
  const weights = [
    ['wte.weight', [V, D]], ['wpe.weight', [T, D]],
    ['h.0.ln_1.weight', [D]], ['h.0.ln_1.bias', [D]],
    ['h.0.attn.c_attn.weight', [D, 3 * D]], ['h.0.attn.c_attn.bias', [3 * D]],
    ['h.0.attn.c_proj.weight', [D, D]], ['h.0.attn.c_proj.bias', [D]],
    ['h.0.ln_2.weight', [D]], ['h.0.ln_2.bias', [D]],
    ['h.0.mlp.c_fc.weight', [D, F]], ['h.0.mlp.c_fc.bias', [F]],
    ['h.0.mlp.c_proj.weight', [F, D]], ['h.0.mlp.c_proj.bias', [D]],
    ['ln_f.weight', [D]], ['ln_f.bias', [D]],
  ].map(([n, s]) => [n, s, dtype]);
  const tokenizer = {
    version: '1.0', added_tokens: [{ id: V - 1, content: '<|endoftext|>', special: true }], normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    decoder: { type: 'ByteLevel' }, model: { type: 'BPE', dropout: null, unk_token: null, vocab, merges },
  };
  return { config, weights, tokenizer, vocab, merges };
}

// A tiny Llama: 262 pieces (<unk> <s> </s>, 256 byte pieces, ▁ a ▁a), d_model 8, one layer;
// `ordinary` replaces everything after the three specials.
export function llama({ dtype = 'BF16', ordinary = null } = {}) {
  const D = 8, F = 16;
  const pieces = ['<unk>', '<s>', '</s>'];
  if (ordinary) {
    pieces.push(...ordinary);
  } else {
    for (let b = 0; b < 256; ++b) pieces.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    pieces.push('▁', 'a', '▁a');
  }
  const V = pieces.length;
  const config = {
    model_type: 'llama', vocab_size: V, hidden_size: D, intermediate_size: F, num_hidden_layers: 1,
    num_attention_heads: 2, num_key_value_heads: 1, max_position_embeddings: 16, rms_norm_eps: 1e-6,
    bos_token_id: 1, eos_token_id: 2, tie_word_embeddings: false,
  };
  const l = 'model.layers.0.';
  const weights = [
    ['model.embed_tokens.weight', [V, D]], [`${l}input_layernorm.weight`, [D]],
    [`${l}self_attn.q_proj.weight`, [D, D]], [`${l}self_attn.k_proj.weight`, [D / 2, D]],
    [`${l}self_attn.v_proj.weight`, [D / 2, D]], [`${l}self_attn.o_proj.weight`, [D, D]],
    [`${l}post_attention_layernorm.weight`, [D]], [`${l}mlp.gate_proj.weight`, [F, D]],
    [`${l}mlp.up_proj.weight`, [F, D]], [`${l}mlp.down_proj.weight`, [D, F]],
    ['model.norm.weight', [D]], ['lm_head.weight', [V, D]],
  ].map(([n, s]) => [n, s, dtype]);
  const tokenizer = {
    version: '1.0', added_tokens: [0, 1, 2].map((id) => ({ id, content: pieces[id], special: true })),
    normalizer: { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '▁' }, { type: 'Replace', pattern: { String: ' ' }, content: '▁' }] },
    pre_tokenizer: null,
    model: { type: 'BPE', dropout: null, unk_token: '<unk>', byte_fallback: true, vocab: Object.fromEntries(pieces.map((p, i) => [p, i])), merges: ordinary ? [] : ['▁ a'] },
  };
  return { config, weights, tokenizer };
}

function folder(model, edits = {}) {
  const files = {
    'config.json': json(model.config),
    'model.safetensors': safetensors(model.weights),
    'tokenizer.json': json(model.tokenizer),
  };
  return Object.assign(files, edits);
}

// A safetensors header with `count` empty tensors (and the rest of a tiny GPT-2's weights).
function emptyTensors(count) {
  const parts = [];
  for (let i = 0; i < count; ++i) parts.push(`"e${i}":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}`);
  const head = text(`{${parts.join(',')}}`);
  const out = new Uint8Array(8 + head.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  return out;
}

// A vocabulary of `count` tokens as JSON text (written as a string: 2 M entries in an object
// would cost the test more than the file).
function bigVocab(count) {
  const parts = [];
  for (let i = 0; i < count; ++i) parts.push(`"t${i}":${i}`);
  return `{${parts.join(',')}}`;
}

function int32s(values) {
  const out = new Uint8Array(4 * values.length);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setInt32(4 * i, v, true));
  return out;
}

// llama2.c's tokenizer.bin: max_token_length, then per piece: score, length, bytes.
function tokenizerBin(pieces, maxLength) {
  const bytes = pieces.map((p) => text(p));
  const out = new Uint8Array(4 + bytes.reduce((n, b) => n + 8 + b.length, 0));
  const view = new DataView(out.buffer);
  view.setInt32(0, maxLength, true);
  let at = 4;
  bytes.forEach((b, i) => {
    view.setFloat32(at, i, true);
    view.setInt32(at + 4, b.length, true);
    out.set(b, at + 8);
    at += 8 + b.length;
  });
  return out;
}

// name -> { files, refusal (a RegExp the message must match; null: accepted), what, oversized,
// checkpoint (the one file is our checkpoint: `tp --model FILE`, tp.loadModel) }
// oversized: the file that is larger than config.json implies, which the web layer
// (web/lib/model-files.js) refuses by its size before copying it in; the CLI and the C++ importer
// read it and give `refusal` at the first entry too many.
// The largest model a config may describe (every dimension at its maximum): 171 GB of GPT-2 or
// 240 GB of llama2.c parameters as F32, above the web module's 1 GiB and a machine's memory alike.
const HUGE = { vocab: 1000000, positions: 4096, width: 4096, layers: 64, heads: 32, ff: 65536 };
// The first `keep` bytes of a safetensors file whose header lists `tensors` ([name, shape]) in F32:
// what is left of a file cut short after its header.
function cutSafetensors(tensors, keep, metadata = null) {
  const header = metadata ? { __metadata__: metadata } : {};
  let offset = 0;
  for (const [name, shape] of tensors) {
    const size = shape.reduce((a, b) => a * b, 1) * 4;
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + size] };
    offset += size;
  }
  const head = text(JSON.stringify(header));
  const out = new Uint8Array(Math.max(keep, 8 + head.length));
  new DataView(out.buffer).setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  return out;
}
// A refusal of a model above the limit, whichever file's header describes it.
const TOO_BIG = /describes a model this build cannot hold: this configuration has \d+ parameters, which need \d+ MB to load \(4 bytes each\); the limit is \d+ MB/;

export const hostileModels = {
  'config-too-big-4kb': () => {
    // A 171 GB GPT-2 claimed by config.json, its model.safetensors cut 4 KB in: refused as too big from the config.
    const { vocab, positions, width, layers, heads, ff } = HUGE;
    const config = { model_type: 'gpt2', vocab_size: vocab, n_positions: positions, n_embd: width, n_layer: layers, n_head: heads, n_inner: ff };
    const weights = cutSafetensors([['wte.weight', [vocab, width]], ['wpe.weight', [positions, width]]], 4096);
    return { files: { 'config.json': json(config), 'model.safetensors': weights, 'tokenizer.json': json(gpt2().tokenizer) },
      refusal: new RegExp(`config\\.json ${TOO_BIG.source}`), what: 'config.json claiming 171 GB of parameters, weights cut at 4 KB' };
  },
  'checkpoint-too-big-4kb': () => {
    // One of our checkpoints whose config claims 240 GB (a Llama-shaped decoder), cut 4 KB in.
    const { vocab, positions, width, layers, heads, ff } = HUGE;
    const config = { arch: 'decoder-only', vocab_size: vocab, d_model: width, n_heads: heads, n_layers: layers, d_ff: ff, max_len: positions };
    const metadata = { format: 'transformer-playground', format_version: '1', config: JSON.stringify(config) };
    const bytes = cutSafetensors([['tok_emb.weight', [vocab, width]]], 4096, metadata);
    return { files: { 'checkpoint.safetensors': bytes }, checkpoint: true,
      refusal: new RegExp(`metadata 'config' is not a valid model configuration: ${TOO_BIG.source.replace(/^describes.*?: /, '')}`),
      what: "a checkpoint whose config claims 240 GB, cut at 4 KB" };
  },
  'llama2c-too-big-4kb': () => {
    // A llama2.c header claiming 240 GB of weights, in a 4 KB file: refused as too big from the header.
    const { vocab, positions, width, layers, heads, ff } = HUGE;
    const bin = new Uint8Array(4096);
    bin.set(int32s([width, ff, layers, heads, heads, vocab, positions]));
    return { files: { 'model.bin': bin, 'tokenizer.bin': tokenizerBin(['<unk>', '<s>', '</s>'], 8) },
      refusal: new RegExp(`llama2\\.c model header ${TOO_BIG.source}`), what: 'llama2.c header claiming 240 GB, in 4 KB' };
  },
  'config-202m-header-2e62': () => {
    // 202 M parameters claimed by 200 bytes, and weights that are 16 bytes with a header length of 2^62.
    const config = { model_type: 'gpt2', vocab_size: 50257, n_positions: 1024, n_embd: 1600, n_layer: 4, n_head: 25 };
    const weights = new Uint8Array(16);
    new DataView(weights.buffer).setBigUint64(0, 1n << 62n, true);
    return { files: { 'config.json': json(config), 'model.safetensors': weights, 'tokenizer.json': json(gpt2().tokenizer) },
      refusal: /header length is 4611686018427387904 bytes, above the limit/, what: 'config.json claiming 202 M parameters, 16-byte weights' };
  },
  'empty-tensors-1.4m': () => ({
    files: folder(gpt2(), { 'model.safetensors': emptyTensors(1400000) }),
    refusal: /the header lists more than \d+ tensors/, what: 'a safetensors header of 1.4 M empty tensors',
    oversized: 'model.safetensors',
  }),
  'merges-25m-duplicates': () => {
    const m = gpt2();
    const files = folder(m, { 'vocab.json': json(m.vocab), 'merges.txt': text(`#version: 0.2\n${'a b\n'.repeat(25000000)}`) });
    delete files['tokenizer.json'];
    return { files, refusal: /merges.txt has more than 260 merges/, what: 'merges.txt of 25 M repeated merges', oversized: 'merges.txt' };
  },
  'vocab-2m': () => {
    const m = gpt2();
    const tokenizer = JSON.stringify({ ...m.tokenizer, model: { ...m.tokenizer.model, vocab: '@VOCAB@' } });
    return { files: folder(m, { 'tokenizer.json': text(tokenizer.replace('"@VOCAB@"', bigVocab(2000000))) }),
      refusal: /model\.vocab has more than 260 members/, what: 'tokenizer.json with 2 M tokens for vocab_size 260', oversized: 'tokenizer.json' };
  },
  'tokenizer-null-fields': () => {
    const m = llama();
    return { files: folder(m, { 'tokenizer.json': json({ ...m.tokenizer, normalizer: { type: 'Sequence' } }) }),
      refusal: /tokenizer\.json: field normalizer\.normalizers must be an array, got nothing/, what: 'tokenizer.json with a missing field' };
  },
  'eos-2^40': () => {
    const m = gpt2();
    return { files: folder({ ...m, config: { ...m.config, eos_token_id: 2 ** 40 + 259 } }),
      refusal: /config\.json: field eos_token_id = 1099511628035 is out of range; allowed: 0 \.\. 259/, what: 'config.json eos_token_id 2^40 + 259' };
  },
  'model-type-900k': () => {
    const m = gpt2();
    return { files: folder({ ...m, config: { ...m.config, model_type: `${'x'.repeat(900000)}\u001b]0;title\u0007` } }),
      refusal: /model_type = 'x{60}'\.\.\. \(900010 bytes in all\) is not supported/, what: 'config.json model_type of 900 KB with ESC' };
  },
  'weights-bf16-nan': () => {
    const m = llama();
    const weights = m.weights.map(([n, s, d]) => [n, s, d, n === 'model.norm.weight' ? [1, 1, NaN, 1, 1, 1, 1, 1] : null]);
    return { files: folder({ ...m, weights }),
      refusal: /model\.safetensors: tensor 'model\.norm\.weight' holds 1 value that is not finite \(at index 2: NaN\)/, what: 'BF16 weights with a NaN' };
  },
  'sharded': () => {
    const files = folder(gpt2(), { 'model.safetensors.index.json': json({ weight_map: {} }) });
    delete files['model.safetensors'];
    return { files, refusal: /sharded checkpoint .* not supported/, what: 'model.safetensors.index.json without model.safetensors' };
  },
  'llama2c-int-min': () => ({
    files: { 'model.bin': int32s([8, 16, 1, 2, 2, -2147483648, 16]), 'tokenizer.bin': tokenizerBin(['<unk>', '<s>', '</s>'], 8) },
    refusal: /header field vocab_size = -2147483648 is out of range/, what: 'llama2.c header vocab_size INT32_MIN',
  }),
  'ansi-pieces': () => {
    // Pieces that are terminal control sequences and markup (accepted: shown escaped).
    const m = llama({ ordinary: ['▁', '\u001b', '\u001b]0;pwned\u0007', '\u009b', '<img src=x onerror=alert(1)>', 'a'] });
    return { files: folder(m), refusal: null, what: 'pieces that are ANSI escapes and HTML (accepted)' };
  },
  'tokenizer-bin-long-pieces': () => {
    // 40 pieces of about 60 KB (2.4 MB): accepted, in time proportional to the file.
    const pieces = ['<unk>', '<s>', '</s>', ' ', 'a', 'aa'];
    for (let i = 0; i < 40; ++i) pieces.push('a'.repeat(59000 + i * 20));
    return { files: { 'tokenizer.bin': tokenizerBin(pieces, 60000) }, refusal: null, tokenizerOnly: true,
      what: 'tokenizer.bin of 40 pieces of 60 KB (accepted)' };
  },
};

export function hostileModel(name) {
  const made = hostileModels[name]();
  const bytes = Object.values(made.files).reduce((n, b) => n + b.length, 0);
  return { ...made, bytes };
}

// node native_tests/hostile_models.mjs OUTDIR NAME: writes the case's files into OUTDIR/NAME/ and
// prints its size in bytes.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, name] = process.argv.slice(2);
  if (!dir || !hostileModels[name]) {
    console.error(`usage: node hostile_models.mjs OUTDIR NAME; NAME: ${Object.keys(hostileModels).join(', ')}`);
    process.exit(2);
  }
  const made = hostileModel(name);
  const out = path.join(dir, name);
  mkdirSync(out, { recursive: true });
  for (const [file, bytes] of Object.entries(made.files)) writeFileSync(path.join(out, file), bytes);
  console.log(made.bytes);
}
