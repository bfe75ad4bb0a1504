// Interleaved rounds: the method behind every comparison `npm run bench` prints.
//
// A comparison is a set of rows — ours and the peers' — each a measurement that returns one
// figure (tokens/s, GFLOP/s, ms per token) from a run of its own (its own warm-up, then the
// median of its timed repetitions). A round measures every row once, in an order that alternates
// ours and the peers' and is reversed every other round, so a machine that speeds up or slows
// down over the run moves both sides alike. Before and after each round the machine is read
// (harness/machine.mjs): load average, the cores other work kept busy, the clock.
//
//   - at least `minRounds` rounds (3); more, up to `maxRounds`, while a row's spread (max − min
//     over median) is wider than `spreadLimit`, or while fewer than minRounds rounds were quiet;
//   - a round is "loaded" when the load average at its start or end exceeds the core count: the
//     figures are then taken from the quiet rounds only when there are minRounds of them, and
//     otherwise from every round, with the table marked;
//   - a row is printed as the median of its rounds with their range; a ratio between two rows
//     (ours against a peer, 2 threads against 1) is the median of the per-round ratios, each
//     taken from two measurements of the same round, with their range — never a quotient of
//     figures from different runs.
// Every round's every result (with each repetition's time where the program reports them) is
// kept for bench/results/latest.json.
import { clockGhz, cores, loadAverage, snapshot } from './machine.mjs';
import { median, summary } from './stats.mjs';
import { fmt } from './table.mjs';

export const defaultRounds = { minRounds: 3, maxRounds: 6, spreadLimit: 0.1, fixed: null };

// The order of round `r`: ours and peers alternating (o1 p1 o2 p2 …), reversed on odd rounds.
function interleave(rows, r) {
  const ours = rows.filter((row) => row.side !== 'peer'), peers = rows.filter((row) => row.side === 'peer');
  const order = [];
  for (let i = 0; i < Math.max(ours.length, peers.length); ++i) {
    if (i < ours.length) order.push(ours[i]);
    if (i < peers.length) order.push(peers[i]);
  }
  return r % 2 ? order.reverse() : order;
}

export class Measured {
  constructor(title, rows, rounds, { minRounds, better }) {
    this.title = title;
    this.rows = rows;
    this.rounds = rounds;
    this.better = better;
    const quiet = rounds.filter((r) => !r.loaded);
    // The rounds the figures come from.
    this.used = quiet.length >= minRounds ? quiet : rounds;
    this.marked = this.used.some((r) => r.loaded);
  }

  // The row's figure in one round; `pick` reads another figure of its result (a program that
  // measures several shapes in one run gives one row with many figures).
  value(round, key, pick = undefined) {
    const result = round.results[key];
    if (!result || result.error) return null;
    const v = (pick ?? this.rows.find((r) => r.key === key).value)(result);
    return v == null || Number.isNaN(v) ? null : v;
  }

  // The row's figure over the used rounds: { n, median, min, max, spread }.
  stats(key, pick = undefined) {
    return summary(this.used.map((round) => this.value(round, key, pick)));
  }

  // The first result of a row (for labels: versions, set-ups), or null.
  sample(key) {
    for (const round of this.rounds) if (round.results[key] && !round.results[key].error) return round.results[key];
    return null;
  }

  error(key) {
    const failed = this.rounds.map((r) => r.results[key]).find((r) => r?.error);
    return failed?.error ?? null;
  }

  // num against den, round by round: higher-is-better figures as num / den, lower-is-better
  // ones (times) as den / num, so above 1 always means num is faster.
  ratio(num, den, pickNum = undefined, pickDen = pickNum) {
    const per = this.used.map((round) => {
      const a = this.value(round, num, pickNum), b = this.value(round, den, pickDen);
      if (a == null || b == null || a === 0 || b === 0) return null;
      return this.better === 'lower' ? b / a : a / b;
    });
    return summary(per);
  }

  // The round log: one line a round.
  roundRows() {
    return this.rounds.map((r) => [r.index + 1, r.before.time.slice(11, 19), fmt(r.before.load, 2), fmt(r.after.load, 2),
      r.before.others_busy == null ? '—' : fmt(r.before.others_busy, 2), r.before.clock_ghz == null ? '—' : fmt(r.before.clock_ghz, 2),
      r.after.clock_ghz == null ? '—' : fmt(r.after.clock_ghz, 2), fmt(r.seconds, 0), r.loaded ? 'loaded' : '', this.used.includes(r) ? 'yes' : 'no']);
  }

