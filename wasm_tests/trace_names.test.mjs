// web/lib/trace-names.js against real traces: for every architecture and output head (and the
// options that add or remove entries: pre/post norm, SwiGLU, windows), every name a forward pass
// records parses to a pattern of TRACE_NAMES with its parts, and building that pattern from those
// parts gives the name back; every pattern is recorded by some model; the attention names the
// views build exist in the trace of a model that has that attention. And no view of web/ builds
// a trace name by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, TRACE_NAMES } from 'transformer-playground';
import { traceName, parseTraceName, attentionName, attentionKinds, attentionOf, firstStack } from '../web/lib/trace-names.js';

const tp = await load();

// [task, config overrides]: every architecture and head, both norm placements, every FFN.
const MODELS = [
  ['qa-toy', {}],
  ['qa-toy', { normPlacement: 'post', ffn: 'swiglu', nLayers: 2 }],
  ['qa-toy', { arch: 'decoder-only', maxLen: 24 }],
  ['lm-char', { nLayers: 2, window: 4, layerPattern: 'LG', normPlacement: 'post', maxLen: 32 }],
  ['lm-char', { arch: 'encoder-only', head: 'mlm', maxLen: 32 }],
  ['sentiment', { head: 'cls' }],
  ['sentiment', { head: 'mean', normPlacement: 'pre' }],
  ['tagging', {}],
  ['reverse', { pos: 'rope' }],
];

function traceOf(taskName, overrides) {
  const task = tp.task(taskName);
  const model = tp.model({ ...task.defaults, ...overrides, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  try {
    const input = task.sampleInputs[0];
    return { trace: model.trace(input), config: model.config };
  } finally {
    for (const o of [trainer, model, task]) o.dispose();
  }
}

const traces = MODELS.map(([task, o]) => ({ task, o, ...traceOf(task, o) }));

test('every recorded name parses and builds back to itself', () => {
  for (const { task, o, trace } of traces) {
    assert.ok(trace.names.length > 10, `${task} ${JSON.stringify(o)}: only ${trace.names.length} entries`);
    for (const name of trace.names) {
      const p = parseTraceName(name);
      assert.ok(p, `${task} ${JSON.stringify(o)}: '${name}' matches no pattern of TRACE_NAMES`);
      assert.equal(traceName(p.pattern, p), name);
      const entry = TRACE_NAMES.find((e) => e.pattern === p.pattern);
      assert.equal(p.shape, entry.shape);
      if (p.pattern.includes('{layer}')) assert.ok(p.layer < traces.find((x) => x.trace === trace).config.nLayers);
    }
  }
});

test('every pattern is recorded by some architecture', () => {
  const seen = new Set(traces.flatMap(({ trace }) => trace.names.map((n) => parseTraceName(n).pattern)));
  assert.deepEqual(TRACE_NAMES.map((e) => e.pattern).filter((p) => !seen.has(p)), []);
});

test('the attention names the views ask for are in the trace, with the shape the list gives', () => {
  for (const { trace, config } of traces) {
    const kinds = attentionKinds(config.arch);
    for (const kind of kinds) {
      for (let layer = 0; layer < config.nLayers; ++layer) {
        for (const stage of ['q', 'k', 'scores', 'scaled', 'masked', 'probs']) {
          const name = attentionName(kind, layer, stage);
          assert.ok(trace.tensors[name], `${config.arch}: no ${name}`);
        }
        const probs = trace.tensors[attentionName(kind, layer, 'probs')];
        assert.equal(probs.shape.length, 3);
        assert.equal(probs.shape[0], config.nHeads);
      }
    }
    // Kinds the architecture lacks are not there.
    for (const kind of ['enc', 'dec', 'cross'].filter((k) => !kinds.includes(k))) assert.equal(trace.tensors[attentionName(kind, 0, 'probs')], undefined);
    assert.equal(firstStack(trace.names), config.arch === 'decoder-only' ? 'dec' : 'enc');
  }
});

test('bad names and parts are refused with what is allowed', () => {
  for (const bad of ['', 'enc', 'enc.x.self_attn.probs', 'mid.0.self_attn.probs', 'enc.0.other_attn.probs', 'enc.01.self_attn.q', 'enc.0.self_attn.probs.x', 42, null]) {
    assert.equal(parseTraceName(bad), null, String(bad));
  }
  assert.throws(() => traceName('{stack}.{layer}.{attn}.nothing', {}), /not a trace pattern; allowed: \{stack\}\.embed\.tokens/);
  assert.throws(() => traceName('{stack}.{layer}.{attn}.probs', { stack: 'dec', layer: 0 }), /attn must be self_attn or cross_attn, got undefined/);
  assert.throws(() => traceName('{stack}.{layer}.norm1', { stack: 'enc', layer: -1 }), /layer must be a whole number >= 0/);
  assert.throws(() => traceName('{stack}.embed.sum', { stack: 'mid' }), /stack must be enc or dec/);
  assert.throws(() => attentionOf('encoder'), /kind must be enc, dec, cross/);
  assert.equal(traceName('{stack}.{layer}.{attn}.probs', { stack: 'dec', layer: 0, attn: 'cross_attn' }), 'dec.0.cross_attn.probs');
  assert.equal(traceName('logits'), 'logits');
});

// No file of web/ spells a trace name: they come from trace-names.js. Parameter names
// ("enc.0.self_attn.q.weight", docs/FORMAT.md) are another list and allowed.
test('no view builds a trace name by hand', () => {
  const webRoot = fileURLToPath(new URL('../web/', import.meta.url));
  const files = [];
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = path.join(dir, f);
      if (statSync(p).isDirectory()) {
        if (!['wasm', 'bundle', 'generated'].includes(f)) walk(p);
      } else if (p.endsWith('.js') && !p.endsWith(path.join('lib', 'trace-names.js'))) files.push(p);
    }
  };
  walk(webRoot);
  const found = [];
  for (const file of files) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      if (/['"`][^'"`]*\b(self_attn|cross_attn)\b[^'"`]*['"`]/.test(code) && !/\.weight['"`]/.test(code) && !/^\s*\*/.test(line)) found.push(`${path.relative(webRoot, file)}:${i + 1}: ${line.trim()}`);
      if (/['"`][^'"`]*\.embed\.(tokens|positions|sum)['"`]/.test(code) || /\.(probs|masked)`/.test(code)) found.push(`${path.relative(webRoot, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});
