// `npm test`: set up, build, run every suite, print what each took and one closing line.
//
//   npm test                                   everything
//   npm test -- --only native,wasm             some suites (the `group` names of SUITES)
//   npm test -- --engines firefox              the browser suites in one engine
//   npm test -- --only tsan                    the [threads] cases under ThreadSanitizer
//   npm test -- --budget                       also fail any test that took over 60 s on its own,
//                                              unless docs/TESTING.md's "Over the budget" lists it
//   npm test -- --verbose                      every suite's output as it comes
//
// 1. scripts/setup.sh installs what is missing (system packages, npm packages, the consumer
//    fixtures' tools). 2. The builds (BUILDS) and the suites (SUITES) run as jobs: a job starts
//    once the builds it needs are done and there is room for it — each job says how many cores it
//    keeps busy (`weight`), and the jobs running at once weigh at most the machine's cores plus one
//    (TP_TEST_SLOTS overrides), since every suite waits on something part of the time. Each job's
//    output goes to test-output/logs/<job>.log; the console gets a line per job as it starts and
//    ends, and a failing test's own output. 3. A summary: per suite its counts (tests, and the
//    assertions where its runner counts them), wall time and CPU time; per build its time; the
//    ten slowest tests; then "N passed, M failed". Exit status 1 on any failure.
//
// A suite is one entry of SUITES: { name, group (for --only), needs (BUILDS keys it waits for),
// uses (BUILDS keys it would build itself, started early and not waited for), weight,
// run(job) → { passed, failed, assertions?, tests: [{ name, seconds }], failures?: [text],
// notes?: [text] } }. `job.exec(cmd, args, options)` runs a command into the job's log and
// resolves with { code, output, cpu }; the parsers below read the runners' own summaries, and a
// runner that stops before its summary counts as a failure, so a run never passes silently.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assetCommands, cores, presetCommands, root } from './build.mjs';
import { engineNames } from './browsers.mjs';
import { harnesses, sanitizerEnv } from './fuzz.mjs';

const BUDGET_SECONDS = 60;
const logDir = path.join(root, 'test-output', 'logs');

// ---- the builds and the suites ----------------------------------------------------------------

// What the suites need built: a CMake preset and its targets (only what a suite runs; `npm run
// build` builds every target) and what follows (a wasm module's compressed copies, the widgets'
// bundle); or, with `needs`, other commands once those builds are done. Each weighs `cores`
// (ninja -j<cores>; the apps' bundlers use every core too).
const preset = (name, targets) => () => [...presetCommands(name, { targets }), ...(name.startsWith('wasm') ? assetCommands(name) : [])];
const BUILDS = {
  wasm: { commands: preset('wasm', ['tp_tests', 'tp_web']) },
  'wasm-threads': { commands: preset('wasm-threads', ['tp_tests', 'tp_web']) },
  native: { commands: preset('native', ['tp_tests', 'tp']) },
  'native-asan': { commands: preset('native-asan') },
  'native-tsan': { commands: preset('native-tsan', ['tp_tests']) },
  // The consumer apps (Vite, webpack, VitePress; Docusaurus, Astro, Next.js) built from `npm pack`
  // as soon as the package is, beside the suites that are already running; the tests that open
  // them find them built (or wait for the build under its lock; run alone, they build them).
  apps: { needs: ['wasm', 'wasm-threads'], commands: () => [[process.execPath, ['wasm_tests/consumers/build_apps.mjs']]] },
};

const engines = listOption('engines', engineNames);
const testFiles = (dir) => {
  const full = path.join(root, dir);
  return existsSync(full) ? readdirSync(full).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => path.join(dir, f)) : [];
};

