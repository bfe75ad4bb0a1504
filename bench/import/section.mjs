// `npm run bench -- --only import`: ours against onnxruntime-web (wasm) and @wllama/wllama
// (llama.cpp) on the same random weights, in Node where the peer runs there (wllama needs a
// browser's storage and workers) and in headless Chromium, interleaved: each round measures
// every runtime of a row once, in an order that rotates from round to round, so a change in the
// machine's load falls on all of them; medians and ranges over the rounds, the load average of
// each round. Every measurement is a fresh process (Node) or a fresh browser (Chromium), so its
// peak memory is its own: the process's peak resident set (Node) or the renderer's (Chromium;
// the tab's JavaScript, its workers and its wasm memory). Rows: {impl, model, dtype, env,
// threads, load_ms, ms_per_token, peak_mb}; the share of the machine's memory bandwidth our
// decode uses beside them (bytes of weights read per token ÷ time, against a STREAM-like copy in
// the same engine and round).
//
//   --rounds N          rounds (default 5)
//   --shapes a,b        of gpt2-small, stories15M, stories110M (default all)
//   --import-threads    thread counts (default 1,2)
//   --envs node,chromium
//   --dtypes F32,F16,BF16
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DTYPES, prepareShape } from './prepare.mjs';
import { SHAPES } from './shapes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROMPT = 'The quick brown fox jumps over the lazy dog';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

// Bytes of weights one generated token reads: every matrix of every layer and the head (for a
// tied head the embedding, read whole), in the dtype they are stored in; one embedding row.
export function weightBytesPerToken(shapeName, dtype) {
  const s = SHAPES[shapeName], size = dtype === 'F32' ? 4 : 2;
  const kv = s.family === 'gpt2' ? s.d : (s.kvHeads * s.d) / s.heads;
  const perLayer = s.family === 'gpt2' ? 4 * s.d * s.d + 2 * s.d * s.ffn : 2 * s.d * s.d + 2 * s.d * kv + 3 * s.d * s.ffn;
  return size * (s.layers * perLayer + s.vocab * s.d);
}

// Runs one spec in a fresh Node process.
function nodeMeasure(spec) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'bench', 'import', 'node_run.mjs'), JSON.stringify(spec)],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      resolve(line ? JSON.parse(line) : { error: `no result (${err.trim().split('\n').pop()})` });
    });
  });
}

// The renderer processes of a browser (children of its process whose command line says so) and
// their peak resident memory, in MB.
function rendererPeakMb(browserPid) {
  const children = (pid) => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
    try {
      return readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(pid);
    } catch {
      return false;
    }
  });
  const all = [];
  const walk = (pid) => children(pid).forEach((c) => { all.push(c); walk(c); });
  walk(browserPid);
  let peak = 0;
  for (const pid of all) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (hwm) peak = Math.max(peak, Number(hwm[1]) / 1024);
    } catch {
      // the process ended
    }
  }
  return peak;
}

// Runs one spec in a fresh headless Chromium on `url` (this repository, served isolated).
async function chromiumMeasure(url, spec) {
  const { launchEngine } = await import('../../scripts/browsers.mjs');
  const launched = await launchEngine('chromium');
  try {
    const page = await launched.context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const browserSpec = { ...spec, files: spec.files.map((f) => ({ name: f.name, url: `${url}${path.relative(root, f.path)}` })) };
    await page.goto(`${url}bench/browser/import-peers.html?spec=${encodeURIComponent(JSON.stringify(browserSpec))}`);
    await page.waitForFunction(() => window.benchResult, { timeout: 1_800_000, polling: 1000 });
    const result = await page.evaluate(() => window.benchResult);
    result.peak_mb = rendererPeakMb(launched.browser.process().pid);
    if (problems.length && !result.error) result.page_errors = problems;
    return result;
  } catch (error) {
    return { error: error.message };
  } finally {
    await launched.close();
  }
}

