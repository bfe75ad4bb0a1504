// `npm run fixtures`: writes the golden files of reference outputs too slow to compute in every
// test run; the tests read them, and each also checks a shorter case against the reference live.
//
//   wasm_tests/golden/gpt2-whole-corpus.json   gpt-3-encoder's ids for the tokenizer corpus's
//                                              first 2,000 lines as one text (a few minutes: the
//                                              reference's cost grows far faster than the text)
//   --torch                                    also the PyTorch fixtures (native_tests/data/
//                                              fixtures and import), with Debian's python3-torch
//                                              (scripts/setup.sh --bench installs it)
// Rerun after changing the corpus (wasm_tests/tokenizer_corpus.mjs) or upgrading the reference;
// the test says which. Every file is written the same way from the same inputs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { root } from './build.mjs';
import { GOLDEN_GPT2, ID_BLOCK, WHOLE_LINES, corpusLines, idBlocks, sha256, wholeText } from '../wasm_tests/tokenizer_corpus.mjs';

const require = createRequire(path.join(root, 'package.json'));

export function gpt2Golden() {
  const pkg = JSON.parse(readFileSync(require.resolve('gpt-3-encoder/package.json'), 'utf8'));
  const text = wholeText(corpusLines());
  const started = process.cpuUsage();
  const ids = require('gpt-3-encoder').encode(text);
  const cpu = process.cpuUsage(started);
  const golden = {
    about: `gpt-3-encoder's ids for the first ${WHOLE_LINES} lines of wasm_tests/tokenizer_corpus.mjs joined by line breaks, in blocks of ${ID_BLOCK} (the first 16 hex digits of the SHA-256 of each block's ids as little-endian uint32). Written by npm run fixtures.`,
    reference: `gpt-3-encoder@${pkg.version}`,
    text: sha256(text),
    count: ids.length,
    blocks: idBlocks(ids),
  };
  mkdirSync(path.dirname(fileURLToPath(GOLDEN_GPT2)), { recursive: true });
  writeFileSync(GOLDEN_GPT2, `${JSON.stringify(golden, null, 2)}\n`);
  return { file: path.relative(root, fileURLToPath(GOLDEN_GPT2)), ids: ids.length, seconds: (cpu.user + cpu.system) / 1e6 };
}

function python(script) {
  const r = spawnSync('/usr/bin/python3', [script], { cwd: root, stdio: 'inherit' });
  if (r.error || r.status !== 0) throw new Error(`/usr/bin/python3 ${script} failed${r.error ? `: ${r.error.message}` : ''} (it needs python3-torch: scripts/setup.sh --bench)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const g = gpt2Golden();
    console.log(`fixtures: ${g.file}: ${g.ids.toLocaleString('en')} ids (${g.seconds.toFixed(0)} s of CPU in gpt-3-encoder)`);
    if (process.argv.includes('--torch')) {
      python('tools/make_fixtures.py');
      python('tools/make_import_fixtures.py');
      console.log('fixtures: native_tests/data/fixtures and native_tests/data/import rewritten from PyTorch');
    }
  } catch (e) {
    console.error(`fixtures.mjs: ${e.message}`);
    process.exit(1);
  }
}
