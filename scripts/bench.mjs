// `npm run bench`: every benchmark with its peers in the same run, printed as tables and written
// to bench/results/latest.json (every sample of every round). Nothing here asserts a time; the
// numbers are for reading.
//
//   npm run bench                                 all sections
//   npm run bench -- --only train,size            some sections (comma-separated)
//   npm run bench -- --rounds 3                   exactly 3 rounds a comparison (default: 3 or more,
//                                                 see below); --min-rounds N, --max-rounds N,
//                                                 --spread 0.1 set the rule instead
//   npm run bench -- --no-wide                    skip the wide native build (AVX2/AVX-512)
//   npm run bench -- --only train --impls chromium-wasm,firefox-wasm,pytorch
//                                                 some rows of the train section
//
// The method (bench/harness/rounds.mjs): a comparison's rows — ours and the peers' — are
// measured in rounds that alternate ours and the peer's, at least 3 rounds and more while a row's
// spread is wide; each round records the load average, the cores other work kept busy and the
// core clock, and a round whose load average exceeds the core count is repeated or marked; each
// row is printed as the median of its rounds with their range, and each ratio is the median of
// per-round ratios, so it only ever divides figures of the same round. A peer's set-ups are
// tried first and its best is the row.
//
// Sections, one module each in bench/sections/ (a new one is one line in `sections` below):
//   matmul   GFLOP/s of tp's kernels beside tfjs-wasm (XNNPACK) at the same shapes and forms
//   kernels  every other kernel of a training step against the same build's two roofs
//   train    tokens/s of the reference model and of one 1024-token sequence, 1 and 2 threads:
//            native, Node, Chromium, Firefox ESR, PyTorch at its best set-up, tfjs-wasm
//   generate ms per token with and without the KV cache; cached on 1 and 2 threads
//   size     a one-widget page served with brotli: files, raw / brotli / gzip bytes (bench/size.mjs;
//            also writes the page-weight tables of docs/WIDGETS.md and docs/PERFORMANCE.md)
//   import   a GPT-2-small-sized checkpoint: load time, peak memory, ms per token; then ours
//            against onnxruntime-web and @wllama/wllama on the same random weights (bench/import/)
//   drawing  the playground's main thread while lm-char trains: long tasks per minute, every panel in
//            view; work per snapshot with only the training bar in view (--views all,trainbar)
//   engines  one benchmark module (tp_bench_web.mjs) in Chromium and Firefox: products, a step
// Each file's header says what it measures and its options.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildNative, buildWasm, root } from './build.mjs';
import { clockGhz, describeMachine } from '../bench/harness/machine.mjs';
import { Browsers } from '../bench/harness/run.mjs';
import { defaultRounds } from '../bench/harness/rounds.mjs';
import { fmt, printTable } from '../bench/harness/table.mjs';

// name: [module, what it needs built]: native (build/native), wide (build/native-wide, where the
// CPU has AVX2 + FMA), wasm (both wasm presets: the Node programs and the web modules), web (the
// web module only, built if missing).
const sections = {
  matmul: ['../bench/sections/matmul.mjs', ['native', 'wide', 'wasm']],
  kernels: ['../bench/sections/kernels.mjs', ['native', 'wasm']],
  train: ['../bench/sections/train.mjs', ['native', 'wide', 'wasm']],
  generate: ['../bench/sections/generate.mjs', ['native', 'wide', 'wasm']],
  size: ['../bench/sections/size.mjs', ['web']],
  import: ['../bench/sections/import.mjs', ['native', 'web']],
  engines: ['../bench/sections/engines.mjs', ['wasm']],
  drawing: ['../bench/sections/drawing.mjs', ['web']],
};

// --name value pairs and bare --flags.
function parseArgs(argv) {
  const args = new Map();
  for (let i = 0; i < argv.length; ++i) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected argument '${argv[i]}' (options are --name value)`);
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) args.set(argv[i], argv[++i]);
    else args.set(argv[i], true);
  }
  return args;
}

function numberOption(args, name, { min = 1, integer = true } = {}) {
  if (!args.has(name)) return undefined;
  const v = Number(args.get(name));
  if (!(v >= min) || (integer && !Number.isInteger(v))) throw new Error(`${name} must be ${integer ? 'a whole number' : 'a number'} >= ${min}, got '${args.get(name)}'`);
  return v;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const chosen = args.has('--only') ? String(args.get('--only')).split(',') : Object.keys(sections);
  for (const name of chosen) {
    if (!sections[name]) throw new Error(`unknown section '${name}'; allowed: ${Object.keys(sections).join(', ')}`);
  }
  const fixed = numberOption(args, '--rounds');
  const rounds = {
    ...defaultRounds,
    ...(fixed ? { fixed, minRounds: Math.min(fixed, defaultRounds.minRounds) } : {}),
    ...(args.has('--min-rounds') ? { minRounds: numberOption(args, '--min-rounds') } : {}),
    ...(args.has('--max-rounds') ? { maxRounds: numberOption(args, '--max-rounds') } : {}),
    ...(args.has('--spread') ? { spreadLimit: numberOption(args, '--spread', { min: 0, integer: false }) } : {}),
  };
  rounds.maxRounds = Math.max(rounds.maxRounds, rounds.minRounds);
  const cpuFlags = (() => {
    try {
      return readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1].split(/\s+/) ?? [];
    } catch {
      return [];
    }
  })();
  const wide = !args.has('--no-wide') && cpuFlags.includes('avx2') && cpuFlags.includes('fma');

  // The peer (PyTorch with OpenBLAS's threaded build) and the browsers, if missing.
  const setup = spawnSync('bash', ['scripts/setup.sh', '--bench'], { cwd: root, stdio: 'inherit' });
  if (setup.status !== 0) throw new Error('scripts/setup.sh --bench failed');
  const needs = new Set(chosen.flatMap((name) => sections[name][1]));
  if (needs.has('native')) buildNative();
  if (needs.has('wide') && wide) buildNative({ wide: true });
  if (needs.has('wasm') || (needs.has('web') && !existsSync(path.join(root, 'web/lib/wasm/transformer_playground.wasm')))) buildWasm();

  const file = path.join(root, 'bench', 'results', 'latest.json');
  // With --only, the other sections keep their previous figures.
  const previous = args.has('--only') && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const results = { ...previous, env: { date: new Date().toISOString(), ...describeMachine(), wide, rounds, load_average: os.loadavg() } };
  results.env.clock_ghz_start = await clockGhz(root);
  const m = results.env;
  console.log(`\n${m.cpu}, ${m.cores} cores; load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}; clock ${fmt(m.clock_ghz_start, 2)} GHz`);
  const browsers = new Browsers(root);
  const ctx = { root, args, wide, rounds, browsers, printTable };
  try {
    for (const name of chosen) {
      const module = await import(sections[name][0]);
      results[name] = await module.run(ctx);
      await browsers.close();  // an engine left open would run beside the next section
    }
  } finally {
    await browsers.close();
  }
  results.env.clock_ghz_end = await clockGhz(root);
  results.env.load_average_end = os.loadavg();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
  console.log(`\nclock ${fmt(results.env.clock_ghz_start, 2)} GHz at the start, ${fmt(results.env.clock_ghz_end, 2)} GHz at the end; wrote bench/results/latest.json`);
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
