// history-file.js — the run file (`.tphistory`): one or more recorded runs (a lesson) with their
// snapshots, curves, labels, short notes and the views to show, written and read in this one
// place. The playground saves and opens it, <tp-replay> replays it, scripts make examples of it.
// docs/FORMAT.md ("Run files") describes the layout.
//
// A file read here is one we did not write: every field is checked before anything is allocated
// for it, counts and sizes are bounded, each error names the file and the field, and only the
// fields below are copied into the record (nothing else of the file survives). Texts stay texts:
// whoever shows them sets textContent.
//
//   const bytes = writeHistory([{ record, label, note }], { panels: ['loss', 'attention'] });
//   const { runs, panels } = readHistory(bytes, { name: 'lesson.tphistory' });

/** @import { RunRecord } from './run-record.js' */

import { parseTraceName } from './trace-names.js';

export const HISTORY_MAGIC = 'TPHISTRY';
export const HISTORY_VERSION = 1;
/** The views a file may name, in the order a replay shows them. */
export const HISTORY_PANELS = Object.freeze(['loss', 'attention', 'tokens', 'outputs']);
/** Bounds on what a file may hold. */
export const HISTORY_LIMITS = Object.freeze({
  bytes: 64 * 2 ** 20, header: 16 * 2 ** 20, runs: 8, snapshots: 1024, points: 200000, probes: 8, tensors: 512,
  dims: 4, dim: 65536, tokens: 4096, text: 4000, note: 2000, label: 200, depth: 8, keys: 400, topK: 64,
});

const PREFIX = 16;  // magic (8), version (u32), header length (u32)
const L = HISTORY_LIMITS;

/** A run file that cannot be read: `file` and `field` say where. */
export class HistoryFileError extends Error {
  /** @param {string} file @param {string} field @param {string} problem */
  constructor(file, field, problem) {
    super(`${file}: ${field ? `${field} ` : ''}${problem}`);
    this.name = 'HistoryFileError';
    this.file = file;
    this.field = field;
    this.problem = problem;
  }
}

/**
 * One run of a file: its record (RunRecord.toJSON()'s shape, or a RunRecord), a label, a note,
 * and (optionally) the playground set-up it came from.
 * @typedef {{ record: object, label?: string, note?: string, setup?: object | null }} HistoryRun
 */

/**
 * The bytes of a run file holding `runs`.
 * @param {HistoryRun[]} runs
 * @param {{ panels?: string[], note?: string }} [options]
 * @returns {Uint8Array}
 */
