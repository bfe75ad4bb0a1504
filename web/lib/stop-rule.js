// stop-rule.js — when a run has learned its task, so training can stop there instead of running
// on while nothing visible changes. The worker applies it after every step (state reason 'met');
// the page reads the same rule to say why training stopped. One rule for every task kind:
//
//   met = the task's metric at its latest evaluation is the best it can be (exact match, token
//         accuracy or accuracy of 1) AND the mean training loss over the last LOSS_WINDOW steps
//         is below LOSS_BELOW.
//
// A task whose metric has no best value (perplexity: a language model can always get better) is
// never met. The loss condition keeps a run that answers right by a narrow margin training until
// the answer is also confident.
/**
 * @import { Metric } from './generated/schema.js'
 * @import { HistoryPoint } from './run-record.js'
 */

export const LOSS_WINDOW = 10;
export const LOSS_BELOW = 0.02;

// The best value of each metric that has one (the core's Metric names).
const BEST = Object.freeze({ exact_match: 1, token_accuracy: 1, accuracy: 1 });

/**
 * The best value of a task's metric, or null when it has none (perplexity).
 * @param {Metric | string | null | undefined} metric
 * @returns {number | null}
 */
export function bestMetric(metric) {
  return Object.hasOwn(BEST, metric ?? '') ? BEST[metric] : null;
}

/**
 * Whether the run whose history is `points` has met its task: `{ step, metric, loss }` (the step
 * of the latest point, the metric at the latest evaluation, the mean loss over the window), or
 * null when it has not, or never can.
 * @param {Metric | string | null | undefined} metric the task's metric (TaskInfo.metric)
 * @param {readonly HistoryPoint[]} points [step, loss, valLoss | null, metric | null] per step
 * @returns {{ step: number, metric: number, loss: number } | null}
 */
export function metAt(metric, points) {
  const best = bestMetric(metric);
  if (best === null || !points || points.length < LOSS_WINDOW) return null;
  let latest = null;
  for (let i = points.length - 1; i >= 0 && latest === null; --i) latest = points[i][3] ?? null;
  if (latest === null || !(latest >= best)) return null;
  let sum = 0;
  for (let i = points.length - LOSS_WINDOW; i < points.length; ++i) sum += points[i][1];
  const loss = sum / LOSS_WINDOW;
  return loss < LOSS_BELOW ? { step: points.at(-1)[0], metric: latest, loss } : null;
}
