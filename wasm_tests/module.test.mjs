// node:test — loading the Embind module through the public ES module, in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from 'transformer-playground';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url)));

test('load() returns one shared instance with the package version', async () => {
  const [a, b] = await Promise.all([load(), load()]);
  assert.equal(a, b);
  assert.equal(a.version, pkg.version);
});

test('the kernel self-check passes in wasm and reports every case', async () => {
  const tp = await load();
  const report = tp.kernelSelfCheck(7);
  assert.equal(report.backend, 'wasm-simd128');
  assert.ok(report.cases.length >= 20);
  for (const c of report.cases) {
    assert.ok(c.error <= c.tolerance, `${c.kernel}: error ${c.error} > ${c.tolerance}`);
    assert.equal(c.pass, true);
  }
  assert.equal(report.pass, true);
  assert.ok(report.simdGflops > report.scalarGflops, 'SIMD must beat the scalar reference');
});

test('a bad argument throws a JS Error and the module keeps working', async () => {
  const tp = await load();
  assert.throws(() => tp.kernelSelfCheck(-1), /seed must be a non-negative integer/);
  assert.equal(tp.kernelSelfCheck(2).pass, true);
});
