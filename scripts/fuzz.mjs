// Runs the libFuzzer harnesses in fuzz/ (built by the native-asan preset) for a bounded time.
//
//   npm run fuzz                              every harness for 300 s, corpus kept in fuzz/local-corpus/
//   npm run fuzz -- --time 60 --only json,config
//   node scripts/fuzz.mjs --smoke             what `npm test` runs: a few seconds each, seeds only
//
// Each harness reads its committed seeds (fuzz/corpus/<folder>, see `harnesses`) plus a writable
// corpus folder first in line, where libFuzzer keeps the inputs that reach new code: a scratch
// folder under test-output/ for --smoke, fuzz/local-corpus/<harness>/ (git-ignored) otherwise,
// so long runs build on each other while the committed seeds stay small. Any finding — a crash,
// a sanitizer report, a leak, a timeout (-timeout, per input), running out of memory, or a
// broken promise in the harness — fails the run and leaves the input in
// test-output/fuzz/<harness>/ with the command that reproduces it (docs/TESTING.md).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNative, root } from './build.mjs';

// harness (fuzz/fuzz_<name>.cpp) -> the seed folders in fuzz/corpus/ it reads and its dictionary.
export const harnesses = {
  json: { seeds: ['json', 'config', 'tokenizer_json'], dict: 'json.dict' },
  config: { seeds: ['config'], dict: 'config.dict' },
  tokenizer: { seeds: ['text'] },
  tokenizer_json: { seeds: ['tokenizer_json'], dict: 'tokenizer_json.dict' },
  bpe_train: { seeds: ['text'] },
  checkpoint: { seeds: ['checkpoint'], dict: 'checkpoint.dict' },
  user_task: { seeds: ['pairs', 'text'] },
  // Other projects' model files (src/import), seeds from fuzz/make_import_seeds.mjs.
  hf_config: { seeds: ['hf_config', 'config'], dict: 'hf.dict' },
  hf_tokenizer_gpt2: { seeds: ['hf_tokenizer_gpt2'], dict: 'hf.dict' },
  hf_tokenizer_llama: { seeds: ['hf_tokenizer_llama'], dict: 'hf.dict' },
  hf_vocab_merges: { seeds: ['hf_vocab_merges'], dict: 'hf.dict' },
  hf_safetensors: { seeds: ['hf_safetensors'], dict: 'hf.dict' },
  llama2c_model: { seeds: ['llama2c_model'] },
  llama2c_tokenizer: { seeds: ['llama2c_tokenizer'] },
};

export const smokeSeconds = 4;   // per harness in `npm test`: about a minute for all fourteen
export const longSeconds = 300;  // per harness in `npm run fuzz`
const perInputTimeout = 10;      // seconds; one input running longer is a hang (a finding)

const buildDir = path.join(root, 'build', 'native-asan');
const outputDir = path.join(root, 'test-output', 'fuzz');

// Every fuzz_*.cpp must be in the table, so no harness is silently left out of the runs.
function checkTable() {
  const sources = readdirSync(path.join(root, 'fuzz')).filter((f) => /^fuzz_.*\.cpp$/.test(f));
  const missing = sources.map((f) => f.slice(5, -4)).filter((name) => !harnesses[name]);
  if (missing.length) throw new Error(`scripts/fuzz.mjs: no entry in 'harnesses' for ${missing.join(', ')}`);
}

// The LLVM symbolizer that matches clang-14, so reports name files and lines.
export function sanitizerEnv() {
  const env = { UBSAN_OPTIONS: 'print_stacktrace=1' };
  const symbolizer = '/usr/lib/llvm-14/bin/llvm-symbolizer';
  if (existsSync(symbolizer)) env.ASAN_SYMBOLIZER_PATH = symbolizer;
  return env;
}

