// node:test — a llama2.c tokenizer.bin encodes a prompt as llama2.c's run.c does, token for
// token: Llama's 32,000-piece vocabulary (from llama-tokenizer-js) written as tokenizer.bin
// (pieces with spaces where SentencePiece has ▁, each merged piece scored by its merge's rank),
// against the encode() of run.c written out below from its source's steps: <s>, the dummy
// prefix " ", each UTF-8 character's piece or its bytes (<0xNN> = 3 + NN), then the best-scoring
// adjacent merge, leftmost first, until none is left. Lines that hold a literal ▁ (U+2581) are
// where SentencePiece's own normaliser and run.c part ways: run.c finds no piece for it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'transformer-playground';

let tp, tok, pieces, scores;

// tokenizer.bin: int32 max_token_length, then per piece float32 score, int32 length, bytes.
function tokenizerBin(texts, pieceScores) {
  const utf8 = new TextEncoder();
  const encoded = texts.map((t) => utf8.encode(t));
  const size = 4 + encoded.reduce((n, b) => n + 8 + b.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setInt32(0, Math.max(...encoded.map((b) => b.length)), true);
  let at = 4;
  encoded.forEach((b, i) => {
    view.setFloat32(at, pieceScores[i], true);
    view.setInt32(at + 4, b.length, true);
    out.set(b, at + 8);
    at += 8 + b.length;
  });
  return out;
}

// run.c's encode(tokenizer, text, bos = 1, eos = 0), over its vocabulary of byte strings.
function runcEncode(text) {
  const lookup = runcEncode.lookup ??= new Map(pieces.map((p, id) => [p, id]).reverse());  // the first of a repeated piece
  const bytes = new TextEncoder().encode(text);
  const tokens = [1];
  if (bytes.length) tokens.push(lookup.get(' '));
  for (let i = 0; i < bytes.length;) {
    let end = i + 1;
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80 && end - i < 4) end++;
    const ch = new TextDecoder().decode(bytes.subarray(i, end));
    const id = lookup.get(ch);
    if (id !== undefined) tokens.push(id);
    else for (let k = i; k < end; k++) tokens.push(bytes[k] + 3);
    i = end;
  }
  for (;;) {
    let best = -1e10, where = -1, merged = -1;
    for (let i = 0; i + 1 < tokens.length; i++) {
      const id = lookup.get(pieces[tokens[i]] + pieces[tokens[i + 1]]);
      if (id !== undefined && scores[id] > best) [best, where, merged] = [scores[id], i, id];
    }
    if (where < 0) return tokens;
    tokens.splice(where, 2, merged);
  }
}

before(async () => {
  tp = await load();
  const { default: llama } = await import('llama-tokenizer-js');
  // run.c's strings: ▁ written as a space, <s> and </s> wrapped in newlines as the export writes them.
  pieces = llama.vocabById.map((p) => p.replaceAll('\u2581', ' '));
  pieces[1] = '\n<s>\n';
  pieces[2] = '\n</s>\n';
  scores = new Array(pieces.length).fill(0);
  for (const [pair, rank] of llama.merges.entries()) {
    const id = llama.vocabById.indexOf(pair.replace(' ', ''));
    if (id >= 0 && scores[id] === 0) scores[id] = -rank - 1;
  }
  tok = await tp.importTokenizer([{ name: 'tokenizer.bin', bytes: tokenizerBin(pieces, scores) }]);
});

const LINES = [
  'the quick brown fox', 'Once upon a time', '\u2581', 'a\u2581b', '\u2581the fox', 'the\u2581quick\u2581brown',
  'x \u2581 y', '\u2581\u2581', 'tiny \u2581 café 한국어 😀', '  two  spaces\u2581', 'end\u2581', '\u2581Hello, world!',
  'naïve façade', '1234 + 5678 = 6912', 'emoji 👩‍💻 and ▁▁▁', '',
];

test('tokenizer.bin: every line encodes as run.c encodes it, <s> first', () => {
  for (const line of LINES) {
    assert.deepEqual(Array.from(tok.encode(line).ids), runcEncode(line), `'${line}'`);
    // Without the specials: the same ids after <s>.
    assert.deepEqual(Array.from(tok.encode(line, { addSpecialTokens: false }).ids), runcEncode(line).slice(1), `'${line}' alone`);
  }
});

test('tokenizer.bin: a literal U+2581 is its three bytes, and decodes back to itself', () => {
  const ids = Array.from(tok.encode('a\u2581b', { addSpecialTokens: false }).ids);
  const bytes = [0xe2, 0x96, 0x81].map((b) => b + 3);
  assert.ok(ids.join(',').includes(bytes.join(',')), `ids ${ids}`);
  assert.equal(tok.decode(ids), 'a\u2581b');
});
