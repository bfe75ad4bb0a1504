// ctest entry cli_text: `tp generate --json` prints valid UTF-8 whatever bytes the model's byte
// tokens produce. On the imported fixtures (native_tests/data/import, tools/make_import_fixtures.py:
// GPT-2's byte-level BPE and SentencePiece with byte fallback, random weights that generate stray
// and split bytes) every line must decode with a fatal TextDecoder and parse as JSON; its text
// must be the continuation as a browser's TextDecoder reads its bytes (U+FFFD for a character
// cut short), and the steps' texts, a streaming decoder's view, must join to it.
//   node native_tests/cli_text_test.mjs <path to tp> <native_tests/data>
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const [tp, data] = process.argv.slice(2);
if (!tp || !data) {
  console.error('usage: node native_tests/cli_text_test.mjs <tp> <native_tests/data>');
  process.exit(2);
}
const strict = new TextDecoder('utf-8', { fatal: true });
let runs = 0, replaced = 0, heldBack = 0;
const fail = (message) => {
  console.error(`cli_text: ${message}`);
  process.exit(1);
};

for (const name of ['gpt2', 'llama', 'llama2c/model.bin']) {
  for (const prompt of ['naïve café — 한국어 😀', 'the quick brown fox', '😀']) {
    for (const seed of [0, 1, 2, 3]) {
      const args = ['generate', '--model', path.join(data, 'import', name), '--prompt', prompt, '--max-tokens', '40',
        '--json', ...(seed === 0 ? [] : ['--temperature', '1.5', '--seed', String(seed)])];
      const run = spawnSync(tp, args, { maxBuffer: 64 << 20 });
      const what = `tp ${args.join(' ')}`;
      if (run.status !== 0) fail(`${what} exited with ${run.status}: ${run.stderr}`);
      let text;
      try {
        text = strict.decode(run.stdout);
      } catch {
        fail(`${what} printed bytes that are not UTF-8`);
      }
      const lines = text.split('\n').filter((l) => l !== '');
      if (lines.length !== 1) fail(`${what} printed ${lines.length} lines, expected one JSON object`);
      const out = JSON.parse(lines[0]);
      if (!out.text.startsWith(prompt)) fail(`${what}: the text does not start with the prompt`);
      if (!out.text.isWellFormed()) fail(`${what}: the text has a lone surrogate`);
      const joined = prompt + out.steps.map((s) => s.text).join('');
      if (joined !== out.text) fail(`${what}: the steps' texts join to ${JSON.stringify(joined)}, not the text`);
      if (out.text.includes('\uFFFD')) ++replaced;
      // A step that adds nothing holds its bytes back (all but a final <EOS>, which is no text).
      heldBack += out.steps.slice(0, out.stop_reason === 'eos' ? -1 : undefined).filter((s) => s.text === '').length;
      ++runs;
    }
  }
}
// The fixtures' byte tokens did strand bytes (so U+FFFD appeared) and split characters.
if (replaced === 0) fail(`no run produced a character cut short, so nothing was tested (${runs} runs)`);
if (heldBack === 0) fail(`no step held bytes back for the next one (${runs} runs)`);
console.log(`cli_text: ${runs} runs valid UTF-8; ${replaced} with U+FFFD, ${heldBack} steps held back`);
