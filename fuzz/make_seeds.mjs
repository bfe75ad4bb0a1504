// Rebuilds the generated part of the seed corpora in fuzz/corpus/ from real product output.
//
//   node fuzz/make_seeds.mjs [path/to/tp]     (default build/native/tp; `npm run build:native` first)
//
// checkpoint/      tiny checkpoints trained by `tp train`, one per architecture and tokenizer
//                  kind (a few KB each), one of them with NaN and infinite weights, and the
//                  page's pre-trained qa-toy model
// config/          the `config` metadata of those checkpoints
// tokenizer_json/  their `tokenizer` metadata (char, word, bpe and byte tokenizers)
// json/            one checkpoint's whole safetensors header (the rest of json/ is hand-written)
// text/            a slice of the built-in book (the rest of text/ is hand-written)
// (pairs/ is all hand-written: TSV files that end in a tab, which fuzz_user_task reads as "pairs")
// scripts/fuzz.mjs says which folders each harness reads. Seeds stay small on purpose; what
// the fuzzers find later goes to build/fuzz-corpus/ (git-ignored).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const tp = path.resolve(process.argv[2] ?? path.join(root, 'build/native/tp'));
const corpus = path.join(here, 'corpus');
// A folder the script owns entirely: emptied first, so a renamed seed leaves no stale copy.
const freshDir = (name) => {
  const d = path.join(corpus, name);
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  return d;
};

// The header of a safetensors file: an 8-byte little-endian length, then that much JSON.
function header(file) {
  const bytes = readFileSync(file);
  const n = Number(bytes.readBigUInt64LE(0));
  return bytes.subarray(8, 8 + n).toString('utf8').trimEnd();
}

const mixed = path.join(corpus, 'text/mixed-scripts.txt');
const small = '--d-model 4 --n-heads 2 --n-layers 1 --d-ff 8 --max-len 16 --steps 2'.split(' ');
const checkpoints = {
  'decoder-char-rope-rms-mqa-swiglu': ['--task', 'text', '--data', mixed, '--tokenizer', 'char', '--d-model', '8',
    '--n-heads', '2', '--n-kv-heads', '1', '--n-layers', '1', '--d-ff', '16', '--max-len', '16', '--pos', 'rope',
    '--norm', 'rms', '--ffn', 'swiglu', '--steps', '2'],
  'decoder-byte-alibi-window-tied': ['--task', 'text', '--data', mixed, '--tokenizer', 'byte', ...small,
    '--n-layers', '2', '--pos', 'alibi', '--window', '4', '--global-tokens', '1', '--layer-pattern', 'LG',
    '--tie-embeddings', 'true', '--bias', 'false'],
  'decoder-bpe-learned-tied': ['--task', 'text', '--data', mixed, '--tokenizer', 'bpe', '--vocab-size', '280',
    ...small, '--tie-embeddings', 'true'],
  'decoder-word-nopos-relu': ['--task', 'text', '--data', mixed, '--tokenizer', 'word', ...small, '--pos', 'none',
    '--ffn', 'relu'],
  'encoder-cls-sentiment-post': ['--task', 'sentiment', ...small, '--n-heads', '1', '--max-len', '32',
    '--pos', 'sinusoidal', '--norm-placement', 'post'],
};
const ckptDir = freshDir('checkpoint');
for (const [name, args] of Object.entries(checkpoints)) {
  const out = path.join(ckptDir, `${name}.safetensors`);
  execFileSync(tp, ['train', ...args, '--seed', '1', '--json', '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
}
copyFileSync(path.join(root, 'web/models/qa-toy.safetensors'), path.join(ckptDir, 'qa-toy-encoder-decoder.safetensors'));

// The same file with NaN and infinite weights, as a corrupted download would have: loading
// accepts any float bits, so generation must cope with NaN and infinite logits.
{
  const bytes = readFileSync(path.join(ckptDir, 'decoder-char-rope-rms-mqa-swiglu.safetensors'));
  const start = 8 + Number(bytes.readBigUInt64LE(0));
  for (let i = 0, at = start; at + 4 <= bytes.length; ++i, at += 4) {
    if (i % 3 === 0) bytes.writeFloatLE(NaN, at);
    else if (i % 7 === 0) bytes.writeFloatLE(Infinity, at);
    else if (i % 11 === 0) bytes.writeFloatLE(-Infinity, at);
  }
  writeFileSync(path.join(ckptDir, 'decoder-char-nan-inf-weights.safetensors'), bytes);
}

const configDir = freshDir('config'), tokDir = freshDir('tokenizer_json');
for (const file of readdirSync(ckptDir).sort()) {
  if (file.includes('nan-inf')) continue;  // same metadata as the file it was made from
  const name = file.replace(/\.safetensors$/, '');
  const text = header(path.join(ckptDir, file));
  const meta = JSON.parse(text).__metadata__;
  writeFileSync(path.join(configDir, `${name}.json`), meta.config);
  writeFileSync(path.join(tokDir, `${name}.json`), meta.tokenizer);
  if (name === 'qa-toy-encoder-decoder') writeFileSync(path.join(corpus, 'json/safetensors-header-qa-toy.json'), text);
}

const book = readFileSync(path.join(root, 'src/tasks/data/devils_dictionary.txt'), 'utf8');
writeFileSync(path.join(corpus, 'text/devils-dictionary-slice.txt'), book.slice(20000, 22000));
console.log(`seeds written to ${path.relative(root, corpus)}/`);
