// The example run file the docs replay (web/docs/qa-toy.tphistory, docs/WIDGETS.md "<tp-replay>"):
// the seed's toy trained through the package's API in Node, twice — as set up by default, and
// without positional encoding — each recorded as the playground records it (the input "how are
// you" traced at every snapshot), written with writeHistory() as a two-run lesson.
//
//   node scripts/make_replay_example.mjs [out.tphistory]
//
// Training is deterministic (the seed fixes weights and batches), and the file's date and speed
// are zeroed, so the file comes out the same each time on the same build.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTrainingSession, writeHistory, readHistory } from 'transformer-playground';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? path.join(root, 'web/docs/qa-toy.tphistory');
const SNAPSHOTS = 60;  // of the ~170 a run records: enough to scrub, a small file

const RUNS = [
  { label: 'learned positions (the default)', note: 'The toy as it starts: 6-wide, 2 heads, learned positions. Watch the cross-attention find "how" → "i" first.', model: {} },
  { label: 'no positional encoding', note: 'The same model without positions: the encoder cannot tell "how are you" from "you are how".', model: { pos: 'none' } },
];

async function record({ model }) {
  const session = await createTrainingSession();
  try {
    await session.setProbes({ probes: [{ key: 'main', input: 'how are you' }], params: [] });
    await session.configure({ task: 'qa-toy', model: { seed: 1, ...model }, training: { seed: 1 } });
    const finished = new Promise((resolve, reject) => session.addEventListener('state', (e) => {
      if (e.detail.reason === 'finished') resolve();
      if (e.detail.reason === 'error' || e.detail.reason === 'diverged') reject(new Error(`training stopped: ${e.detail.reason} ${e.detail.error ?? ''}`));
    }));
    await session.start();
    await finished;
    const record = session.run.toJSON({ snapshots: SNAPSHOTS });
    // The machine's speed is no part of the lesson (and would make each file differ).
    return { ...record, createdAt: 0, report: { ...record.report, tokensPerSec: 0 } };
  } finally {
    session.dispose();
  }
}

const runs = [];
for (const r of RUNS) runs.push({ label: r.label, note: r.note, record: await record(r) });
const bytes = writeHistory(runs, { panels: ['loss', 'attention', 'tokens', 'outputs'], note: 'The seed Q&A toy (how are you → i am fine), 600 steps each.' });
const back = readHistory(bytes, { name: path.basename(out) });
writeFileSync(out, bytes);
console.log(`wrote ${path.relative(root, out)}: ${(bytes.length / 1024).toFixed(1)} kB, ${back.runs.map((r) => `${r.record.snapshots.length} snapshots of ${r.record.report.step} steps (loss ${r.record.report.loss.toFixed(4)})`).join('; ')}`);
