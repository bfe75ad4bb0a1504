// node:test — no test asserts on elapsed time. Every assert / REQUIRE / CHECK in wasm_tests/ and
// native_tests/ is scanned (wasm_tests/duration_scan.mjs) for a time the test measured itself
// (performance.now(), Date.now(), process.hrtime, std::chrono, or a value computed from one);
// one found fails with its file and line. A check like that passes or fails by how busy the
// machine is. Intervals the product keeps are asserted on its own clock (a training session's
// events carry the worker's `workerTime`), or as counts; speed is `npm run bench`'s to measure.
// The scanner itself is checked on the assertion that once failed this way
// (fixtures/duration-scan/: session.test.mjs line 23 compared the page's own gaps between
// progress events with 80 ms) and on small cases of each kind it must and must not report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { describe, languageOf, scanSources } from './duration_scan.mjs';

const fixtures = path.join('wasm_tests', 'fixtures');

function sourcesUnder(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || rel === fixtures ? [] : sourcesUnder(rel);
    return languageOf(e.name) ? [{ file: rel.split(path.sep).join('/'), text: readFileSync(path.join(root, rel), 'utf8') }] : [];
  });
}

test('no test source asserts on elapsed time', () => {
  const sources = [...sourcesUnder('wasm_tests'), ...sourcesUnder('native_tests')];
  assert.ok(sources.length > 80, `found the test sources (${sources.length})`);
  assert.ok(sources.some((s) => s.file.endsWith('.cpp')) && sources.some((s) => s.file.endsWith('.html')));
  const found = scanSources(sources).map(describe);
  assert.deepEqual(found, [], `\n${found.join('\n')}\nAssert on the product's own clock (workerTime) or on counts; measure speed with npm run bench.`);
});

test("the scan finds the page-clock spacing of progress events that once failed under load (session.test.mjs:23)", () => {
  const read = (name) => readFileSync(path.join(root, fixtures, 'duration-scan', name), 'utf8');
  const found = scanSources([
    { file: 'wasm_tests/browser/session.test.mjs', text: read('session.test.mjs.txt') },
    { file: 'wasm_tests/browser/pages/session.html', text: read('session.html.txt') },
  ]);
  assert.deepEqual(found.map((f) => `${f.file}:${f.line} ${f.term}`), ['wasm_tests/browser/session.test.mjs:23 minGap']);
  assert.equal(found[0].source, 'assert.ok(r.minGap >= 80, `progress events ${r.minGap} ms apart`);');
});

test('the scan reports measured times in assertions, in JavaScript and C++, and nothing else', () => {
  const js = [
    'const t0 = performance.now();',
    'await work();',
    'const elapsed = performance.now() - t0;',
    'assert.ok(elapsed < 500, `took ${elapsed} ms`);',                      // 4: a name from the clock
    'assert.ok(Date.now() - started < 10_000);',                            // 5: the clock itself
    'const r = { ms: process.hrtime.bigint() - before, count: 3 };',
    'assert.ok(r.ms < 100n);',                                              // 7: a key given a time
    'assert.equal(r.count, 3);',
    'const times = [];',
    'on("tick", () => times.push(performance.now()));',
    'assert.ok(times.length >= 3, "a count of times is a count");',
    'const gaps = stamps.map((e) => e.detail.workerTime);',
    'assert.ok(Math.min(...gaps) >= 98, "the product\'s own clock");',
    'const end = Date.now() + 30_000;',
    'if (Date.now() > end) throw new Error("waited 30 s");',
    'assert.match(text, /ms/, "a string or a regular expression is not a time: performance.now()");',
    'const result = await page.evaluate(() => { const a = performance.now(); return a > 0; });',
    'assert.equal(result, true);',
    'assert.ok(wait(() => Date.now() > deadline));',                          // 19: a clock read inside the assertion
    'test("a", () => { const last = Date.now() + 5000; });',
    'test("b", () => { const last = timeline(); assert.equal(last.step, 600); });',  // 21: another block's `last`
    'test("c", () => { const last = Date.now() - t0; assert.ok(last < 9); });',      // 22: this block's
  ].join('\n');
  const cpp = [
    '#include <chrono>',
    'const auto start = std::chrono::steady_clock::now();',
    'run();',
    'const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();',
    'REQUIRE(seconds < 2.0);',                                              // 5
    'CHECK(steps == 600);',
    'const char* s = "std::chrono";',
    'REQUIRE(std::string(s).size() == 11);',
  ].join('\n');
  const found = scanSources([{ file: 'x.test.mjs', text: js }, { file: 'x.cpp', text: cpp }]).map((f) => `${f.file}:${f.line} ${f.term}`);
  assert.deepEqual(found, ['x.test.mjs:4 elapsed', 'x.test.mjs:5 Date.now()', 'x.test.mjs:7 ms', 'x.test.mjs:19 Date.now()', 'x.test.mjs:22 last', 'x.cpp:5 seconds']);
});