export function writeHistory(runs, { panels = ['loss', 'attention', 'tokens'], note = '' } = {}) {
  if (!Array.isArray(runs) || runs.length < 1 || runs.length > L.runs) throw new RangeError(`writeHistory: runs must be 1 … ${L.runs} runs (got ${runs?.length})`);
  for (const p of panels) if (!HISTORY_PANELS.includes(p)) throw new RangeError(`writeHistory: panel "${p}" is not one of ${HISTORY_PANELS.join(', ')}`);
  const chunks = [];
  let size = 0;
  // Typed arrays go to the data section; non-finite numbers become { $f: 'NaN' | 'Infinity' | '-Infinity' }.
  const out = (v) => {
    if (v instanceof Float32Array || v instanceof Int32Array) {
      const ref = { $: v instanceof Float32Array ? 'f32' : 'i32', at: size, n: v.length };
      chunks.push(new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength)));
      size += v.byteLength;
      return ref;
    }
    if (typeof v === 'number') return Number.isFinite(v) ? v : { $f: String(v) };
    if (Array.isArray(v)) return v.map(out);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, out(x)]));
    return v;
  };
  const header = {
    format: 'tphistory', version: HISTORY_VERSION, panels: [...panels], note,
    runs: runs.map((r) => ({ label: r.label ?? '', note: r.note ?? '', setup: out(r.setup ?? null),
      record: out(typeof r.record?.toJSON === 'function' ? r.record.toJSON() : r.record) })),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const pad = (4 - ((PREFIX + json.length) % 4)) % 4;
  const bytes = new Uint8Array(PREFIX + json.length + pad + size);
  bytes.set(new TextEncoder().encode(HISTORY_MAGIC), 0);
  const view = new DataView(bytes.buffer);
  view.setUint32(8, HISTORY_VERSION, true);
  view.setUint32(12, json.length, true);
  bytes.set(json, PREFIX);
  bytes.fill(0x20, PREFIX + json.length, PREFIX + json.length + pad);
  let at = PREFIX + json.length + pad;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

/**
 * The runs of a run file, checked field by field.
 * @param {Uint8Array | ArrayBuffer} input
 * @param {{ name?: string }} [options] the file's name, for the messages
 * @returns {{ version: number, panels: string[], note: string, runs: { label: string, note: string, setup: object | null, record: object }[] }}
 */
export function readHistory(input, { name = 'the run file' } = {}) {
  const fail = (field, problem) => {
    throw new HistoryFileError(name, field, problem);
  };
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (!(bytes instanceof Uint8Array)) fail('', 'must be bytes (a Uint8Array or an ArrayBuffer)');
  if (bytes.length > L.bytes) fail('', `is ${bytes.length} bytes, more than a run file may be (${L.bytes})`);
  if (bytes.length < PREFIX) fail('', `is ${bytes.length} bytes: too short to be a run file (truncated?)`);
  if (new TextDecoder().decode(bytes.subarray(0, 8)) !== HISTORY_MAGIC) fail('', `is not a run file: it does not start with "${HISTORY_MAGIC}"`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== HISTORY_VERSION) fail('version', `is ${version}; this reader reads version ${HISTORY_VERSION}`);
  const hlen = view.getUint32(12, true);
  if (hlen > L.header) fail('header length', `is ${hlen} bytes, more than ${L.header}`);
  if (PREFIX + hlen > bytes.length) fail('header length', `is ${hlen} bytes but the file has ${bytes.length - PREFIX} after its prefix (truncated?)`);
  let header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX, PREFIX + hlen)));
  } catch (error) {
    fail('header', `is not valid UTF-8 JSON (${error.message})`);
  }
  const dataStart = PREFIX + hlen + ((4 - ((PREFIX + hlen) % 4)) % 4);
  const data = bytes.subarray(Math.min(dataStart, bytes.length));
  const c = new Checker(fail, data);
  c.object(header, 'header');
  if (header.format !== 'tphistory') fail('format', `must be "tphistory" (got ${show(header.format)})`);
  if (header.version !== version) fail('version', `in the header (${show(header.version)}) differs from the prefix's (${version})`);
  const panels = c.array(header.panels, 'panels', HISTORY_PANELS.length).map((p, i) => c.choice(p, `panels[${i}]`, HISTORY_PANELS));
  const runs = c.array(header.runs, 'runs', L.runs, 1).map((r, i) => c.run(r, `runs[${i}]`));
  return { version, panels: [...new Set(panels)], note: c.text(header.note ?? '', 'note', L.note), runs };
}

const show = (v) => (typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v) : Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v === 'object' ? 'an object' : String(v));
const ARCHS = ['encoder-decoder', 'encoder-only', 'decoder-only'];
const REASONS = ['started', 'paused', 'finished', 'diverged', 'met', 'error', null];

// The checks, each building a fresh value from the file's (only the known fields).
class Checker {
  constructor(fail, data) {
    this.fail = fail;
    this.data = data;
  }

