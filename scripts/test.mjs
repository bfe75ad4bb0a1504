// `npm test`: set up, build both targets, run every suite, print one closing line.
//
//   1. scripts/setup.sh          system packages and npm packages, only if missing
//   2. native + wasm builds      through the CMake presets (scripts/build.mjs): wasm is two builds,
//                                single-threaded and with pthreads
//   3. suites, in order:
//        native Catch2 (ctest)   one ctest entry per TEST_CASE
//        wasm Catch2 (Node)      the same sources built with em++, once per wasm build (the
//                                threaded one runs the [threads] suites at 2 and 3 threads)
//        node:test (wasm_tests)  the JavaScript API against the Embind module, and the package
//                                from `npm pack` in a fresh project (Vite, webpack, VitePress,
//                                TypeScript from the registry; wasm_tests/consumers/)
//        browser, per engine     the pages and the bundled consumer apps, end to end, once in
//                                Chromium and once in Firefox ESR
//                                (every wasm_tests/browser/*.test.mjs, TP_BROWSER=<engine>)
//        sanitize (ctest)        the Catch2 suite and the CLI test again, built with clang-14 under
//                                AddressSanitizer + UBSan (preset native-asan)
//        fuzz (libFuzzer)        each harness in fuzz/ for a few seconds from its seeds (scripts/fuzz.mjs)
//        tsan (Catch2)           the [threads] cases built with clang-14 under ThreadSanitizer
//                                (preset native-tsan): the thread pool is lock-free and hand-written
//   4. per-suite counts (checks an engine skipped, with why, listed under its line), then
//      "N passed, M failed" for the whole run; exit status 1 on any failure.
// `npm test -- --only native,wasm` runs a subset (native, wasm, node, browser, sanitize, fuzz, tsan)
// while developing; `--engines firefox` runs the browser suites in one engine only.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { readdirSync, existsSync } from 'node:fs';
import { buildNative, buildWasm, root } from './build.mjs';
import { engineNames } from './browsers.mjs';
import { harnesses, runFuzzers, sanitizerEnv } from './fuzz.mjs';

const suites = ['native', 'wasm', 'node', 'browser', 'sanitize', 'fuzz', 'tsan'];
// `--name a,b` or `--name=a,b`: a list of allowed values, or all of them.
function listOption(name, allowed) {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const list = arg ? (arg.includes('=') ? arg.split('=')[1] : process.argv[process.argv.indexOf(arg) + 1] ?? '').split(',') : allowed;
  for (const v of list) {
    if (!allowed.includes(v)) {
      console.error(`test.mjs: unknown ${name} value '${v}'; allowed: ${allowed.join(', ')}`);
      process.exit(2);
    }
  }
  return list;
}
const only = listOption('only', suites);
const engines = listOption('engines', engineNames);

function banner(text) {
  console.log(`\n=== ${text} ${'='.repeat(Math.max(0, 76 - text.length))}`);
}

