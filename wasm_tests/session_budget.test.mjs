// node:test — a real session's run record within its budget by bytes. 8 layers × 8 heads with
// a 128-token probe, whose whole trace is ~15 MB (a record of 8 such snapshots held 116–133 MB):
// each snapshot keeps at most SNAPSHOT_BUDGET ÷ 8 — its probe shortened to the first tokens that
// fit, and it says so — and across training, step() calls and pauses both copies of the record,
// the worker's (session.stats(), counted from its arrays) and the page's mirror (session.run),
// stay within SNAPSHOT_BUDGET and hold the same snapshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTrainingSession } from 'transformer-playground';
import { SNAPSHOT_BUDGET, snapshotBytes } from '../web/lib/run-record.js';

const MB = 2 ** 20;
const LIMIT = SNAPSHOT_BUDGET / 8;
const TEXT = 'the quick brown fox jumps over the lazy dog; '.repeat(40);
const PROBE = TEXT.slice(0, 128);  // 128 tokens of the character tokenizer

test('8 layers × 8 heads, a 128-token probe: each snapshot within budget ÷ 8, the worker and the page within the budget', { timeout: 600_000 }, async (t) => {
  const session = await createTrainingSession({ threads: 1 });
  try {
    await session.configure({ task: { text: TEXT }, model: { nLayers: 8, nHeads: 8, dModel: 64, dFF: 128, maxLen: 128, seed: 1 }, training: { batchSize: 2, seed: 1, totalSteps: 100000 } });
    await session.setProbes({ probes: [{ key: 'main', input: PROBE }] });
    const whole = await session.snapshot({ input: PROBE, names: ['dec.'] });
    const wholeBytes = Object.values(whole.tensors).reduce((n, x) => n + x.data.byteLength, 0);
    t.diagnostic(`the probe's whole trace: ${(wholeBytes / MB).toFixed(1)} MB`);
    assert.ok(wholeBytes > LIMIT, 'the probe is larger than a snapshot may keep');

    const shortened = session.run.snapshots.at(-1).probes.main;
    assert.equal(shortened.probe, PROBE, 'the probe asked for');
    assert.equal(shortened.shortened.of, 128);
    assert.ok(shortened.shortened.tokens >= 16 && shortened.shortened.tokens < 128, `${shortened.shortened.tokens} tokens kept`);
    assert.equal(shortened.shortened.limit, LIMIT);
    assert.equal(shortened.input.tokens.length, shortened.shortened.tokens);
    assert.equal(shortened.input.tokens.join('').replaceAll('▁', ' '), PROBE.slice(0, shortened.shortened.tokens), 'the first tokens, in order');

    // Training in step() calls of 7 (each ends with a snapshot off the schedule, as a pause does),
    // with a few runs and pauses between them.
    let worst = { worker: 0, page: 0 };
    for (let round = 0; round < 12; ++round) {
      await session.step(7);
      if (round % 4 === 3) {
        await session.start();
        await new Promise((resolve) => setTimeout(resolve, 300));
        await session.pause();
      }
      const stats = await session.stats();
      const page = session.run.snapshots.reduce((n, s) => n + snapshotBytes(s), 0);
      worst = { worker: Math.max(worst.worker, stats.bytes), page: Math.max(worst.page, page) };
      assert.ok(stats.bytes <= SNAPSHOT_BUDGET, `the worker's record: ${stats.bytes / MB} MB`);
      assert.ok(page <= SNAPSHOT_BUDGET, `the page's mirror: ${page / MB} MB`);
      assert.equal(stats.snapshots, session.run.snapshots.length, 'the mirror holds what the worker holds');
      for (const s of session.run.snapshots) assert.ok(snapshotBytes(s) <= LIMIT, `snapshot at step ${s.step}: ${snapshotBytes(s) / MB} MB`);
    }
    const stats = await session.stats();
    t.diagnostic(`after ${session.run.step} steps: ${stats.snapshots} snapshots; at most ${(worst.worker / MB).toFixed(1)} MB in the worker, ${(worst.page / MB).toFixed(1)} MB in the page; worker heap ${(stats.heap.heapSize / MB).toFixed(0)} MB`);
    assert.ok(stats.snapshots >= 6, `${stats.snapshots} snapshots kept`);
  } finally {
    session.dispose();
  }
});