// Each suite once. The order is the order they start in when there is room (the longest first)
// and the summary's. Builds weigh `cores` (ninja -j<cores>); a browser suite runs `cores` files at
// once, which mostly wait on their pages, so it weighs 1.
const SUITES = [
  { name: 'format', group: 'format', needs: [], weight: 1, run: formatSuite },
  ...engines.map((engine) => ({
    name: `browser (${engine})`, group: 'browser', needs: ['wasm', 'wasm-threads'], uses: ['apps'], weight: 1,
    // Each file starts its own servers (on ports of their own) and its own browser.
    run: (job) => nodeTestSuite(job, testFiles('wasm_tests/browser'), { concurrency: cores, env: { TP_BROWSER: engine }, engineSkips: true }),
  })),
  // Both wasm modules: the package test packs them.
  { name: 'node:test', group: 'node', needs: ['wasm', 'wasm-threads'], uses: ['apps'], weight: 2, run: (job) => nodeTestSuite(job, testFiles('wasm_tests'), { concurrency: 2 }) },
  { name: 'sanitize', group: 'sanitize', needs: ['native-asan'], weight: cores, run: (job) => ctestSuite(job, 'build/native-asan', { env: sanitizerEnv() }) },
  { name: 'native Catch2', group: 'native', needs: ['native'], weight: cores, run: (job) => ctestSuite(job, 'build/native') },
  { name: 'wasm Catch2', group: 'wasm', needs: ['wasm'], weight: 1, run: (job) => catchSuite(job, 'build/wasm/tp_tests.cjs') },
  // Only the cases that need threads ([threads]; the build compiles only their files): the rest
  // is the single-threaded build's, with the same bits.
  { name: 'wasm Catch2 threads', group: 'wasm', needs: ['wasm-threads'], weight: 2, run: (job) => catchSuite(job, 'build/wasm-threads/tp_tests.cjs', ['[threads]']) },
  { name: 'fuzz', group: 'fuzz', needs: ['native-asan'], weight: 1, run: fuzzSuite },
  // The [threads] cases under ThreadSanitizer (the thread pool is lock-free and hand-written); no
  // suppressions (docs/TESTING.md).
  { name: 'tsan', group: 'tsan', needs: ['native-tsan'], weight: 2, run: tsanSuite },
];

// ---- options ----------------------------------------------------------------------------------

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

const groups = [...new Set(SUITES.map((s) => s.group))];
const only = listOption('only', groups);
const budget = process.argv.includes('--budget');
const verbose = process.argv.includes('--verbose');
const slots = Number(process.env.TP_TEST_SLOTS) || cores + 1;

// ---- running commands -------------------------------------------------------------------------

const fmtTime = (s) => (s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(1)}s`);

// Runs `cmd args` through bash so its CPU time (its own and its children's, from bash's `times`)
// is known; output goes to `log` (and the console with --verbose, each line after `prefix`).
function execInto(log, prefix, cmd, args, { env = {}, cwd = root } = {}) {
  const timesFile = path.join(tmpdir(), `tp-times-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', '"$@"; rc=$?; times > "$TP_TIMES_FILE"; exit $rc', 'bash', cmd, ...args], {
      cwd, env: { ...process.env, ...env, TP_TIMES_FILE: timesFile }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let partial = '';
    const onData = (chunk) => {
      const text = chunk.toString();
      output += text;
      log.write(text);
      if (verbose) {
        const lines = (partial + text).split('\n');
        partial = lines.pop();
        for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (e) => resolve({ code: 127, output: `${output}\n${e.message}`, cpu: 0 }));
    child.on('close', (code) => {
      let cpu = 0;
      try {
        // Two lines, "0m0.001s 0m0.002s": the shell's user and system time, then its children's.
        const children = readFileSync(timesFile, 'utf8').trim().split('\n')[1] ?? '';
        for (const m of children.matchAll(/(\d+)m([\d.]+)s/g)) cpu += Number(m[1]) * 60 + Number(m[2]);
        rmSync(timesFile, { force: true });
      } catch {
        // The shell was killed before it could say.
      }
      resolve({ code: code ?? 1, output, cpu });
    });
  });
}

// ---- parsers: counts, assertions and per-test times from each runner's own output --------------

const clean = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