// The runtimes a row compares: ours in the row's dtype against the peers' nearest format.
function rowImpls(files, dtype, env) {
  const impls = [{ impl: 'ours', files: readdirSync(files.hf[dtype]).map((name) => ({ name, path: path.join(files.hf[dtype], name) })) }];
  if (dtype === 'F32' && files.onnx) impls.push({ impl: 'onnxruntime', peerFormat: 'ONNX F32', files: [{ name: 'model.onnx', path: files.onnx }] });
  if (env === 'chromium') {
    const gguf = dtype === 'F32' ? files.gguf.F32 : files.gguf.F16;
    impls.push({ impl: 'wllama', peerFormat: `GGUF ${dtype === 'F32' ? 'F32' : 'F16'}`, files: [{ name: path.basename(gguf), path: gguf }] });
  }
  return impls;
}

export async function runImportSection({ printTable }) {
  const rounds = Number(arg('--rounds', '5'));
  const shapes = arg('--shapes', Object.keys(SHAPES).join(',')).split(',');
  const threadList = arg('--import-threads', '1,2').split(',').map(Number);
  const envs = arg('--envs', 'node,chromium').split(',');
  const dtypes = arg('--dtypes', DTYPES.join(',')).split(',');
  for (const s of shapes) if (!SHAPES[s]) throw new Error(`--shapes: unknown shape '${s}'; allowed: ${Object.keys(SHAPES).join(', ')}`);
  console.log(`\nimport: ours against onnxruntime-web and wllama on the same random weights, ${rounds} interleaved rounds…`);
  const { serveStatic } = await import('../../scripts/serve.mjs');
  const { server, url } = await serveStatic({ root, isolated: true });
  const samples = [];  // every measurement, for latest.json
  const streams = [];
  try {
    for (const shape of shapes) {
      const files = await prepareShape(shape, { log: (m) => console.log(m) });
      const s = SHAPES[shape];
      const base = { promptText: PROMPT, kvHeads: s.kvHeads ?? s.heads, headDim: s.d / s.heads };
      for (const env of envs) {
        for (const threads of threadList) {
          for (const dtype of dtypes) {
            const impls = rowImpls(files, dtype, env);
            let promptIds = null;
            for (let round = 0; round < rounds; round++) {
              const load = os.loadavg()[0];
              // ours first in the first round (the peers then get its prompt ids), then rotated
              const order = impls.map((_, i) => impls[(i + round) % impls.length]);
              for (const entry of order) {
                const spec = { ...base, impl: entry.impl, threads, files: entry.files, promptIds };
                if (entry.impl !== 'ours' && !promptIds) continue;  // a failed ours run: nothing to feed the peer
                const result = env === 'node' ? await nodeMeasure(spec) : await chromiumMeasure(url, spec);
                if (entry.impl === 'ours' && result.promptIds) promptIds = result.promptIds;
                const sample = { impl: entry.impl, model: shape, dtype, env, threads, round, load_average: load,
                  peer_format: entry.peerFormat, ...result };
                delete sample.promptIds;
                samples.push(sample);
                const shown = result.error ? `error: ${result.error}` : `load ${(result.load_ms / 1000).toFixed(1)} s, ` +
                  `${result.ms_per_token.toFixed(1)} ms/token, peak ${result.peak_mb.toFixed(0)} MB`;
                console.log(`  ${shape} ${dtype} ${env} ${threads}t round ${round + 1}/${rounds} ${entry.impl}: ${shown} (load average ${load.toFixed(1)})`);
              }
              if (threads === threadList[0] && dtype === dtypes[0] && shape === shapes[0]) {
                const copy = env === 'node'
                  ? await nodeStream()
                  : await chromiumMeasure(url, { impl: 'stream', files: [] });
                streams.push({ env, round, ...copy });
              }
            }
          }
        }
      }
    }
  } finally {
    server.close();
  }
  return summarise(samples, streams, printTable);
}

function nodeStream() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e',
      `import { streamCopyGBps } from ${JSON.stringify(path.join(root, 'bench', 'import', 'runners.mjs'))}; console.log(JSON.stringify({ stream_copy_gbps: streamCopyGBps() }));`],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', () => resolve(JSON.parse(out.trim() || '{}')));
  });
}

