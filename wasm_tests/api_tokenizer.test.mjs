// node:test — tokenizers through the public API: tp.tokenizer(), task.tokenizer(), encode, decode,
// spans and vocabulary. The page colours each token by its span and shows its id, so the tests
// check real values: the seed's exact vocabulary, decode(encode(x)) === x for every kind
// (Korean and emoji included), spans that slice the input to each token's text, and that
// returned arrays are the caller's own copies.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'transformer-playground';
import { spanTexts } from './helpers.mjs';

const TEXT = 'The cat sat on the mat. 안녕하세요, 세계! 🙂 unbelievable things happen.';
let tp;

before(async () => {
  tp = await load();
});

// The display form of a token shows a space as '▁'; everything else is the text itself.
const shown = (s) => s.replaceAll(' ', '▁');

test("the seed Q&A toy's tokenizer has the seed's vocabulary and ids", () => {
  const task = tp.task('qa-toy');
  const tok = task.tokenizer();
  assert.equal(tok.kind, 'word');
  assert.equal(tok.numSpecials, 3);
  assert.equal(tok.vocabSize, 11);
  assert.deepEqual(tok.vocabulary(),
    ['<SOS>', '<EOS>', '<PAD>', 'am', 'fine', 'how', 'i', 'about', 'are', 'you', 'yourself']);
  const e = tok.encode('how are you');
  assert.ok(e.ids instanceof Int32Array);
  assert.deepEqual([...e.ids], [5, 8, 9]);
  assert.deepEqual(e.tokens, ['how', 'are', 'you']);
  assert.deepEqual([...e.spans], [0, 3, 4, 7, 8, 11]);
  assert.equal(tok.decode([6, 3, 4]), 'i am fine');
  assert.equal(tok.decode([0, 6, 3, 4, 1, 2]), 'i am fine', 'specials decode to nothing');
  tok.dispose();
  task.dispose();
});

for (const [kind, options] of [['char', {}], ['word', {}], ['bpe', { vocabSize: 300 }], ['byte', {}]]) {
  test(`${kind}: decode(encode(text)) === text for Korean, emoji and ASCII`, () => {
    const tok = tp.tokenizer({ kind, text: TEXT, ...options });
    assert.equal(tok.kind, kind);
    assert.equal(tok.numSpecials, 6);
    const e = tok.encode(TEXT);
    assert.equal(e.ids.length, e.tokens.length);
    assert.equal(e.spans.length, 2 * e.ids.length);
    assert.equal(e.byteSpans.length, 2 * e.ids.length);
    for (const id of e.ids) assert.ok(id >= tok.numSpecials && id < tok.vocabSize, `id ${id} of ${kind}`);
    assert.equal(tok.decode(e.ids), TEXT);
    assert.equal(tok.decode([...e.ids]), TEXT, 'a plain array decodes the same');
    assert.equal(tok.decode(Uint32Array.from(e.ids)), TEXT, 'a Uint32Array decodes the same');
    // The same text and options give the same vocabulary and ids.
    const again = tp.tokenizer({ kind, text: TEXT, ...options });
    assert.deepEqual(again.encode(TEXT), e);
    again.dispose();
    tok.dispose();
  });
}

test('word spans slice the input to exactly each token', () => {
  const tok = tp.tokenizer({ kind: 'word', text: TEXT });
  const e = tok.encode(TEXT);
  assert.deepEqual(spanTexts(TEXT, e.spans), e.tokens);
  assert.deepEqual(e.tokens.slice(6, 11), ['.', '안녕하세요', ',', '세계', '!']);
  tok.dispose();
});

test('char spans tile the input, one character each (a space shows as ▁)', () => {
  const tok = tp.tokenizer({ kind: 'char', text: TEXT });
  const e = tok.encode(TEXT);
  const slices = spanTexts(TEXT, e.spans);
  assert.deepEqual(slices.map(shown), e.tokens);
  assert.equal(slices.join(''), TEXT);
  assert.deepEqual(slices, [...TEXT], 'one token per code point; the emoji is one token with a 2-unit span');
  tok.dispose();
});

test('byte spans: UTF-16 spans widen to the whole character, byte spans tile the UTF-8', () => {
  const tok = tp.tokenizer({ kind: 'byte' });
  assert.equal(tok.vocabSize, 262);
  const text = 'a한😀';
  const e = tok.encode(text);
  const utf8 = new TextEncoder().encode(text);
  assert.deepEqual([...e.ids], [...utf8].map((b) => 6 + b), 'id = numSpecials + byte');
  assert.deepEqual(spanTexts(text, e.spans), ['a', '한', '한', '한', '😀', '😀', '😀', '😀']);
  const bytes = [...e.byteSpans];
  for (let i = 0; i < utf8.length; ++i) assert.deepEqual(bytes.slice(2 * i, 2 * i + 2), [i, i + 1]);
  assert.deepEqual(e.tokens.slice(0, 2), ['a', '<0xED>']);
  assert.equal(tok.decode(e.ids), text);
  tok.dispose();
});

