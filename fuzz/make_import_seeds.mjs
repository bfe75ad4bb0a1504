// Writes the seed corpora of the import harnesses (fuzz/fuzz_hf_*.cpp, fuzz/fuzz_llama2c_*.cpp)
// into fuzz/corpus/ from the import fixtures (native_tests/data/import, written from PyTorch by
// tools/make_import_fixtures.py) and a few deliberate variants of them:
//
//   node fuzz/make_import_seeds.mjs
//
// hf_config/          the fixtures' config.json, an eos_token_id list, a Llama with head_dim
// hf_tokenizer_gpt2/  GPT-2's tokenizer.json, its merges as pairs, without added_tokens
// hf_tokenizer_llama/ Llama's tokenizer.json, with a Metaspace pre-tokenizer instead of the
//                     normalizer, with scores-free empty merges
// hf_vocab_merges/    vocab.json + "\n=====\n" + merges.txt (GPT-2's original files)
// hf_safetensors/     GPT-2's F32 weights, Llama's F16 ones, and the same as BF16
// llama2c_model/      llama2.c's model.bin
// llama2c_tokenizer/  its tokenizer.bin, one with a NaN score, one with long pieces
// Seeds stay small on purpose (the largest is GPT-2's 86 KB of weights).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { safetensors } from '../native_tests/hostile_models.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const data = path.join(here, '..', 'native_tests', 'data', 'import');
const read = (f) => readFileSync(path.join(data, f));
const readJson = (f) => JSON.parse(read(f).toString('utf8'));
function seeds(folder, files) {
  const dir = path.join(here, 'corpus', folder);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(dir, name), bytes);
}
const json = (v) => JSON.stringify(v);

const gpt2Config = readJson('gpt2/config.json'), llamaConfig = readJson('llama/config.json');
seeds('hf_config', {
  'gpt2.json': read('gpt2/config.json'),
  'llama.json': read('llama/config.json'),
  'llama-eos-list.json': json({ ...llamaConfig, eos_token_id: [2, 1], head_dim: 4, rope_scaling: null }),
  'gpt2-n-inner-null.json': json({ ...gpt2Config, n_inner: null, n_ctx: 32, tie_word_embeddings: true }),
});

const gpt2Tok = readJson('gpt2/tokenizer.json'), llamaTok = readJson('llama/tokenizer.json');
const noAdded = { ...gpt2Tok };
delete noAdded.added_tokens;
seeds('hf_tokenizer_gpt2', {
  'gpt2.json': read('gpt2/tokenizer.json'),
  'gpt2-merge-pairs.json': json({ ...gpt2Tok, model: { ...gpt2Tok.model, merges: gpt2Tok.model.merges.map((m) => m.split(' ')) } }),
  'gpt2-no-added-tokens.json': json(noAdded),
});
seeds('hf_tokenizer_llama', {
  'llama.json': read('llama/tokenizer.json'),
  'llama-metaspace.json': json({ ...llamaTok, normalizer: null, pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false } }),
  'llama-no-merges.json': json({ ...llamaTok, model: { ...llamaTok.model, merges: [] } }),
});

seeds('hf_vocab_merges', {
  'gpt2.txt': `${json(gpt2Tok.model.vocab)}\n=====\n#version: 0.2\n${gpt2Tok.model.merges.join('\n')}\n`,
});

// Llama's F16 weights as BF16 (the same values, rounded down to BF16's 8-bit mantissa).
function toBf16(file) {
  const bytes = read(file);
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const body = bytes.subarray(8 + n);
  const half = (h) => {
    const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    return e === 0 ? s * m * 2 ** -24 : s * (1 + m / 1024) * 2 ** (e - 15);
  };
  const tensors = Object.entries(header).filter(([k]) => k !== '__metadata__')
    .sort((a, b) => a[1].data_offsets[0] - b[1].data_offsets[0])
    .map(([name, { shape, data_offsets: [from, to] }]) => {
      const values = [];
      for (let at = from; at < to; at += 2) values.push(half(body.readUInt16LE(at)));
      return [name, shape, 'BF16', values];
    });
  return safetensors(tensors);
}
seeds('hf_safetensors', {
  'gpt2-f32.safetensors': read('gpt2/model.safetensors'),
  'llama-f16.safetensors': read('llama/model.safetensors'),
  'llama-bf16.safetensors': toBf16('llama/model.safetensors'),
});

seeds('llama2c_model', { 'model.bin': read('llama2c/model.bin') });

// tokenizer.bin variants: a NaN score for token 10; six pieces, two of them 600 bytes long.
const tokenizerBin = read('llama2c/tokenizer.bin');
const nan = Buffer.from(tokenizerBin);
let at = 4;
for (let token = 0; token < 10; ++token) at += 8 + nan.readInt32LE(at + 4);
nan.writeUInt32LE(0x7fc00000, at);
const long = [];
const piece = (text, score) => {
  const b = Buffer.from(text, 'utf8');
  const head = Buffer.alloc(8);
  head.writeFloatLE(score, 0);
  head.writeInt32LE(b.length, 4);
  long.push(head, b);
};
const max = Buffer.alloc(4);
max.writeInt32LE(600, 0);
long.push(max);
['<unk>', '<s>', '</s>', ' ', 'a', 'aa', 'a'.repeat(600), ` ${'a'.repeat(599)}`].forEach((p, i) => piece(p, i));
seeds('llama2c_tokenizer', {
  'tokenizer.bin': tokenizerBin,
  'tokenizer-nan-score.bin': nan,
  'tokenizer-long-pieces.bin': Buffer.concat(long),
});