function runHarness(name, { seconds, smoke }) {
  const spec = harnesses[name];
  const binary = path.join(buildDir, 'fuzz', `fuzz_${name}`);
  const artifacts = path.join(outputDir, name);
  mkdirSync(artifacts, { recursive: true });
  const corpus = smoke ? path.join(artifacts, 'corpus') : path.join(root, 'fuzz', 'local-corpus', name);
  if (smoke) rmSync(corpus, { recursive: true, force: true });
  mkdirSync(corpus, { recursive: true });
  const args = [
    `-max_total_time=${seconds}`,
    `-timeout=${perInputTimeout}`,
    '-print_final_stats=1',
    `-artifact_prefix=${artifacts}/`,
    ...(spec.dict ? [`-dict=${path.join(root, 'fuzz', 'dict', spec.dict)}`] : []),
    corpus,
    ...spec.seeds.map((s) => path.join(root, 'fuzz', 'corpus', s)),
  ];
  return new Promise((resolve) => {
    const child = spawn(binary, args, { cwd: root, env: { ...process.env, ...sanitizerEnv() }, stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk) => {
      output = (output + chunk).slice(-400000);  // the report is at the end; the NEW/REDUCE lines are not needed
    });
    child.on('error', (e) => resolve({ name, ok: false, output: e.message, args }));
    child.on('close', (code) => resolve({ name, ok: code === 0, code, output, args, binary }));
  });
}

function describe(r) {
  const execs = r.output.match(/stat::number_of_executed_units:\s*(\d+)/);
  const cov = [...r.output.matchAll(/\bcov: (\d+)/g)].pop();
  const parts = [execs ? `${Number(execs[1]).toLocaleString('en-US')} runs` : null, cov ? `coverage ${cov[1]}` : null];
  return parts.filter(Boolean).join(', ');
}

function report(r) {
  if (r.ok) {
    console.log(`  ok      fuzz_${r.name}: ${describe(r)}`);
    return;
  }
  const unit = r.output.match(/Test unit written to (\S+)/);
  console.log(`  FINDING fuzz_${r.name} (exit ${r.code}): ${describe(r)}`);
  const lines = r.output.split('\n');
  const start = Math.max(0, lines.findIndex((l) => /==\d+==ERROR|runtime error:|fuzz finding:|ERROR: libFuzzer/.test(l)));
  console.log(lines.slice(start, start + 60).map((l) => `    ${l}`).join('\n'));
  if (unit) {
    const rel = path.relative(root, unit[1]);
    console.log(`  reproducer: ${rel}`);
    console.log(`  reproduce:  ${path.relative(root, r.binary)} ${rel}`);
  }
}

// Runs the chosen harnesses one after another; resolves with one { name, ok } per harness.
export async function runFuzzers({ names = Object.keys(harnesses), seconds = smokeSeconds, smoke = true } = {}) {
  checkTable();
  const results = [];
  for (const name of names) {
    const r = await runHarness(name, { seconds, smoke });
    report(r);
    results.push(r);
  }
  return results;
}

async function main() {
  const argValue = (flag) => {
    const i = process.argv.indexOf(flag);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const smoke = process.argv.includes('--smoke');
  const seconds = Number(argValue('--time') ?? (smoke ? smokeSeconds : longSeconds));
  const names = (argValue('--only') ?? Object.keys(harnesses).join(',')).split(',');
  for (const name of names) {
    if (!harnesses[name]) {
      console.error(`fuzz.mjs: unknown harness '${name}'; allowed: ${Object.keys(harnesses).join(', ')}`);
      process.exit(2);
    }
  }
  if (!(seconds > 0)) {
    console.error('fuzz.mjs: --time takes a number of seconds > 0');
    process.exit(2);
  }
  const setup = spawnSync('bash', ['scripts/setup.sh', '--no-browser'], { cwd: root, stdio: 'inherit' });
  if (setup.status !== 0) process.exit(1);
  try {
    buildNative({ sanitize: true });
  } catch (e) {
    console.error(`fuzz.mjs: ${e.message}`);
    process.exit(1);
  }
  console.log(`fuzzing ${names.length} harness(es), ${seconds} s each${smoke ? ' (seeds only)' : ', corpus in fuzz/local-corpus/'}`);
  const results = await runFuzzers({ names, seconds, smoke });
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
