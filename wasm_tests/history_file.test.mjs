// node:test — the run file (web/lib/history-file.js): a run recorded by a training session comes
// back from writeHistory() → readHistory() exactly (every snapshot's tensors bit for bit, the
// curves, the labels and notes, several runs in one file), and files we did not write — cut
// short, another format, huge counts, markup in a label, NaN where a number belongs, broken
// attention weights — are refused with an error naming the file and the field.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { RunRecord } from 'transformer-playground';
import { writeHistory, readHistory, HistoryFileError, HISTORY_LIMITS } from '../web/lib/history-file.js';
import { recorded } from './playground/recorded.mjs';

let run;
before(async () => {
  run = (await recorded('encoder-decoder')).run;
});

// The header of a file as JSON, changed by `edit`, written back with the same data section.
function rewrite(bytes, edit) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const hlen = view.getUint32(12, true);
  const start = 16 + hlen + ((4 - ((16 + hlen) % 4)) % 4);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + hlen)));
  edit(header);
  const json = new TextEncoder().encode(JSON.stringify(header));
  const pad = (4 - ((16 + json.length) % 4)) % 4;
  const out = new Uint8Array(16 + json.length + pad + (bytes.length - start));
  out.set(bytes.subarray(0, 16));
  new DataView(out.buffer).setUint32(12, json.length, true);
  out.set(json, 16);
  out.fill(0x20, 16 + json.length, 16 + json.length + pad);
  out.set(bytes.subarray(start), 16 + json.length + pad);
  return out;
}

// `v` without its undefined fields (a file holds no undefined).
const defined = (v) => (Array.isArray(v) ? v.map(defined) : v && typeof v === 'object' && !ArrayBuffer.isView(v)
  ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, defined(x)])) : v);

const refused = (bytes, field, pattern) => assert.throws(() => readHistory(bytes, { name: 'lesson.tphistory' }), (e) => {
  assert.ok(e instanceof HistoryFileError, `a HistoryFileError (got ${e.name}: ${e.message})`);
  assert.ok(e.message.startsWith('lesson.tphistory: '), `names the file: ${e.message}`);
  if (field !== null) assert.equal(e.field, field, e.message);
  assert.match(e.message, pattern);
  return true;
});

test('a recorded run comes back exactly: header, curves, every snapshot tensor bit for bit', () => {
  assert.ok(run.snapshots.length >= 40, `the run has its snapshots (${run.snapshots.length})`);
  const bytes = writeHistory([{ record: run, label: 'seed 1', note: 'the toy, 40 steps' }], { panels: ['loss', 'attention'], note: 'one run' });
  const file = readHistory(bytes, { name: 'run.tphistory' });
  assert.deepEqual(file.panels, ['loss', 'attention']);
  assert.equal(file.note, 'one run');
  assert.equal(file.runs.length, 1);
  assert.equal(file.runs[0].label, 'seed 1');
  assert.equal(file.runs[0].note, 'the toy, 40 steps');
  const back = file.runs[0].record;
  assert.deepEqual(back, defined(run.toJSON()), 'the record as toJSON() gave it, typed arrays and all');
  const a = run.snapshots.at(-1), b = back.snapshots.at(-1);
  const name = 'dec.0.cross_attn.probs', probe = 'main';
  assert.ok(b.probes[probe].tensors[name].data instanceof Float32Array);
  assert.deepEqual(new Uint32Array(b.probes[probe].tensors[name].data.buffer), new Uint32Array(a.probes[probe].tensors[name].data.slice().buffer), 'the attention weights, bit for bit');
  // And as a record the views read.
  const again = RunRecord.from(back);
  assert.equal(again.snapshotAt(a.step).step, a.step);
  assert.equal(again.bytes, run.bytes);
});

test('several runs in one file (a lesson), non-finite losses kept', () => {
  const json = run.toJSON();
  const diverged = { ...json, points: json.points.map((p, i) => (i === 3 ? [p[0], NaN, Infinity, null] : p)) };
  const bytes = writeHistory([{ record: run, label: 'a' }, { record: diverged, label: 'b', note: 'diverged' }, { record: json, label: 'c' }]);
  const file = readHistory(bytes);
  assert.deepEqual(file.runs.map((r) => r.label), ['a', 'b', 'c']);
  assert.ok(Number.isNaN(file.runs[1].record.points[3][1]));
  assert.equal(file.runs[1].record.points[3][2], Infinity);
  assert.deepEqual(file.runs[2].record.points, json.points);
  assert.deepEqual(file.runs[2].record.snapshots.length, json.snapshots.length);
});