// ctest -V: "  3/99 Test  #3: name ....   Passed    1.23 sec" per test, each test's output
// prefixed "<number>: ", Catch2's "All tests passed (N assertions in 1 test case)" among it.
function ctestResults({ code, output }) {
  const text = clean(output);
  const tests = [], failures = [];
  let assertions = 0;
  for (const m of text.matchAll(/^\d+: All tests passed \((\d+) assertions? in \d+ test cases?\)/gm)) assertions += Number(m[1]);
  for (const m of text.matchAll(/^\s*\d+\/\d+ Test\s+#(\d+): (.+?) \.+\**\s*(Passed|\*\*\*Failed|Failed|\*\*\*Timeout|\*\*\*Exception:?.*?|Not Run)?\s+([\d.]+) sec/gm)) {
    tests.push({ name: m[2].trim(), seconds: Number(m[4]) });
    if (m[3] !== 'Passed') {
      const own = text.split('\n').filter((l) => l.startsWith(`${m[1]}: `)).map((l) => l.slice(m[1].length + 2));
      failures.push(`${m[2].trim()} (${m[3] ?? 'failed'}):\n${own.slice(-80).join('\n')}`);
    }
  }
  const summary = text.match(/(\d+)% tests passed, (\d+) tests? failed out of (\d+)/);
  if (!summary) return { passed: 0, failed: 1, tests, failures: [...failures, `ctest stopped before its summary (exit ${code})`] };
  const total = Number(summary[3]), failed = Number(summary[2]);
  return { passed: total - failed, failed: failed + (code !== 0 && failed === 0 ? 1 : 0), assertions, tests, failures };
}

// Catch2 with --durations yes: "0.123 s: name" per test case, then its totals.
function catchResults({ code, output }) {
  const text = clean(output);
  const tests = [...text.matchAll(/^([\d.]+) s: (.+)$/gm)].map((m) => ({ name: m[2].trim(), seconds: Number(m[1]) }));
  let m = text.match(/All tests passed \((\d+) assertions? in (\d+) test cases?\)/);
  if (m) return { passed: Number(m[2]), failed: code === 0 ? 0 : 1, assertions: Number(m[1]), tests, failures: code === 0 ? [] : [`exit ${code}`] };
  m = text.match(/test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed\s*\n\s*assertions:\s*(\d+)/);
  const failures = [text.slice(Math.max(0, text.indexOf('-------------------------------------------------------------------------------'))).slice(0, 20000)];
  if (m) return { passed: Number(m[2]), failed: Math.max(Number(m[3]), code === 0 ? 0 : 1), assertions: Number(m[4]), tests, failures };
  return { passed: 0, failed: 1, tests, failures: [`Catch2 stopped before its summary (exit ${code}):\n${text.slice(-4000)}`] };
}

// node:test's TAP: top-level "ok N - name" / "not ok N - name", each with "  duration_ms: …";
// then "# pass N", "# fail N", "# cancelled N".
function tapResults({ code, output }) {
  const lines = output.split('\n');
  const tests = [], failures = [];
  for (let i = 0; i < lines.length; ++i) {
    const m = lines[i].match(/^(not )?ok \d+ - (.*)$/);
    if (!m) continue;
    let j = i + 1, seconds = 0;
    const block = [];
    for (; j < lines.length && !/^(?:# Subtest:|(?:not )?ok \d+ - |# (?:tests|pass|fail) )/.test(lines[j]); ++j) {
      block.push(lines[j]);
      const d = lines[j].match(/^ {2}duration_ms: ([\d.]+)/);
      if (d) seconds = Number(d[1]) / 1000;
    }
    tests.push({ name: m[2].replace(/ # .*$/, ''), seconds });
    if (m[1]) failures.push(`${m[2]}\n${block.slice(0, 60).join('\n')}`);
  }
  const count = (name) => Number(output.match(new RegExp(`^# ${name} (\\d+)`, 'm'))?.[1] ?? NaN);
  const [pass, fail, cancelled] = [count('pass'), count('fail'), count('cancelled') || 0];
  if (Number.isNaN(pass) || Number.isNaN(fail)) return { passed: 0, failed: 1, tests, failures: [...failures, `node --test stopped before its summary (exit ${code})`] };
  const failed = fail + cancelled;
  return { passed: pass, failed: failed + (code !== 0 && failed === 0 ? 1 : 0), tests, failures };
}

// The checks a browser suite skipped because its engine lacks a feature (printed by onlyWhere()
// in wasm_tests/browser/browser.mjs), each once, with how many times.
function engineSkips(output) {
  const counts = new Map();
  for (const m of output.matchAll(/^\s*# (skipped on \S+ \([^)]+\): .*)$/gm)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  return [...counts].map(([text, n]) => (n > 1 ? `${text} (${n} checks)` : text));
}

// ---- the suites' runs -------------------------------------------------------------------------

async function ctestSuite(job, dir, { env } = {}) {
  const run = await job.exec('ctest', ['--test-dir', dir, `-j${cores}`, '-V', '--timeout', '900'], { env });
  return ctestResults(run);
}

async function catchSuite(job, program, filters = []) {
  const run = await job.exec('node', ['--no-experimental-fetch', program, ...filters, '--use-colour', 'no', '--durations', 'yes']);
  return catchResults(run);
}

async function tsanSuite(job) {
  const symbolizer = '/usr/lib/llvm-14/bin/llvm-symbolizer';
  const env = { TSAN_OPTIONS: `halt_on_error=1 second_deadlock_stack=1 external_symbolizer_path=${symbolizer}` };
  return catchResults(await job.exec(path.join(root, 'build', 'native-tsan', 'tp_tests'), ['[threads]', '--use-colour', 'no', '--durations', 'yes'], { env }));
}

async function nodeTestSuite(job, files, { concurrency, env = {}, engineSkips: skips = false }) {
  const run = await job.exec('node', ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=tap', ...files], { env });
  const results = tapResults(run);
  return skips ? { ...results, notes: engineSkips(run.output) } : results;
}

async function formatSuite(job) {
  const started = Date.now();
  const run = await job.exec('node', ['scripts/check_format.mjs']);
  const m = run.output.match(/^(\d+) of (\d+) C\+\+ files formatted/m);
  const failures = [...run.output.matchAll(/^ {2}not formatted: (.*)$/gm)].map((f) => f[1]);
  if (!m) return { passed: 0, failed: 1, tests: [], failures: [`the format check stopped (exit ${run.code}):\n${run.output.slice(-2000)}`] };
  const [formatted, files] = [Number(m[1]), Number(m[2])];
  return { passed: formatted, failed: files - formatted, tests: [{ name: `${files} C++ files`, seconds: (Date.now() - started) / 1000 }], failures };
}

async function fuzzSuite(job) {
  const script = "const { runFuzzers } = await import('./scripts/fuzz.mjs'); const runs = await runFuzzers(); console.log(`fuzz: ${runs.filter((r) => r.ok).length} of ${runs.length} harnesses clean`);";
  const run = await job.exec('node', ['--input-type=module', '-e', script]);
  const ok = [...run.output.matchAll(/^ {2}ok {6}(fuzz_\w+)/gm)].map((m) => m[1]);
  const findings = [...run.output.matchAll(/^ {2}FINDING (fuzz_\w+)/gm)].map((m) => m[1]);
  const expected = Object.keys(harnesses).length;
  const failed = findings.length + Math.max(0, expected - ok.length - findings.length);
  return {
    passed: ok.length, failed,
    tests: [],
    failures: failed ? [run.output.slice(run.output.indexOf('FINDING') >= 0 ? run.output.indexOf('FINDING') : 0).slice(0, 20000)] : [],
  };
}

// ---- the scheduler ----------------------------------------------------------------------------

// Jobs: the builds the chosen suites need, then the suites. A job waits for its `needs`; the
// first waiting job (in this order) that fits the free weight starts, or any one when nothing
// runs. A failed build fails the suites that need it, with why.
async function runJobs(jobs) {
  const done = new Map();   // name -> ok
  const running = new Set();
  let resolveAll;
  const all = new Promise((r) => { resolveAll = r; });
  const weightRunning = () => [...running].reduce((n, j) => n + j.weight, 0);
  const pump = () => {
    for (const job of jobs) {
      if (job.state) continue;
      if (!job.needs.every((n) => done.has(n))) continue;
      const failedNeed = job.needs.find((n) => done.get(n) === false);
      if (failedNeed) {
        job.state = 'done';
        job.result = { passed: 0, failed: 1, tests: [], failures: [`not run: the ${failedNeed} build failed`] };
        done.set(job.name, false);
        continue;
      }
      if (running.size && weightRunning() + job.weight > slots) continue;
      job.state = 'running';
      running.add(job);
      start(job).then(() => {
        running.delete(job);
        job.state = 'done';
        done.set(job.name, job.result.failed === 0);
        pump();
      });
    }
    if (jobs.every((j) => j.state === 'done')) resolveAll();
  };
  pump();
  return all;
}

async function start(job) {
  mkdirSync(logDir, { recursive: true });
  const file = path.join(logDir, `${job.name.replace(/[^\w.-]+/g, '-').replace(/-+$/, '')}.log`);
  job.log = createWriteStream(file);
  job.logFile = path.relative(root, file);
  job.cpu = 0;
  job.exec = async (cmd, args, options) => {
    const r = await execInto(job.log, `[${job.name}] `, cmd, args, options);
    job.cpu += r.cpu;
    return r;
  };
  console.log(`▶ ${job.name}${job.kind === 'build' ? ' (build)' : ''}`);
  const started = Date.now();
  try {
    job.result = await job.run(job);
  } catch (e) {
    job.result = { passed: 0, failed: 1, tests: [], failures: [e.stack ?? String(e)] };
  }
  job.seconds = (Date.now() - started) / 1000;
  await new Promise((r) => job.log.end(r));
  const r = job.result;
  const counts = job.kind === 'build' ? (r.failed ? 'failed' : 'built') : `${r.passed} passed, ${r.failed} failed`;
  console.log(`${r.failed ? '✗' : '✔'} ${job.name}: ${counts} (${fmtTime(job.seconds)}, CPU ${fmtTime(job.cpu)})`);
  for (const f of r.failures ?? []) console.log(f.split('\n').map((l) => `    ${l}`).join('\n'));
  if (r.failed) console.log(`    whole output: ${job.logFile}`);
}

function buildJob(name) {
  const { commands, needs = [] } = BUILDS[name];
  return {
    name, kind: 'build', needs, weight: cores,
    async run(job) {
      for (const [cmd, args] of commands()) {
        const r = await job.exec(cmd, args);
        if (r.code !== 0) return { passed: 0, failed: 1, tests: [], failures: [`${cmd} ${args.join(' ')} failed (exit ${r.code}):\n${r.output.split('\n').slice(-60).join('\n')}`] };
      }
      return { passed: 1, failed: 0, tests: [] };
    },
  };
}

// ---- the budget -------------------------------------------------------------------------------

// docs/TESTING.md's "Over the budget" table: | suite | test | why |, a test given by its name or
// as /a regular expression/.
function budgetExceptions() {
  const doc = readFileSync(path.join(root, 'docs', 'TESTING.md'), 'utf8');
  const section = doc.split(/^#+ Over the budget\s*$/m)[1]?.split(/^#+ /m)[0] ?? '';
  return [...section.matchAll(/^\| `?([^|`]+?)`? \| (.+?) \| .+ \|$/gm)]
    .filter((m) => !/^-+$/.test(m[1].trim()) && m[1].trim() !== 'suite')
    .map((m) => {
      const test = m[2].trim().replace(/^`|`$/g, '');
      const re = test.startsWith('/') && test.endsWith('/') ? new RegExp(test.slice(1, -1)) : null;
      return { suite: m[1].trim(), matches: (name) => (re ? re.test(name) : name === test) };
    });
}

// ---- main -------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const cpuAtStart = childCpu();
  console.log(`=== setup ${'='.repeat(68)}`);
  const setupArgs = [...(only.includes('browser') ? [] : ['--no-browser']), ...(only.includes('node') || only.includes('browser') ? [] : ['--no-consumers'])];
  const setup = spawnSync('bash', ['scripts/setup.sh', ...setupArgs], { cwd: root, stdio: 'inherit' });
  if (setup.status !== 0) {
    console.log('\n0 passed, 1 failed (setup failed)');
    process.exit(1);
  }
  const setupSeconds = (Date.now() - started) / 1000;

  const suites = SUITES.filter((s) => only.includes(s.group)).map((s) => ({ ...s, kind: 'suite' }));
  const needed = Object.keys(BUILDS).filter((b) => suites.some((s) => [...s.needs, ...(s.uses ?? [])].includes(b)));
  const jobs = [...needed.map(buildJob), ...suites];
  console.log(`=== ${needed.length} builds and ${suites.length} suites on ${cores} cores (jobs of weight ${slots} at once) ${'='.repeat(10)}`);
  await runJobs(jobs);

  console.log(`\n=== summary ${'='.repeat(66)}`);
  const over = [];
  const exceptions = budget ? budgetExceptions() : [];
  let passed = 0, failed = 0;
  console.log(`${'suite'.padEnd(22)} ${'passed'.padStart(6)} ${'failed'.padStart(6)} ${'assertions'.padStart(11)} ${'wall'.padStart(7)} ${'CPU'.padStart(7)}`);
  for (const job of suites) {
    const r = job.result;
    console.log(`${job.name.padEnd(22)} ${String(r.passed).padStart(6)} ${String(r.failed).padStart(6)} ${(r.assertions ? r.assertions.toLocaleString('en-US') : '').padStart(11)} ${fmtTime(job.seconds ?? 0).padStart(7)} ${fmtTime(job.cpu ?? 0).padStart(7)}`);
    for (const note of r.notes ?? []) console.log(`${' '.repeat(24)}${note}`);
    passed += r.passed;
    failed += r.failed;
    if (budget) {
      for (const t of r.tests ?? []) {
        if (t.seconds > BUDGET_SECONDS && !exceptions.some((e) => e.suite === job.name && e.matches(t.name))) over.push(`${job.name}: ${t.name} (${fmtTime(t.seconds)})`);
      }
    }
  }
  for (const job of jobs.filter((j) => j.kind === 'build')) {
    console.log(`${`build ${job.name}`.padEnd(22)} ${job.result.failed ? 'FAILED'.padStart(6) : ''.padStart(6)} ${''.padStart(6)} ${''.padStart(11)} ${fmtTime(job.seconds ?? 0).padStart(7)} ${fmtTime(job.cpu ?? 0).padStart(7)}`);
    failed += job.result.failed;
  }
  const slowest = suites.flatMap((j) => (j.result.tests ?? []).map((t) => ({ ...t, suite: j.name }))).sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  console.log('\nthe 10 slowest tests:');
  for (const t of slowest) console.log(`  ${fmtTime(t.seconds).padStart(7)}  ${t.suite}: ${t.name}`);
  if (budget) {
    if (over.length) {
      console.log(`\nover the budget of ${BUDGET_SECONDS} s a test (docs/TESTING.md, "Over the budget", lists the allowed ones):`);
      for (const o of over) console.log(`  ${o}`);
    } else {
      console.log(`\nno test over the budget of ${BUDGET_SECONDS} s`);
    }
    failed += over.length;
  }
  const cpu = childCpu() - cpuAtStart;
  console.log(`\nsetup ${fmtTime(setupSeconds)}; whole run ${fmtTime((Date.now() - started) / 1000)} wall, ${fmtTime(cpu)} CPU (user + system, every process)`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// CPU seconds of this process's finished children (and theirs), from /proc/self/stat.
function childCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command: field 16 cutime and 17 cstime (1-based, counting from pid), in ticks.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

main();
