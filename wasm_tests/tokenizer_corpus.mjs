// The tokenizer corpus the imported tokenizers are compared on (wasm_tests/import_tokenizers.test.mjs)
// and the golden file of the reference's ids is made from (scripts/fixtures.mjs): generated
// deterministically, 12,000 lines of prose, code, many scripts, emoji (with ZWJ sequences, skin
// tones and flags), digits, contractions and runs of every kind of white space.
import { createHash } from 'node:crypto';

export const LINES = 12000;

function rng(seed) {  // mulberry32
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['the', 'The', 'quick', 'brown', 'fox', "it's", "IT'S", "we'll", "they've", "I'm", "you're", "she'd",
  "don't", "'s", "'ll", 'ok', 'naïve', 'café', 'Straße', 'über', 'façade', 'Ελληνικά', 'Привет', 'мир', '日本語',
  '中文字符', '한국어', '텍스트', 'العربية', 'हिन्दी', 'ภาษาไทย', 'עברית', 'tiếng', 'Việt', 'ǅemal', 'ﬁne', 'Ⅻ', '²³',
  '½', '٣٤', '১২', '𝔘𝔫𝔦', '𐍈', 'x²', 'e\u0301', 'a\u0308\u0304', 'Ω', 'µs', 'ℕ'];
const CODE = ['function f(x) { return x * 2; }', 'for (let i = 0; i < n; ++i) {', '  if (a[i] !== b[i]) return -1;',
  'def main():\n    print("hello, world")', '#include <vector>', 'const std::string& s = "a\\tb";', 'x += y >> 3 | 0xFF;',
  'SELECT * FROM t WHERE id = 42;', '<div class="a">&amp;</div>', '$ npm run build -- --only=web', '{"key": [1, 2.5e-3, null]}',
  '// TODO: fix   this', '/* block */', 'a,b,,c,,,d', "',',', '", '\\n\\r\\t', '@@ -1,3 +1,4 @@', '→ ← ↔ ⇒ ∀ ∃ ∑ ∫'];
const EMOJI = ['😀', '👍🏽', '👩‍💻', '👨‍👩‍👧‍👦', '🇰🇷', '🇺🇸', '❤️', '✨', '🏳️‍🌈', '🤖', '🧠', '1️⃣', '©', '™', '⌘'];
const SPACE = [' ', '  ', '   ', '\t', '\t\t', '\n', '\n\n', '\r\n', ' \n ', '\u00a0', '\u3000', '\u2009', '\u200b',
  '    ', ' \t ', '\u2028', '\u000b', '\u000c'];
const PUNCT = ['.', ',', '!', '?', '...', '—', '–', '"', "'", '(', ')', '[', ']', ';', ':', '«', '»', '¿', '¡', '…', '、', '。'];

export function corpusLines() {
  const r = rng(20240601);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const lines = [];
  for (let i = 0; i < LINES; i++) {
    const kind = i % 6;
    let line = '';
    const parts = 3 + Math.floor(r() * 14);
    for (let p = 0; p < parts; p++) {
      const x = r();
      if (kind === 1 && x < 0.5) line += pick(CODE);
      else if (x < 0.45) line += pick(WORDS);
      else if (x < 0.55) line += String(Math.floor(r() * 10 ** (1 + Math.floor(r() * 8))));
      else if (x < 0.65) line += pick(EMOJI);
      else if (x < 0.75) line += pick(PUNCT);
      else if (x < 0.8) line += String.fromCodePoint(0x20 + Math.floor(r() * 0x2fe0));  // any BMP letter or symbol
      else line += pick(SPACE);
      if (r() < 0.6) line += ' ';
    }
    if (kind === 4) line = pick(SPACE) + line + pick(SPACE);
    lines.push(line);
  }
  return lines;
}

// The whole-text case: the corpus's first WHOLE_LINES lines joined by line breaks, one text.
export const WHOLE_LINES = 2000;
export const wholeText = (lines) => lines.slice(0, WHOLE_LINES).join('\n');

// The golden file of gpt-3-encoder's ids for the whole text (scripts/fixtures.mjs writes it: the
// reference needs minutes for a text this long, while it encodes every line in a second or two).
export const GOLDEN_GPT2 = new URL('./golden/gpt2-whole-corpus.json', import.meta.url);

export const sha256 = (data) => createHash('sha256').update(data).digest('hex');

// Ids in blocks of 1024, each as the first 16 hex digits of the SHA-256 of its ids written as
// little-endian uint32: small enough to check in, and a difference is named to its block.
export const ID_BLOCK = 1024;
export function idBlocks(ids) {
  const out = [];
  for (let i = 0; i < ids.length; i += ID_BLOCK) {
    const block = Uint32Array.from(ids.slice(i, i + ID_BLOCK));
    out.push(sha256(new Uint8Array(block.buffer)).slice(0, 16));
  }
  return out;
}
