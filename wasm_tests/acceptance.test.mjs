// node:test — the README-style quick-start script, verbatim, run as a user would run it: a separate Node
// process started from the repository root, importing the package by its name (Node's entry, through the exports map). It must
// print exactly `i am fine` and nothing else (no warnings on stdout or stderr).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const SCRIPT = `import { load } from 'transformer-playground';
const tp = await load();
const model = tp.model({ ...tp.tasks().find(t => t.name === 'qa-toy').defaults, seed: 1 });
const trainer = tp.trainer(model, tp.task('qa-toy'), { seed: 1 });
trainer.step(600);
console.log(model.generate('how are you', { maxNewTokens: 8 }).text);
`;

test('the acceptance script prints "i am fine"', () => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-'], { cwd: root, input: SCRIPT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.error, undefined);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  assert.equal(r.stdout, 'i am fine\n');
});