  toJSON() {
    return {
      title: this.title,
      better: this.better,
      rounds: this.rounds,
      used_rounds: this.used.map((r) => r.index),
      marked_loaded: this.marked,
      rows: Object.fromEntries(this.rows.map((row) => [row.key, { ...row.info, side: row.side ?? 'ours', ...this.stats(row.key), error: this.error(row.key) }])),
    };
  }
}

export const roundHeader = ['round', 'start', 'load at start', 'at end', 'others busy (cores)', 'clock GHz', 'at end', 's', '', 'used'];

// Ratio cell: "1.23x (1.10–1.31)".
export const ratioCell = (s) => (s?.median == null ? '—' : `${s.median.toFixed(2)}x (${s.min.toFixed(2)}–${s.max.toFixed(2)})`);

// Measures `rows` in interleaved rounds (see the top of this file). Each row: { key, side
// ('ours' | 'peer'), label, info (fields for latest.json), measure: async () => result,
// value: (result) => number }. A row that throws records { error } for that round.
export async function measureRounds(ctx, { title, rows, better = 'higher', log = (row, result) => '' }) {
  const { minRounds, maxRounds, spreadLimit, fixed } = { ...defaultRounds, ...ctx.rounds };
  const n = cores();
  const rounds = [];
  const quietEnough = () => rounds.filter((r) => !r.loaded).length >= minRounds;
  const measured = () => new Measured(title, rows, rounds, { minRounds, better });
  for (let r = 0; ; ++r) {
    const before = await snapshot(ctx.root);
    const started = Date.now();
    const results = {};
    const order = interleave(rows, r);
    for (const row of order) {
      try {
        results[row.key] = await row.measure({ round: r });
        const note = log(row, results[row.key]);
        if (note) console.log(`    ${note}`);
      } catch (e) {
        results[row.key] = { error: e.message };
        console.log(`    ${row.key}: failed: ${e.message}`);
      }
    }
    const after = { time: new Date().toISOString(), load: loadAverage(), clock_ghz: await clockGhz(ctx.root) };
    const loaded = before.load > n || after.load > n;
    const round = { index: r, before, after, loaded, seconds: (Date.now() - started) / 1000, order: order.map((row) => row.key), results };
    rounds.push(round);
    console.log(`  ${title}: round ${r + 1}: load ${fmt(before.load, 2)} → ${fmt(after.load, 2)} (${n} cores)` +
      `${before.others_busy == null ? '' : `, others busy ${fmt(before.others_busy, 2)} cores`}` +
      `${before.clock_ghz ? `, clock ${fmt(before.clock_ghz, 2)} → ${fmt(after.clock_ghz, 2)} GHz` : ''}, ${fmt(round.seconds, 0)} s${loaded ? '  [loaded]' : ''}`);
    if (fixed) {
      if (rounds.length >= fixed) break;
      continue;
    }
    if (rounds.length >= maxRounds) break;
    if (rounds.length < minRounds || !quietEnough()) continue;
    const m = measured();
    const wide = rows.filter((row) => (m.stats(row.key).spread ?? 0) > spreadLimit);
    if (!wide.length) break;
    console.log(`  ${title}: spread above ${Math.round(spreadLimit * 100)}% for ${wide.map((row) => row.key).join(', ')}: another round`);
  }
  return measured();
}

// The best of several set-ups of a peer, chosen in rounds of their own: every candidate is
// measured in interleaved rounds (the same method), and for each group the candidate with the
// best median becomes the peer's row. Returns { measured, best: { group: candidate } }.
export async function chooseBest(ctx, { title, candidates, better = 'higher', log }) {
  const measured = await measureRounds(ctx, { title, rows: candidates, better, log });
  const best = {};
  for (const c of candidates) {
    const m = measured.stats(c.key).median;
    if (m == null) continue;
    const groups = Array.isArray(c.group) ? c.group : [c.group];
    for (const g of groups) {
      const current = best[g] ? measured.stats(best[g].key).median : null;
      if (current == null || (better === 'lower' ? m < current : m > current)) best[g] = c;
    }
  }
  return { measured, best };
}

export { median };
