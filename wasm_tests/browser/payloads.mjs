// Hostile model files for the markup suite (not a test file itself): a tokenizer whose pieces are
// HTML and terminal payloads, made the way an attacker would publish them, and the models the
// page and the widgets load with it, made with the real API from those files.
//
//   writePayloadModels(dir) -> { folder: 'hf/', imported: 'imported.safetensors', seed: 'seed.safetensors' }
//   - hf/: the Llama fixture (native_tests/data/import/llama, its tokenizer_config.json too) with a tokenizer.json of our own
//     making: its specials and BPE pieces are the payloads below, and the merges build them, so
//     encoding PAYLOAD_TEXT gives them as tokens;
//   - imported.safetensors: tp.importModel(hf/) saved as a checkpoint (for <tp-attention model>);
//   - seed.safetensors: the shipped qa-toy checkpoint with its tokenizer replaced by one of 11
//     pieces whose <unk>, <s> and </s> are payloads — what <tp-walkthrough model> reads (it
//     insists on the seed's qa-toy model).
// Every payload calls window.pwn(…) if it ever runs; the suite counts the calls.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'transformer-playground';
import { root } from '../../scripts/build.mjs';

// Pieces (no spaces: a sentencepiece piece holds ▁ instead, and HTML takes / between attributes).
export const IMG = '<img/src=x/onerror=pwn(1)>';
export const BOLD = '<b/onmouseover=pwn(2)>b</b>';
// Specials (any text at all).
export const UNK = '<img src=x onerror="pwn(3)">';
export const BOS = '</mi><script>pwn(4)</script>';
export const EOS = '\u001b]0;pwned\u0007\u001b[2J<svg onload="pwn(5)">';
// A probe input whose encoding holds the two BPE payloads.
export const PAYLOAD_TEXT = `${IMG} ${BOLD}`;

const fixture = path.join(root, 'native_tests', 'data', 'import', 'llama');

// The Llama fixture's tokenizer.json with the same vocabulary size (354: the weights' rows), its
// byte pieces kept, and its other pieces replaced: single characters, then merge chains that build
// each payload piece one character at a time (ranked first, so encoding applies them whole).
function hostileTokenizerJson() {
  const original = JSON.parse(readFileSync(path.join(fixture, 'tokenizer.json'), 'utf8'));
  const size = Object.keys(original.model.vocab).length;
  const pieces = [UNK, BOS, EOS];
  for (let b = 0; b < 256; ++b) pieces.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
  const words = [IMG, BOLD].map((w) => `▁${w}`);
  const chars = [...new Set([...'▁abcdefghijklmnopqrstuvwxyz', ...words.join('')])];
  pieces.push(...chars);
  const merges = [];
  for (const word of words) {
    const cs = [...word];
    let left = cs[0];
    for (const c of cs.slice(1)) {
      // Words share their first pieces ("▁<"): a merge is listed once (importers refuse repeats).
      if (!merges.includes(`${left} ${c}`)) merges.push(`${left} ${c}`);
      left += c;
      if (!pieces.includes(left)) pieces.push(left);
    }
  }
  for (let i = 0; pieces.length < size; ++i) {  // filler pieces up to the size: "▁a", "▁b", …
    const piece = `▁${chars[1 + (i % 26)]}`.repeat(1 + Math.floor(i / 26));
    if (pieces.includes(piece)) continue;
    merges.push(`${piece.slice(0, -1)} ${piece.slice(-1)}`);
    if (!pieces.includes(piece.slice(0, -1))) throw new Error(`filler piece ${piece} has no left part`);
    pieces.push(piece);
  }
  if (pieces.length !== size) throw new Error(`${pieces.length} pieces, the weights have ${size} rows`);
  const special = (id) => ({ ...original.added_tokens[id], content: pieces[id] });
  return JSON.stringify({
    ...original,
    added_tokens: [special(0), special(1), special(2)],
    model: { ...original.model, unk_token: UNK, vocab: Object.fromEntries(pieces.map((p, i) => [p, i])), merges },
  });
}

// The seed's vocabulary size (11) as a SentencePiece tokenizer in the form checkpoints store
// (tokenizer.save()'s): payload specials (unk, bos, eos), a few pieces to spell "how", and a
// payload piece. Encoding "how xyz" gives ▁how ▁ <unk>, the decoder starts with <s>, and the
// vocabulary lists every payload. (An importer would refuse it for want of byte pieces; a
// checkpoint's tokenizer is read as it is, which is what an attacker would hand out.)
const SEED_TOKENIZER = JSON.stringify({
  kind: 'sentencepiece', vocab_size: 11, pieces: [UNK, BOS, EOS, '▁', 'h', 'o', 'w', '▁h', '▁ho', '▁how', IMG],
  merges: ['▁ h', '▁h o', '▁ho w'], unk: 0, bos: 1, eos: 2, add_dummy_prefix: true,
});

// A checkpoint with its metadata's tokenizer replaced (safetensors: u64 header length, the JSON
// header, then the tensors, whose offsets are relative to the end of the header).
function withTokenizer(checkpoint, tokenizerText) {
  const view = new DataView(checkpoint.buffer, checkpoint.byteOffset);
  const n = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(checkpoint.subarray(8, 8 + n)));
  header.__metadata__.tokenizer = tokenizerText;
  const text = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + text.length + checkpoint.length - 8 - n);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  out.set(checkpoint.subarray(8 + n), 8 + text.length);
  return out;
}

export async function writePayloadModels(dir) {
  const tp = await load();
  mkdirSync(path.join(dir, 'hf'), { recursive: true });
  for (const f of ['config.json', 'model.safetensors', 'tokenizer_config.json']) writeFileSync(path.join(dir, 'hf', f), readFileSync(path.join(fixture, f)));
  writeFileSync(path.join(dir, 'hf', 'tokenizer.json'), hostileTokenizerJson());
  const files = ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json'].map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(dir, 'hf', name))) }));
  const model = await tp.importModel(files);
  const tokenizer = model.tokenizer();
  const tokens = tokenizer.encode(PAYLOAD_TEXT).tokens;
  if (!tokens.some((t) => t.includes(IMG)) || !tokens.some((t) => t.includes(BOLD))) throw new Error(`the payload text encodes as ${JSON.stringify(tokens)}`);
  writeFileSync(path.join(dir, 'imported.safetensors'), model.save());
  for (const o of [tokenizer, model]) o.dispose();

  const seed = new Uint8Array(readFileSync(path.join(root, 'web', 'models', 'qa-toy.safetensors')));
  const small = tp.loadTokenizer(SEED_TOKENIZER);  // the API accepts it as it stands
  writeFileSync(path.join(dir, 'seed.safetensors'), withTokenizer(seed, SEED_TOKENIZER));
  small.dispose();
  const check = tp.loadModel(new Uint8Array(readFileSync(path.join(dir, 'seed.safetensors'))));
  check.dispose();
  return { folder: 'hf/', imported: 'imported.safetensors', seed: 'seed.safetensors' };
}
