// runs.js — the kept runs: runs a reader pinned to compare, each with its set-up (state.js's
// setupOf: what the link carries, never weights) and its record (run-record.js: curves and a
// thinned history of snapshots). The kept runs survive a reload in IndexedDB; the link lists their
// set-ups, so a copied link brings them back where they were stored, and names the rest. Runs are
// named by their labels, their presets, or how their set-ups differ (comparison.js).
//
//   const kept = new KeptRuns();  await kept.load(state.runs);
//   kept.keep(setup, session.run);  kept.freeze(run);  kept.forget(key);  kept.forget();
import { RunRecord } from '../lib/run-record.js';
import { setupKey, labelled } from './hash.js';
import { headColor } from '../components/shared/colormap.js';

const DB = 'transformer-playground', STORE = 'kept-runs';
// Snapshots a kept run stores (evenly over its steps): enough to scrub and compare attention.
export const KEPT_SNAPSHOTS = 40;
export const MAX_KEPT = 6;

function openDb() {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'key' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);  // private windows may refuse: the runs are then kept for this visit only
  });
}

function tx(db, mode, fn) {
  return new Promise((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const store = t.objectStore(STORE);
    const result = fn(store);
    t.oncomplete = () => resolve(result?.result);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error);
  });
}

export class KeptRuns extends EventTarget {
  constructor() {
    super();
    this.entries = [];   // [{ key, setup, record: RunRecord | null, live: boolean, color }]
    this._db = null;
  }

  async db() {
    this._db ??= openDb();
    return this._db;
  }

  get setups() {
    return this.entries.map((e) => e.setup);
  }

  find(key) {
    return this.entries.find((e) => e.key === key) ?? null;
  }

  // The kept runs of the link (`setups`), with their stored records, and the other stored ones.
  async load(setups = []) {
    const db = await this.db();
    let stored = [];
    try {
      stored = db ? await tx(db, 'readonly', (s) => s.getAll()) : [];
    } catch {
      stored = [];
    }
    const byKey = new Map(stored.map((x) => [x.key, x]));
    // The link's runs, then the most recently kept of the others; listed in the order they were
    // kept. Stored runs beyond MAX_KEPT are forgotten (a store an older page let grow).
    const newest = [...stored].sort((a, b) => b.keptAt - a.keptAt).map((x) => x.key);
    const chosen = new Set([...new Set([...setups.map(setupKey), ...newest])].slice(0, MAX_KEPT));
    const keptAt = (key) => byKey.get(key)?.keptAt ?? Infinity;
    const keys = [...chosen].sort((a, b) => keptAt(a) - keptAt(b));
    this.#delete(stored.map((x) => x.key).filter((key) => !chosen.has(key)));
    this.entries = keys.map((key) => {
      const row = byKey.get(key);
      const setup = setups.find((s) => setupKey(s) === key) ?? row?.setup;
      return { key, setup, record: row ? RunRecord.from(row.record) : null, live: false };
    });
    this.#colour();
    this.#changed();
  }

  // Keeps `record` (the live mirror of the session's current run, which goes on growing until
  // the run ends) under its set-up, replacing a kept run of the same set-up.
  keep(setup, record) {
    const key = setupKey(setup);
    const entry = { key, setup, record, live: true };
    const i = this.entries.findIndex((e) => e.key === key);
    if (i >= 0) this.entries[i] = entry;
    else this.entries.push(entry);
    const evicted = this.entries.splice(0, Math.max(0, this.entries.length - MAX_KEPT));
    this.#delete(evicted.map((e) => e.key));  // the oldest go, from the store too
    this.#colour();
    this.save(entry);
    this.#changed();
    return entry;
  }

  // The session moved on to another run: a kept live run is stored as it ended.
  freeze(record) {
    for (const e of this.entries) {
      if (e.live && e.record === record) {
        e.record = RunRecord.from(record.toJSON({ snapshots: KEPT_SNAPSHOTS }));
        e.live = false;
        this.save(e);
      }
    }
  }

  // The reader renamed the current run (`record`): a kept run that is it takes the new label.
  relabel(record, label) {
    const live = this.entries.filter((e) => e.live && e.record === record && (e.setup.label ?? '') !== label);
    for (const e of live) {
      e.setup = labelled(e.setup, label);
      this.save(e);
    }
    if (live.length) this.#changed();
  }

  // Stores an entry (a live one as it is now).
  async save(entry) {
    const db = await this.db();
    if (!db || !entry.record) return;
    const row = { key: entry.key, setup: entry.setup, keptAt: Date.now(), record: entry.record.toJSON({ snapshots: KEPT_SNAPSHOTS }) };
    try {
      await tx(db, 'readwrite', (s) => s.put(row));
    } catch {
      // storage full or refused: the run stays kept for this visit
    }
  }

  // Forgets one kept run, or all of them.
  async forget(key = null) {
    const gone = key === null ? this.entries : this.entries.filter((e) => e.key === key);
    this.entries = this.entries.filter((e) => !gone.includes(e));
    this.#colour();
    this.#changed();
    const db = await this.db();
    if (!db) return;
    try {
      await tx(db, 'readwrite', (s) => (key === null ? s.clear() : s.delete(key)));
    } catch {
      // nothing stored
    }
  }

  // Deletes stored rows (the runs no longer kept).
  async #delete(keys) {
    if (!keys.length) return;
    const db = await this.db();
    if (!db) return;
    try {
      await tx(db, 'readwrite', (s) => keys.forEach((key) => s.delete(key)));
    } catch {
      // nothing stored
    }
  }

  #colour() {
    this.entries.forEach((e, i) => (e.color = headColor(i)));
  }

  #changed() {
    this.dispatchEvent(new Event('change'));
  }
}

// The settings a run's name mentions first, most telling first: a name says at most NAMED_DIFFERENCES
// of them and counts the rest ("and 7 more"). Settings not listed come after, in their own order.
export const NAME_ORDER = ['task', 'arch', 'pos', 'norm', 'normPlacement', 'ffn', 'nLayers', 'dModel', 'nHeads', 'nKvHeads',
  'lr', 'totalSteps', 'batchSize', 'schedule', 'seed', 'data'];
export const NAMED_DIFFERENCES = 3;

// Labels for runs by what differs between them: `values(run)` gives each run's effective settings
// as { key: value }; `name(key, value)` how to say one; `more(n)` how to say that n more differ.
// Runs that differ in nothing are numbered.
export function differenceLabels(runs, values, name, same, more = (n) => `+${n}`) {
  const all = runs.map(values);
  const keys = [...new Set(all.flatMap((v) => Object.keys(v)))];
  const rank = (k) => (NAME_ORDER.includes(k) ? NAME_ORDER.indexOf(k) : NAME_ORDER.length);
  const differ = keys.filter((k) => new Set(all.map((v) => JSON.stringify(v[k]))).size > 1)
    .map((k, i) => [k, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([k]) => k);
  return all.map((v, i) => {
    if (!differ.length) return same(i + 1);
    const named = differ.slice(0, NAMED_DIFFERENCES).map((k) => name(k, v[k])).join(', ');
    const rest = differ.length - NAMED_DIFFERENCES;
    return rest > 0 ? `${named} ${more(rest)}` : named;
  });
}