function summarise(samples, streams, printTable) {
  const keys = [...new Set(samples.map((s) => `${s.model}|${s.dtype}|${s.env}|${s.threads}|${s.impl}`))];
  const rows = keys.map((key) => {
    const [model, dtype, env, threads, impl] = key.split('|');
    const ok = samples.filter((s) => `${s.model}|${s.dtype}|${s.env}|${s.threads}|${s.impl}` === key && !s.error);
    const errors = samples.filter((s) => `${s.model}|${s.dtype}|${s.env}|${s.threads}|${s.impl}` === key && s.error);
    const ms = ok.map((s) => s.ms_per_token);
    return { impl, model, dtype, env, threads: Number(threads), peer_format: ok[0]?.peer_format ?? errors[0]?.peer_format,
      load_ms: median(ok.map((s) => s.load_ms)), ms_per_token: median(ms), ms_min: Math.min(...ms), ms_max: Math.max(...ms),
      peak_mb: median(ok.map((s) => s.peak_mb)), heap_mb: median(ok.map((s) => s.heap_mb ?? NaN)), samples: ok.length,
      errors: errors.map((e) => e.error) };
  });
  const stream = (env) => median(streams.filter((s) => s.env === env && s.stream_copy_gbps).map((s) => s.stream_copy_gbps));
  const f = (v, d = 1) => (v == null || Number.isNaN(v) ? '—' : v.toFixed(d));
  const table = rows.map((r) => {
    const ours = rows.find((o) => o.impl === 'ours' && o.model === r.model && o.dtype === r.dtype && o.env === r.env && o.threads === r.threads);
    const bw = r.impl === 'ours' ? (weightBytesPerToken(r.model, r.dtype) / (r.ms_per_token / 1000) / 1e9) : NaN;
    return [r.model, r.dtype, r.env, r.threads, r.impl + (r.peer_format ? ` (${r.peer_format})` : ''), f(r.load_ms / 1000, 1),
      `${f(r.ms_per_token)} [${f(r.ms_min)}–${f(r.ms_max)}]`, f(r.peak_mb, 0),
      r.impl === 'ours' ? `${f(bw, 1)} GB/s = ${f((100 * bw) / stream(r.env), 0)}%` : `ours ${f(ours?.ms_per_token / r.ms_per_token, 2)}x`,
      r.errors.length ? `${r.errors.length} failed: ${r.errors[0]}` : ''];
  });
  printTable('import: load, ms per generated token (median [range] over rounds; KV cache, greedy), peak memory',
    ['model', 'dtype', 'env', 'threads', 'impl', 'load s', 'ms/token', 'peak MB', 'bandwidth / vs ours', 'note'], table);
  for (const env of new Set(streams.map((s) => s.env))) {
    console.log(`STREAM-like copy in ${env}: ${f(stream(env), 1)} GB/s (read + write, median of the rounds)`);
  }
  // The acceptance comparison: 1 thread, Chromium, same dtype: ours against the fastest peer.
  for (const r of rows.filter((x) => x.impl === 'ours' && x.env === 'chromium' && x.threads === 1)) {
    const peers = rows.filter((p) => p.impl !== 'ours' && p.model === r.model && p.dtype === r.dtype && p.env === 'chromium' && p.threads === 1 && p.samples);
    if (!peers.length) continue;
    const best = peers.reduce((a, b) => (a.ms_per_token < b.ms_per_token ? a : b));
    console.log(`  ${r.model} ${r.dtype} chromium 1 thread: ours ${f(r.ms_per_token)} ms/token = ${f(r.ms_per_token / best.ms_per_token, 2)}x ` +
      `the fastest peer (${best.impl}, ${f(best.ms_per_token)})`);
  }
  const scale = (env, model) => {
    const one = rows.find((r) => r.impl === 'ours' && r.env === env && r.model === model && r.dtype === 'F32' && r.threads === 1);
    const two = rows.find((r) => r.impl === 'ours' && r.env === env && r.model === model && r.dtype === 'F32' && r.threads === 2);
    if (one && two) console.log(`  ours ${model} ${env}: 2 threads ${f(one.ms_per_token / two.ms_per_token, 2)}x one thread`);
  };
  for (const env of ['node', 'chromium']) scale(env, 'gpt2-small');
  return { rows, samples, streams, load_average: os.loadavg() };
}
