// cli_hostile_test.mjs — the `tp` command line against hostile model files, one ctest entry per
// case (native_targets.cmake registers `cli_hostile.<case>` for every name `--list` prints).
//
//   node native_tests/cli_hostile_test.mjs --list
//   node native_tests/cli_hostile_test.mjs TP CASE WORKDIR [--no-memory]
//
// A refused import must exit 1 with one line on stderr that matches the case's message and holds
// no raw control character, and its peak memory (maximum resident set, from /usr/bin/time) must
// stay within 2 × the bytes of its files + 64 MB. --no-memory skips that bound (the sanitizer
// build, whose shadow memory and quarantine are not the program's). Each case prints one line
// with its figures, which docs/TESTING.md's table of hostile inputs quotes.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostileModel, hostileModels } from './hostile_models.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, 'data', 'import');
const MB = 1 << 20;
// A raw control character (other than the newline ending a line) on a terminal stream.
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f\x80-\x9f]/u;

function check(condition, message) {
  if (!condition) throw new Error(message);
}

// Runs tp under /usr/bin/time; { status, stdout, stderr, rssMB, seconds }.
function run(tp, args, options = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', tp, ...args], { encoding: 'utf8', maxBuffer: 64 * MB, ...options });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.error) throw r.error;
  const lines = r.stderr.split('\n');
  const at = lines.findLastIndex((l) => l.startsWith('maxrss='));
  check(at >= 0, `/usr/bin/time printed no maxrss:\n${r.stderr}`);
  const rssMB = Number(lines[at].slice(7)) / 1024;
  const stderr = lines.filter((l, i) => i !== at && !/^Command exited with non-zero status/.test(l)).join('\n').trim();
  return { status: r.status, stdout: r.stdout, stderr, rssMB, seconds };
}

function refused(r, pattern, what) {
  check(r.status === 1, `${what}: expected exit status 1, got ${r.status}\n${r.stderr}`);
  check(!r.stderr.includes('\n'), `${what}: expected one line on stderr, got:\n${r.stderr}`);
  check(pattern.test(r.stderr), `${what}: the message does not match ${pattern}:\n${r.stderr.slice(0, 2000)}`);
  check(!CONTROL.test(r.stderr), `${what}: raw control characters on stderr: ${JSON.stringify(r.stderr.slice(0, 300))}`);
}

function withinBudget(r, bytes, options, what) {
  const budget = (2 * bytes) / MB + 64;
  const line = `peak ${r.rssMB.toFixed(1)} MB (budget ${budget.toFixed(1)} MB for ${(bytes / MB).toFixed(1)} MB of files), ${r.seconds.toFixed(2)} s`;
  console.log(`${what}: ${line}`);
  if (!options.noMemory) check(r.rssMB <= budget, `${what}: ${line}`);
}

// A hostile_models.mjs case through `tp inspect` (or `tp tokenize` for a tokenizer alone).
function modelCase(name) {
  return (tp, work, options) => {
    const made = hostileModel(name);
    const dir = path.join(work, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [file, bytes] of Object.entries(made.files)) writeFileSync(path.join(dir, file), bytes);
    const file = ['model.bin', 'checkpoint.safetensors'].find((f) => existsSync(path.join(dir, f)));
    const target = file ? path.join(dir, file) : dir;
    if (made.refusal) {
      const r = run(tp, ['inspect', '--model', target]);
      refused(r, made.refusal, name);
      withinBudget(r, made.bytes, options, `${name} (${made.what}): refused`);
      return;
    }
    if (made.tokenizerOnly) {
      const r = run(tp, ['tokenize', '--model', path.join(dir, 'tokenizer.bin'), '--json', 'aaaa a']);
      check(r.status === 0, `${name}: tokenize failed:\n${r.stderr}`);
      withinBudget(r, made.bytes, { noMemory: true }, `${name} (${made.what}): accepted`);
      return;
    }
    const r = run(tp, ['inspect', '--model', dir]);
    check(r.status === 0, `${name}: inspect failed:\n${r.stderr}`);
  };
}

