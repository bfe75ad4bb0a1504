// trainbar/derive.js — the sticky training bar: which of Train, Pause, Step and Reset can be
// pressed, the progress, the status line, the latest numbers (loss, validation loss, the task's
// metric, tokens/s, threads, learning rate, gradient norm), while training the steps per second
// and the time left (page.rate: step-rate.js), a refused set-up or a failed step,
// why a model that generates cannot be trained here (an imported one too large to fine-tune:
// Train and Step stay off), where training stopped because the task is learned (stop-rule.js's
// rule, read from the run's own history) with Keep training, and the history's timeline (timeline.js). Pure: (state, run, shown, info, page) -> props.
import { compact, formatLoss, formatMetric } from '../../../components/shared/format.js';
import { tr, configOf } from '../common.js';
import { timelineProps } from './timeline.js';
import { LOSS_BELOW, LOSS_WINDOW, bestMetric, metAt } from '../../../lib/stop-rule.js';

export function deriveTrainbar(state, run, shown, info, page) {
  const t = tr(state);
  const r = run?.report;
  const step = r?.step ?? 0, total = run?.totalSteps || 0;
  const metric = info?.metric;
  const running = run?.running ?? false, done = total > 0 && step >= total;
  const untrainable = configOf(run, page) ? run.notTrainable ?? null : null;
  const blocked = page.busy || !configOf(run, page) || (page.invalid?.size ?? 0) > 0 || Boolean(untrainable);
  const evaluated = r && r.evaluatedAt > 0;
  return {
    buttons: {
      train: { disabled: blocked || running || done, label: t('train.startAria') },
      pause: { disabled: page.busy || !running, label: t('train.pauseAria') },
      step: { disabled: blocked || running || done, label: t('train.stepAria') },
      // A model that is never trained has nothing to go back to (a reset would only read its files again).
      reset: { disabled: page.busy || !configOf(run, page) || Boolean(untrainable), label: t('train.resetAria') },
    },
    stepText: running && page.rate > 0 && total > step
      ? t('train.stepOfRate', { step, total, rate: formatRate(page.rate), left: duration(t, (total - step) / page.rate) })
      : t('train.stepOf', { step, total }),
    progress: total ? `${Math.min(100, (step / total) * 100)}%` : '0',
    status: statusProps(page, t),
    stats: {
      loss: r ? formatLoss(r.loss) : '–',
      valLoss: evaluated ? formatLoss(r.valLoss) : '–',
      metricName: metric ? t(`metric.${metric}`) : t('train.metric'),
      metric: evaluated ? formatMetric(metric, r.metric) : '–',
      tps: r?.tokensPerSec > 0 ? compact(r.tokensPerSec) : '–',
      threads: page.threads ? String(page.threads.threads) : '–',
      lr: r ? r.lr.toExponential(1) : '–',
      gradNorm: r ? r.gradNorm.toPrecision(3) : '–',
    },
    error: errorText(run, page, t),
    notTrainable: untrainable ? t('train.notTrainable', { reason: untrainable }) : '',
    met: metProps(run, metric, t) ?? unmetProps(state, run, metric, t),
    timeline: timelineProps(state, run, shown, info, page),
  };
}

// Training paused where the run learned its task (state reason 'met'): what it reached, from the
// run's points by the rule the worker stopped by, until it trains on; null otherwise.
function metProps(run, taskMetric, t) {
  const metric = taskMetric ?? run?.task?.metric;
  const met = run && !run.running && run.reason === 'met' ? metAt(metric, run.points) : null;
  if (!met) return null;
  const value = formatMetric(metric, met.metric);
  return { text: t('train.met', { step: met.step, metric: t(`metric.${metric}`), value, loss: formatLoss(met.loss) }), keep: t('train.keep') };
}

// A run that was to stop where it learned its task (state.stop) but trained to its last step
// without meeting the rule (translate's held-out sentences, say, are never all exact): what its
// metric reached and what the rule asks, so no one waits for a stop that did not come. Null for a
// task whose metric has no best value (a language model is never met) and for any other run.
function unmetProps(state, run, taskMetric, t) {
  const metric = taskMetric ?? run?.task?.metric;
  const best = bestMetric(metric);
  if (state.stop === false || best === null || !run || run.running || run.reason !== 'finished' || metAt(metric, run.points)) return null;
  const latest = run.points?.findLast((p) => p[3] != null)?.[3];
  if (latest == null) return null;
  return { text: t('train.unmet', { metric: t(`metric.${metric}`), value: formatMetric(metric, latest), best: formatMetric(metric, best), window: LOSS_WINDOW, below: LOSS_BELOW }), keep: '' };
}

// The status line: its key (the tests read it) and its text.
function statusProps(page, t) {
  const { key, vars } = page.status ?? {};
  return { key: key ?? '', text: key ? t(key, vars) : '' };
}

// A refused set-up or a failed step: the whole message, under the bar (the status line is one
// short line), until the next model is built.
function errorText(run, page, t) {
  if (page.error) return t('status.error', { message: page.error.message });
  if (run?.reason === 'error' && run.error) return t('status.error', { message: run.error });
  return '';
}

// Steps per second: two or three significant digits below 10 (a large model's 0.0667), whole above.
function formatRate(r) {
  if (r >= 10) return String(Math.round(r));
  const s = r.toPrecision(r >= 1 ? 2 : 3);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

// A duration in the largest unit that keeps it readable: 45 s, 12 min, 3.5 h.
function duration(t, seconds) {
  if (seconds < 90) return t('time.seconds', { n: Math.max(1, Math.round(seconds)) });
  if (seconds < 90 * 60) return t('time.minutes', { n: Math.round(seconds / 60) });
  return t('time.hours', { n: (seconds / 3600).toFixed(seconds < 36000 ? 1 : 0) });
}
