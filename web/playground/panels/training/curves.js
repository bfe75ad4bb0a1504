// training/curves.js — the curves of a run's history points: every step's loss, its moving
// average, the evaluations' validation loss and metric (in %, or perplexity as it is). Made once
// per run and number of points (a run gains points while it trains). Pure.
const made = new WeakMap();

export function curvesOf(run) {
  const hit = run && made.get(run);
  if (hit && hit.n === run.points.length) return hit.c;
  const c = compute(run);
  if (run) made.set(run, { n: run.points.length, c });
  return c;
}

function compute(run) {
  const train = [], smooth = [], val = [], metric = [];
  const perplexity = run?.task?.metric === 'perplexity';
  let ema = null;
  for (const [step, loss, valLoss, m] of run?.points ?? []) {
    if (m !== null && m !== undefined && Number.isFinite(m)) metric.push([step, perplexity ? m : m * 100]);
    if (Number.isFinite(loss)) {
      train.push([step, loss]);
      ema = ema === null ? loss : 0.9 * ema + 0.1 * loss;
      smooth.push([step, ema]);
    }
    if (valLoss !== null && Number.isFinite(valLoss)) val.push([step, valLoss]);
  }
  return { train, smooth, val, metric };
}