test('hostile files: each refused with the file, the field and what is allowed', () => {
  const good = writeHistory([{ record: run, label: 'ok' }]);
  refused(good.subarray(0, 10), '', /too short to be a run file/);
  refused(good.subarray(0, 200), 'header length', /truncated/);
  refused(good.subarray(0, good.length - 100), null, /\.n must be|\.n must be a whole number|must be a whole number 0 … \d+/);
  const magic = good.slice();
  magic.set(new TextEncoder().encode('PK\x03\x04....'), 0);
  refused(magic, '', /is not a run file: it does not start with "TPHISTRY"/);
  const version = good.slice();
  new DataView(version.buffer).setUint32(8, 7, true);
  refused(version, 'version', /is 7; this reader reads version 1/);
  const header = good.slice();
  new DataView(header.buffer).setUint32(12, 0xfffffff0, true);
  refused(header, 'header length', /more than/);
  refused(rewrite(good, (h) => (h.runs = Array(100).fill({ label: 'x' }))), 'runs', new RegExp(`holds 100 entries; allowed: 1 … ${HISTORY_LIMITS.runs}`));
  refused(rewrite(good, (h) => (h.runs[0].record.snapshots[0].probes.main.tensors['enc.0.self_attn.probs'].shape = [1e9, 1e9])), 'runs[0].record.snapshots[0].probes.main.tensors["enc.0.self_attn.probs"].shape[0]', /must be a whole number 0 … 65536 \(got 1000000000\)/);
  refused(rewrite(good, (h) => (h.runs[0].record.snapshots[0].probes.main.tensors['enc.0.self_attn.probs'].data.n = 2 ** 30)), null, /\.data\.n must be a whole number 0 … \d+ \(got 1073741824\)/);
  refused(rewrite(good, (h) => (h.runs[0].record.snapshots[0].step = { $f: 'NaN' })), 'runs[0].record.snapshots[0].step', /must be a whole number 0 … 1000000000 \(got NaN\)/);
  refused(rewrite(good, (h) => (h.runs[0].record.config.nHeads = 'NaN')), 'runs[0].record.config.nHeads', /must be a whole number 1 … 256 \(got "NaN"\)/);
  refused(rewrite(good, (h) => (h.runs[0].record.points[0][1] = 'NaN')), 'runs[0].record.points[0][1] (loss)', /must be a number/);
  refused(rewrite(good, (h) => (h.runs[0].record.snapshots[1].step = 0)), 'runs[0].record.snapshots[1].step', /must be larger than the snapshot before's/);
  refused(rewrite(good, (h) => (h.panels = ['loss', '<script>'])), 'panels[1]', /must be "loss", "attention", "tokens", "outputs" \(got "<script>"\)/);
  refused(rewrite(good, (h) => (h.runs[0].label = 'x'.repeat(5000))), 'runs[0].label', /is 5000 characters, more than 200/);
  refused(rewrite(good, (h) => (h.runs[0].record.config.arch = 'gpt')), 'runs[0].record.config.arch', /must be "encoder-decoder", "encoder-only", "decoder-only"/);
  refused(rewrite(good, (h) => (h.runs[0].record.snapshots[0].probes.main.input.tokens = ['a'])), 'runs[0].record.snapshots[0].probes.main.input.tokens', /must hold \d+ texts \(got 1\)/);
  refused(rewrite(good, (h) => (h.runs[0].setup = { __proto__: null, ['__proto__']: 1 })), null, /./);
  // A NaN inside the attention weights (the data section itself).
  const file = readHistory(good);
  const snap = file.runs[0].record.snapshots[0];
  const weights = snap.probes.main.tensors['enc.0.self_attn.probs'].data;
  weights[0] = NaN;
  refused(writeHistory([{ record: file.runs[0].record }]), 'runs[0].record.snapshots[0].probes.main.tensors["enc.0.self_attn.probs"].data', /holds NaN at 0; probabilities are 0 … 1/);
  // Not JSON, or not UTF-8.
  const broken = good.slice();
  broken[16] = 0xff;
  refused(broken, 'header', /is not valid UTF-8 JSON/);
});

test('markup in a label stays text: read as written, never as elements', () => {
  const label = '<img src=x onerror="alert(1)"><b>run</b>';
  const file = readHistory(writeHistory([{ record: run, label, note: '<script>alert(2)</script>' }]));
  assert.equal(file.runs[0].label, label, 'the label is the text the file holds (the views set it as textContent)');
  assert.equal(file.runs[0].note, '<script>alert(2)</script>');
});

test('writeHistory refuses what no file may hold', () => {
  assert.throws(() => writeHistory([]), /runs must be 1 … 8 runs/);
  assert.throws(() => writeHistory([{ record: run }], { panels: ['heads'] }), /panel "heads" is not one of loss, attention, tokens, outputs/);
});

test('the example lesson the docs replay (web/docs/qa-toy.tphistory) reads: two runs of the toy, each trained to the end', async () => {
  const { readFileSync } = await import('node:fs');
  const file = readHistory(new Uint8Array(readFileSync(new URL('../web/docs/qa-toy.tphistory', import.meta.url))), { name: 'qa-toy.tphistory' });
  assert.deepEqual(file.panels, ['loss', 'attention', 'tokens', 'outputs']);
  assert.deepEqual(file.runs.map((r) => r.label), ['learned positions (the default)', 'no positional encoding']);
  for (const { record } of file.runs) {
    assert.equal(record.task.name, 'qa-toy');
    assert.equal(record.snapshots.at(-1).step, 600);
    assert.ok(record.snapshots.length >= 40);
  }
  assert.equal(file.runs[1].record.config.pos, 'none');
});