// Runs a command, echoing its output live, and resolves with { code, output }.
function runLive(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    child.on('error', (e) => resolve({ code: 127, output: `${output}\n${e.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

// Counts from each runner's own summary line; a runner that crashed before its summary counts
// as one failure so the run can never pass silently.
function ctestCounts({ code, output }) {
  const m = output.match(/(\d+)% tests passed, (\d+) tests? failed out of (\d+)/);
  if (!m) return { passed: 0, failed: 1 };
  const total = Number(m[3]), failed = Number(m[2]);
  return { passed: total - failed, failed: failed + (code !== 0 && failed === 0 ? 1 : 0) };
}

function catchCounts({ code, output }) {
  const clean = output.replace(/\x1b\[[0-9;]*m/g, '');
  let m = clean.match(/All tests passed \(\d+ assertions? in (\d+) test cases?\)/);
  if (m) return { passed: Number(m[1]), failed: code === 0 ? 0 : 1 };
  m = clean.match(/test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/);
  if (m) return { passed: Number(m[2]), failed: Math.max(Number(m[3]), code === 0 ? 0 : 1) };
  m = clean.match(/test cases:\s*(\d+)\s*\|\s*(\d+) failed/);
  if (m) return { passed: 0, failed: Number(m[2]) };
  return { passed: 0, failed: 1 };
}

function nodeTestCounts({ code, output }) {
  const pass = output.match(/^# pass (\d+)/m), fail = output.match(/^# fail (\d+)/m);
  if (!pass || !fail) return { passed: 0, failed: 1 };
  const failed = Number(fail[1]);
  return { passed: Number(pass[1]), failed: failed + (code !== 0 && failed === 0 ? 1 : 0) };
}

// The checks a browser suite skipped because its engine lacks a feature (printed by
// onlyWhere() in wasm_tests/browser/browser.mjs), each once, with how many times.
function engineSkips(output) {
  const counts = new Map();
  for (const m of output.matchAll(/^\s*# (skipped on \S+ \([^)]+\): .*)$/gm)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  return [...counts].map(([text, n]) => (n > 1 ? `${text} (${n} checks)` : text));
}

function testFiles(dir) {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => path.join(dir, f));
}

async function main() {
  const started = Date.now();
  banner('setup');
  const setupArgs = only.includes('browser') ? [] : ['--no-browser'];
  const setup = spawnSync('bash', ['scripts/setup.sh', ...setupArgs], { cwd: root, stdio: 'inherit' });
  if (setup.status !== 0) {
    console.log('\n0 passed, 1 failed (setup failed)');
    process.exit(1);
  }

  banner('build');
  try {
    if (only.includes('native')) buildNative();
    if (only.some((s) => ['wasm', 'node', 'browser'].includes(s))) buildWasm();
    if (only.includes('sanitize') || only.includes('fuzz')) buildNative({ sanitize: true });
    if (only.includes('tsan')) buildNative({ tsan: true });
  } catch (e) {
    console.error(e.message);
    console.log('\n0 passed, 1 failed (build failed)');
    process.exit(1);
  }

  const results = [];
  if (only.includes('native')) {
    banner('native Catch2 (ctest)');
    results.push(['native Catch2', ctestCounts(await runLive('ctest', ['--test-dir', 'build/native', '-j2', '--output-on-failure', '--timeout', '900']))]);
  }
  if (only.includes('wasm')) {
    banner('wasm Catch2 (the same sources, em++, under Node)');
    results.push(['wasm Catch2', catchCounts(await runLive('node', ['--no-experimental-fetch', 'build/wasm/tp_tests.cjs', '--use-colour', 'no']))]);
    banner('wasm Catch2, threaded build (pthreads, under Node)');
    results.push(['wasm Catch2 threads', catchCounts(await runLive('node', ['--no-experimental-fetch', 'build/wasm-threads/tp_tests.cjs', '--use-colour', 'no']))]);
  }
  if (only.includes('node')) {
    banner('node:test (wasm_tests)');
    const files = testFiles('wasm_tests');
    results.push(['node:test', nodeTestCounts(await runLive('node', ['--test', '--test-reporter=tap', ...files]))]);
  }
  if (only.includes('browser')) {
    const files = testFiles('wasm_tests/browser');
    for (const engine of engines) {
      banner(`browser (${engine}, through puppeteer-core)`);
      const run = await runLive('node', ['--test', '--test-concurrency=1', '--test-reporter=tap', ...files], { env: { TP_BROWSER: engine } });
      results.push([`browser (${engine})`, { ...nodeTestCounts(run), notes: engineSkips(run.output) }]);
    }
  }

  if (only.includes('sanitize')) {
    banner('sanitize: Catch2 + CLI under AddressSanitizer and UBSan (ctest)');
    const run = await runLive('ctest', ['--test-dir', 'build/native-asan', '-j2', '--output-on-failure', '--timeout', '900'], { env: sanitizerEnv() });
    results.push(['sanitize', ctestCounts(run)]);
  }
  if (only.includes('fuzz')) {
    banner(`fuzz: ${Object.keys(harnesses).length} libFuzzer harnesses from their seeds`);
    const runs = await runFuzzers();
    const failed = runs.filter((r) => !r.ok).length;
    results.push(['fuzz', { passed: runs.length - failed, failed }]);
  }

  // ThreadSanitizer (its own suite, so it merges as one block): no suppressions (docs/TESTING.md).
  if (only.includes('tsan')) {
    banner('tsan: the [threads] Catch2 cases under ThreadSanitizer');
    const symbolizer = '/usr/lib/llvm-14/bin/llvm-symbolizer';
    const env = { TSAN_OPTIONS: `halt_on_error=1 second_deadlock_stack=1 external_symbolizer_path=${symbolizer}` };
    results.push(['tsan', catchCounts(await runLive('build/native-tsan/tp_tests', ['[threads]', '--use-colour', 'no'], { env }))]);
  }

  banner('summary');
  let passed = 0, failed = 0;
  for (const [name, c] of results) {
    console.log(`${name.padEnd(20)} ${String(c.passed).padStart(5)} passed ${String(c.failed).padStart(5)} failed`);
    for (const note of c.notes ?? []) console.log(`${' '.repeat(22)}${note}`);
    passed += c.passed;
    failed += c.failed;
  }
  console.log(`(${((Date.now() - started) / 60000).toFixed(1)} min)`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main();