// A copy of a fixture folder under `work`.
function fixture(work, name, as) {
  const dir = path.join(work, as);
  rmSync(dir, { recursive: true, force: true });
  cpSync(path.join(fixtures, name), dir, { recursive: true });
  rmSync(path.join(dir, 'expected.json'), { force: true });
  return dir;
}

const cases = {
  ...Object.fromEntries(Object.keys(hostileModels).filter((n) => n !== 'ansi-pieces').map((n) => [n, modelCase(n)])),

  'dev-zero': (tp) => {
    refused(run(tp, ['inspect', '--model', '/dev/zero']), /cannot read '\/dev\/zero': it is not a regular file \(a device\)/, 'dev-zero');
    refused(run(tp, ['train', '--task', 'text', '--data', '/dev/zero', '--steps', '1']), /not a regular file/, 'dev-zero --data');
  },

  'oversized-config': (tp, work) => {
    const dir = fixture(work, 'gpt2', 'oversized-config');
    truncateSync(path.join(dir, 'config.json'), 20 * 1024 * MB);  // sparse: 20 GB that take no disk
    const r = run(tp, ['inspect', '--model', dir]);
    refused(r, /is 21474836480 bytes, more than the 1048576 bytes \(1 MB\) such a file may have/, 'oversized-config');
    check(r.rssMB < 64, `oversized-config: read ${r.rssMB} MB`);
  },

  // A Hugging Face folder with other .bin files beside it: only the files the format needs are read.
  'reads-only-needed-files': (tp, work, options) => {
    const dir = fixture(work, 'gpt2', 'reads-only-needed-files');
    writeFileSync(path.join(dir, 'pytorch_model.bin'), '');
    truncateSync(path.join(dir, 'pytorch_model.bin'), 4 * 1024 * MB);  // sparse 4 GB
    symlinkSync('/dev/zero', path.join(dir, 'training_args.bin'));
    const r = run(tp, ['inspect', '--model', dir]);
    check(r.status === 0, `reads-only-needed-files: inspect failed:\n${r.stderr}`);
    const bytes = ['config.json', 'model.safetensors', 'tokenizer.json'].reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
    withinBudget(r, bytes, options, 'reads-only-needed-files (a 4 GB pytorch_model.bin beside): accepted');
  },

  // tp tokenize --model reads the tokenizer and never the weights (here, garbage).
  'tokenize-reads-only-tokenizer': (tp, work) => {
    for (const [name, target] of [['gpt2', ''], ['llama2c', 'model.bin']]) {
      const dir = fixture(work, name, `tokenize-only-${name}`);
      const weights = name === 'gpt2' ? 'model.safetensors' : 'model.bin';
      writeFileSync(path.join(dir, weights), 'not weights');
      const r = run(tp, ['tokenize', '--model', path.join(dir, target), '--json', 'the dog']);
      check(r.status === 0, `tokenize-reads-only-tokenizer (${name}): ${r.stderr}`);
      check(JSON.parse(r.stdout).ids.length > 0, `tokenize-reads-only-tokenizer (${name}): no ids`);
    }
  },

  // Pieces that are ANSI sequences and HTML: escaped on the terminal, exact in --json.
  'tokens-escaped-on-terminal': (tp, work) => {
    const made = hostileModel('ansi-pieces');
    const dir = path.join(work, 'ansi-pieces');
    mkdirSync(dir, { recursive: true });
    for (const [file, bytes] of Object.entries(made.files)) writeFileSync(path.join(dir, file), bytes);
    const payload = '\u001b';
    const outputs = {
      inspect: run(tp, ['inspect', '--model', dir]),
      tokenize: run(tp, ['tokenize', '--model', dir, `a${payload}a`]),
      'generate --show-probs': run(tp, ['generate', '--model', dir, '--prompt', 'a', '--max-tokens', '6', '--show-probs', '--seed', '1']),
    };
    for (const [what, r] of Object.entries(outputs)) {
      check(r.status === 0, `${what}: ${r.stderr}`);
      const shown = what === 'generate --show-probs' ? r.stdout.split('\n').filter((l) => l.startsWith('step')).join('\n') : r.stdout;
      check(!/\u001b/.test(shown), `${what} printed a raw ESC: ${JSON.stringify(shown.slice(0, 400))}`);
      check(shown.includes('\\x1b'), `${what} does not show the piece as \\x1b...: ${JSON.stringify(shown.slice(0, 400))}`);
    }
    const json = run(tp, ['tokenize', '--model', dir, '--json', `a${payload}a`]);
    check(JSON.parse(json.stdout).tokens.some((t) => t.text === payload), `--json does not keep the piece exact: ${json.stdout}`);
  },

  'inspect-lists-specials': (tp) => {
    const r = run(tp, ['inspect', '--model', path.join(fixtures, 'llama')]);
    check(r.status === 0, r.stderr);
    check(/specials: sos=1:<s> eos=2:<\/s> unk=0:<unk>/.test(r.stdout), `no specials line:\n${r.stdout}`);
    const j = JSON.parse(run(tp, ['inspect', '--model', path.join(fixtures, 'llama'), '--json']).stdout);
    check(j.tokenizer.specials.eos.id === 2 && j.tokenizer.specials.eos.text === '</s>', JSON.stringify(j.tokenizer));
  },

  // A second Ctrl-C while the model is being saved removes FILE.tmp. FILE.tmp is made a FIFO
  // beforehand, so the save blocks opening it and the second signal surely arrives during it.
  'second-sigint-removes-tmp': async (tp, work) => {
    const dir = path.join(work, 'sigint');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const out = path.join(dir, 'm.safetensors');
    check(spawnSync('mkfifo', [`${out}.tmp`]).status === 0, 'mkfifo failed');
    const child = spawn(tp, ['train', '--task', 'copy', '--steps', '1000000', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    await new Promise((resolve) => child.stderr.on('data', (d) => {
      stderr += d;
      if (/\bstep \d+\//.test(stderr)) resolve();  // a progress line: the loop runs, its handlers are in place
    }));
    child.kill('SIGINT');
    // Waits for the state, not the clock: the loop stops and the save blocks opening FILE.tmp.
    while (!openingFifo(child.pid)) {
      check(child.exitCode === null && child.signalCode === null, `tp train ended at the first signal: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    check(existsSync(`${out}.tmp`), 'FILE.tmp vanished before the second signal');
    child.kill('SIGINT');
    const { signal } = await exited;
    check(signal === 'SIGINT', `tp train should end by the second SIGINT, got ${signal}`);
    check(!existsSync(`${out}.tmp`), 'FILE.tmp is still there after the second Ctrl-C');
    check(!existsSync(out), 'no half file may be left either');
  },
};

// Whether a thread of process `pid` is blocked opening a FIFO that has no reader yet (Linux shows
// the kernel function it waits in as /proc/PID/task/TID/wchan).
function openingFifo(pid) {
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const wchan = readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8');
      if (/wait_for_partner|fifo_open/.test(wchan)) return true;
    }
  } catch {
    // the process or one of its threads ended meanwhile
  }
  return false;
}

async function main() {
  if (process.argv[2] === '--list') {
    console.log(Object.keys(cases).join(';'));
    return;
  }
  const [tp, name, work] = process.argv.slice(2);
  const options = { noMemory: process.argv.includes('--no-memory') };
  if (!cases[name]) {
    console.error(`unknown case '${name}'; cases: ${Object.keys(cases).join(', ')}`);
    process.exit(2);
  }
  mkdirSync(work, { recursive: true });
  try {
    await cases[name](tp, work, options);
    console.log(`ok ${name}`);
  } catch (e) {
    console.error(`FAIL ${name}: ${e.message}`);
    process.exit(1);
  }
}

main();