  object(v, field) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) this.fail(field, `must be an object (got ${show(v)})`);
    return v;
  }
  array(v, field, max, min = 0) {
    if (!Array.isArray(v)) this.fail(field, `must be a list (got ${show(v)})`);
    if (v.length > max || v.length < min) this.fail(field, `holds ${v.length} entries; allowed: ${min} … ${max}`);
    return v;
  }
  text(v, field, max = L.text) {
    if (typeof v !== 'string') this.fail(field, `must be a text (got ${show(v)})`);
    if (v.length > max) this.fail(field, `is ${v.length} characters, more than ${max}`);
    return v;
  }
  choice(v, field, values) {
    if (!values.includes(v)) this.fail(field, `must be ${values.map((x) => (x === null ? 'null' : `"${x}"`)).join(', ')} (got ${show(v)})`);
    return v;
  }
  int(v, field, min, max) {
    if (!Number.isInteger(v) || v < min || v > max) this.fail(field, `must be a whole number ${min} … ${max} (got ${show(v?.$f !== undefined ? Number(v.$f) : v)})`);
    return v;
  }
  // A number that may be non-finite (a diverged loss): finite, or { $f: 'NaN' | 'Infinity' | '-Infinity' }.
  num(v, field, nullable = false) {
    if (v === null && nullable) return null;
    if (typeof v === 'number') return v;
    if (v && typeof v === 'object' && ['NaN', 'Infinity', '-Infinity'].includes(v.$f) && Object.keys(v).length === 1) return Number(v.$f);
    return this.fail(field, `must be a number${nullable ? ' or null' : ''} (got ${show(v)})`);
  }
  // Data the file holds as plain JSON (a set-up, a config, a report): bounded in depth and size,
  // numbers decoded, no binary references.
  plain(v, field, depth = 0, count = { n: 0 }) {
    if (++count.n > L.keys * 8) this.fail(field, `holds more than ${L.keys * 8} values`);
    if (depth > L.depth) this.fail(field, `nests deeper than ${L.depth} levels`);
    if (v === null || typeof v === 'boolean' || typeof v === 'number') return v;
    if (typeof v === 'string') return this.text(v, field);
    if (Array.isArray(v)) return this.array(v, field, L.keys * 4).map((x, i) => this.plain(x, `${field}[${i}]`, depth + 1, count));
    this.object(v, field);
    if ('$f' in v) return this.num(v, field);
    if ('$' in v) this.fail(field, 'holds binary data where plain values belong');
    const keys = Object.keys(v);
    if (keys.length > L.keys) this.fail(field, `has ${keys.length} keys, more than ${L.keys}`);
    const o = {};
    for (const k of keys) {
      if (k === '__proto__') this.fail(`${field}.${k}`, 'is not an allowed key');
      o[k] = this.plain(v[k], `${field}.${k}`, depth + 1, count);
    }
    return o;
  }
  // A typed array of the data section: { $: 'f32' | 'i32', at, n }, inside the section and aligned.
  typed(v, field, type, n = null) {
    this.object(v, field);
    if (v.$ !== type) this.fail(field, `must be ${type} data (got ${show(v.$)})`);
    const at = this.int(v.at, `${field}.at`, 0, this.data.length);
    const count = this.int(v.n, `${field}.n`, 0, Math.floor((this.data.length - at) / 4));
    if (at % 4) this.fail(`${field}.at`, `must be a multiple of 4 (got ${at})`);
    if (n !== null && count !== n) this.fail(`${field}.n`, `must be ${n} (got ${count})`);
    const bytes = this.data.slice(at, at + 4 * count);
    return type === 'f32' ? new Float32Array(bytes.buffer) : new Int32Array(bytes.buffer);
  }
  texts(v, field, n) {
    this.array(v, field, L.tokens);
    if (n !== null && v.length !== n) this.fail(field, `must hold ${n} texts (got ${v.length})`);
    return v.map((x, i) => this.text(x, `${field}[${i}]`, 200));
  }

  run(r, field) {
    this.object(r, field);
    const setup = r.setup == null ? null : this.plain(this.object(r.setup, `${field}.setup`), `${field}.setup`);
    // The name the playground's reader gave the run, a text like the run's label.
    if (setup?.label !== undefined) this.text(setup.label, `${field}.setup.label`, L.label);
    return { label: this.text(r.label ?? '', `${field}.label`, L.label), note: this.text(r.note ?? '', `${field}.note`, L.note), setup,
      record: this.record(r.record, `${field}.record`) };
  }

  record(v, field) {
    this.object(v, field);
    const config = this.plain(this.object(v.config, `${field}.config`), `${field}.config`);
    this.choice(config.arch, `${field}.config.arch`, ARCHS);
    this.int(config.nLayers, `${field}.config.nLayers`, 1, 64);
    this.int(config.nHeads, `${field}.config.nHeads`, 1, 256);
    const task = v.task == null ? null : this.plain(this.object(v.task, `${field}.task`), `${field}.task`);
    if (task) this.text(task.name, `${field}.task.name`, 200);
    const points = this.array(v.points ?? [], `${field}.points`, L.points).map((p, i) => {
      const f = `${field}.points[${i}]`;
      this.array(p, f, 4, 4);
      return [this.int(p[0], `${f}[0] (step)`, 0, 1e9), this.num(p[1], `${f}[1] (loss)`), this.num(p[2], `${f}[2] (valLoss)`, true), this.num(p[3], `${f}[3] (metric)`, true)];
    });
    let last = -1;
    const snapshots = this.array(v.snapshots ?? [], `${field}.snapshots`, L.snapshots).map((s, i) => {
      const snap = this.snapshot(s, `${field}.snapshots[${i}]`);
      if (snap.step <= last) this.fail(`${field}.snapshots[${i}].step`, `must be larger than the snapshot before's (${last}; got ${snap.step})`);
      last = snap.step;
      return snap;
    });
    const id = this.int(v.id ?? 0, `${field}.id`, 0, 2 ** 31);
    return {
      id, request: v.request == null ? null : this.plain(v.request, `${field}.request`), task, config,
      info: v.info == null ? null : this.plain(v.info, `${field}.info`),
      notTrainable: v.notTrainable == null ? null : this.text(v.notTrainable, `${field}.notTrainable`),
      totalSteps: this.int(v.totalSteps ?? 0, `${field}.totalSteps`, 0, 1e9),
      createdAt: this.int(v.createdAt ?? 0, `${field}.createdAt`, 0, 2 ** 53),
      running: false, reason: this.choice(v.reason ?? null, `${field}.reason`, REASONS),
      error: v.error == null ? null : this.text(v.error, `${field}.error`),
      pace: this.num(v.pace ?? 0, `${field}.pace`),
      report: v.report == null ? null : this.plain(this.object(v.report, `${field}.report`), `${field}.report`),
      points, snapshots, thin: this.int(v.thin ?? 0, `${field}.thin`, 0, 64),
    };
  }

  snapshot(s, field) {
    this.object(s, field);
    const step = this.int(s.step, `${field}.step`, 0, 1e9);
    const probeKeys = Object.keys(this.object(s.probes ?? {}, `${field}.probes`));
    if (probeKeys.length > L.probes) this.fail(`${field}.probes`, `has ${probeKeys.length} probes, more than ${L.probes}`);
    const probes = {};
    for (const k of probeKeys) probes[this.key(k, `${field}.probes`)] = this.probe(s.probes[k], `${field}.probes.${k}`);
    const params = this.tensors(s.params ?? {}, `${field}.params`);
    let bytes = Object.values(params).reduce((n, t) => n + t.data.byteLength, 0);
    for (const p of Object.values(probes)) bytes += Object.values(p.tensors).reduce((n, t) => n + t.data.byteLength, 0);
    const out = { step, probes, params, bytes };
    if (s.skipped !== undefined) out.skipped = this.text(s.skipped, `${field}.skipped`);
    return out;
  }

  key(k, field) {
    if (k === '__proto__' || k.length > 128) this.fail(field, `has a key that is not allowed (${show(k)})`);
    return k;
  }

  encoding(v, field, withSpans = true) {
    this.object(v, field);
    const ids = this.typed(v.ids, `${field}.ids`, 'i32');
    if (ids.length > L.tokens) this.fail(`${field}.ids`, `holds ${ids.length} tokens, more than ${L.tokens}`);
    const out = { ids, tokens: this.texts(v.tokens, `${field}.tokens`, ids.length) };
    if (withSpans && v.spans !== undefined) out.spans = this.typed(v.spans, `${field}.spans`, 'i32', 2 * ids.length);
    if (withSpans && v.byteSpans !== undefined) out.byteSpans = this.typed(v.byteSpans, `${field}.byteSpans`, 'i32', 2 * ids.length);
    return out;
  }

  probe(p, field) {
    this.object(p, field);
    const out = { probe: this.text(p.probe, `${field}.probe`) };
    if (p.target !== undefined) out.target = p.target === null ? null : this.text(p.target, `${field}.target`);
    if (p.input !== undefined) out.input = this.encoding(p.input, `${field}.input`);
    if (p.decoderInput !== undefined) out.decoderInput = p.decoderInput === null ? null : this.encoding(p.decoderInput, `${field}.decoderInput`);
    if (p.output !== undefined) out.output = p.output === null ? null : this.encoding(p.output, `${field}.output`, false);
    out.tensors = this.tensors(p.tensors ?? {}, `${field}.tensors`);
    if (p.top != null) {
      this.object(p.top, `${field}.top`);
      const k = this.int(p.top.k, `${field}.top.k`, 1, L.topK);
      const ids = this.typed(p.top.ids, `${field}.top.ids`, 'i32');
      if (ids.length % k) this.fail(`${field}.top.ids`, `must hold k = ${k} ids per position (got ${ids.length})`);
      const prob = this.typed(p.top.p, `${field}.top.p`, 'f32', ids.length);
      this.probabilities(prob, `${field}.top.p`);
      out.top = { k, ids, p: prob };
    } else if (p.top === null) {
      out.top = null;
    }
    if (p.error !== undefined) out.error = this.text(p.error, `${field}.error`);
    if (p.skipped !== undefined) out.skipped = p.skipped === true;
    if (p.shortened !== undefined) {
      const s = this.object(p.shortened, `${field}.shortened`);
      out.shortened = { tokens: this.int(s.tokens, `${field}.shortened.tokens`, 0, 1e9), of: this.int(s.of, `${field}.shortened.of`, 0, 1e9), limit: this.int(s.limit, `${field}.shortened.limit`, 0, 2 ** 40) };
    }
    return out;
  }

  tensors(v, field) {
    const keys = Object.keys(this.object(v, field));
    if (keys.length > L.tensors) this.fail(field, `has ${keys.length} tensors, more than ${L.tensors}`);
    const out = {};
    for (const k of keys) {
      const f = `${field}["${this.key(k, field)}"]`;
      const t = this.object(v[k], f);
      const shape = this.array(t.shape, `${f}.shape`, L.dims, 1).map((d, i) => this.int(d, `${f}.shape[${i}]`, 0, L.dim));
      const n = shape.reduce((a, b) => a * b, 1);
      const data = this.typed(t.data, `${f}.data`, 'f32', n);
      // Attention weights are probabilities: a NaN or a value outside 0 … 1 is a broken file.
      if (parseTraceName(k)?.pattern.endsWith('probs')) this.probabilities(data, `${f}.data`);
      out[k] = { shape, data };
    }
    return out;
  }

  probabilities(data, field) {
    for (let i = 0; i < data.length; ++i) {
      const x = data[i];
      if (!(x >= 0 && x <= 1)) this.fail(field, `holds ${x} at ${i}; probabilities are 0 … 1`);
    }
  }
}