test('bpe learns merges: fewer tokens than bytes, ## continuations, spans cover the text', () => {
  const text = 'unbelievable believable believe unbelievable believer '.repeat(20);
  const bpe = tp.tokenizer({ kind: 'bpe', vocabSize: 300, text });
  const byte = tp.tokenizer({ kind: 'byte' });
  assert.ok(bpe.vocabSize > 262 && bpe.vocabSize <= 300, `vocabSize ${bpe.vocabSize}`);
  const sample = 'unbelievable believer';
  const e = bpe.encode(sample);
  assert.deepEqual(e.tokens, ['unbelievable', '▁believer'], 'whole words seen 20 times are single tokens');
  assert.equal(byte.encode(sample).ids.length, sample.length);
  // A word never seen whole splits into a first piece and ## continuations.
  const parts = bpe.encode('believers').tokens;
  assert.equal(parts[0], 'believ');
  assert.ok(parts.length > 1 && parts.slice(1).every((t) => t.startsWith('##')), parts.join(' '));
  assert.equal(spanTexts(sample, e.spans).join(''), sample);
  assert.equal(bpe.decode(e.ids), sample);
  // Unseen text still round-trips: BPE falls back to bytes.
  assert.equal(bpe.decode(bpe.encode('zqx 🙂 한').ids), 'zqx 🙂 한');
  assert.equal(tp.tokenizer({ kind: 'bpe', text: 'aaaa bbbb' }).vocabSize <= 512, true, 'default target 512');
  bpe.dispose();
  byte.dispose();
});

test('unknown characters and words become <UNK> (id 3), which decodes as U+FFFD', () => {
  const char = tp.tokenizer({ kind: 'char', text: 'abc ' });
  const e = char.encode('abz');
  assert.deepEqual([...e.ids.slice(2)], [3]);
  assert.equal(e.tokens[2], '<UNK>');
  assert.equal(char.decode(e.ids), 'ab\uFFFD');
  const word = tp.tokenizer({ kind: 'word', text: 'hello world' });
  assert.deepEqual(word.encode('hello there').tokens, ['hello', '<UNK>']);
  char.dispose();
  word.dispose();
});

test('word lowercase folds case; vocabSize caps char and word vocabularies', () => {
  const lower = tp.tokenizer({ kind: 'word', lowercase: true, text: 'Hello World hello' });
  assert.deepEqual(lower.encode('HELLO world').tokens, ['hello', 'world']);
  const capped = tp.tokenizer({ kind: 'char', vocabSize: 8, text: 'aaaabbbcc d' });
  assert.equal(capped.vocabSize, 8);
  assert.deepEqual(capped.vocabulary().slice(6), ['a', 'b'], 'the most frequent characters are kept');
  lower.dispose();
  capped.dispose();
});

test('vocabulary(limit) lists the first ids and clamps to the vocabulary', () => {
  const tok = tp.tokenizer({ kind: 'char', text: 'ba' });
  assert.deepEqual(tok.vocabulary(), ['<SOS>', '<EOS>', '<PAD>', '<UNK>', '<CLS>', '<MASK>', 'a', 'b']);
  assert.deepEqual(tok.vocabulary(2), ['<SOS>', '<EOS>']);
  assert.deepEqual(tok.vocabulary(0), []);
  assert.equal(tok.vocabulary(1000).length, 8);
  tok.dispose();
});

test('encode returns fresh copies, not views into wasm memory', () => {
  const tok = tp.tokenizer({ kind: 'char', text: TEXT });
  const a = tok.encode('cat');
  const b = tok.encode('cat');
  assert.notEqual(a.ids.buffer, b.ids.buffer);
  assert.equal(a.ids.buffer.byteLength, a.ids.byteLength, 'the array owns its whole buffer');
  assert.equal(a.spans.buffer.byteLength, a.spans.byteLength);
  a.ids[0] = 99;
  a.tokens[0] = 'x';
  assert.deepEqual(tok.encode('cat'), b);
  tok.dispose();
});

test('a task tokenizer outlives its task, and dispose() is idempotent', () => {
  const task = tp.task('qa-toy');
  const tok = task.tokenizer();
  task.dispose();
  assert.deepEqual([...tok.encode('i am fine').ids], [6, 3, 4]);
  assert.equal(tok.disposed, false);
  tok.dispose();
  tok.dispose();
  assert.equal(tok.disposed, true);
  assert.throws(() => tok.encode('i'), /Tokenizer has been disposed/);
});
