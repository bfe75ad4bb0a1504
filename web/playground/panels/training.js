// panels/training.js — the sticky training bar (start / pause / step / reset, progress, loss,
// validation loss, metric, tokens/s, threads, learning rate, gradient norm), the loss curves and,
// once a step has diverged (the report's divergedAt), what to change. All training happens in
// the worker; this only sends commands and draws the run's record (app.run, the session's mirror
// of the worker's), which it reads and never copies. It also says how many threads the worker
// trains on and why; on a page that is not cross-origin isolated the standalone playground
// offers to isolate itself (lib/isolation.js: a service worker, one reload) — a playground
// embedded in someone else's page never does.
import { ROLE_COLORS } from '../../components/shared/colormap.js';
import { compact, formatLoss, formatMetric } from '../../components/shared/format.js';
import { isolatePage, isolationStatus } from '../../lib/isolation.js';

export function initTraining(app) {
  const $ = (id) => app.$(id);
  const buttons = { train: $('train'), pause: $('pause'), step: $('step'), reset: $('reset') };
  const chart = $('loss-chart'), metricChart = $('metric-chart');
  let busy = true;

  // The curves of a run's history points: every step's loss, its moving average, the
  // evaluations' validation loss and metric (in %, or perplexity as it is); remembered per run
  // until it has more points.
  const cache = new WeakMap();
  function curves(run) {
    const hit = run && cache.get(run);
    if (hit && hit.n === run.points.length) return hit.c;
    const c = computeCurves(run);
    if (run) cache.set(run, { n: run.points.length, c });
    return c;
  }
  function computeCurves(run) {
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

  // One run: its every step, the moving average, the validation dots. Several (kept runs, or
  // the current one beside them): one smoothed curve per run, in its colour, named by how its
  // set-up differs from the others; the metric likewise.
  function draw() {
    chart.setAttribute('label', app.t('training.title'));
    chart.setAttribute('x-label', app.t('training.step'));
    chart.setAttribute('y-label', app.t('training.lossAxis'));
    const m = app.info?.metric;
    const name = m ? app.t(`metric.${m}`) : app.t('train.metric');
    const runs = app.compared();
    let loss, metrics;
    if (runs.length <= 1 && !app.kept.entries.length) {
      const { train, smooth, val, metric } = curves(app.run);
      loss = [
        { name: app.t('training.train'), color: ROLE_COLORS.x, points: train, width: 1, opacity: 0.55 },
        { name: app.t('training.smoothed'), color: ROLE_COLORS.q, points: smooth, width: 2.2 },
        { name: app.t('training.val'), color: ROLE_COLORS.k, points: val, width: 2, dots: true },
      ];
      metrics = [{ name: `${name} · ${app.t('training.val')}`, color: ROLE_COLORS.v, points: metric, width: 2, dots: true }];
    } else {
      const all = runs.map((r) => ({ r, c: curves(r.record) }));
      loss = all.map(({ r, c }) => ({ name: r.label, color: r.color, points: c.smooth, width: r.current ? 2.4 : 1.8, dash: r.kept ? undefined : [6, 3] }));
      metrics = all.filter(({ r }) => r.record.task?.metric === m).map(({ r, c }) => ({ name: r.label, color: r.color, points: c.metric, width: 2, dots: true, dash: r.kept ? undefined : [6, 3] }));
    }
    chart.series = loss;
    chart.dataset.series = String(loss.filter((s) => s.points.length).length);
    metricChart.setAttribute('label', app.t('training.metricTitle', { metric: name }));
    metricChart.setAttribute('x-label', app.t('training.step'));
    metricChart.setAttribute('y-label', m === 'perplexity' ? name : `${name} (%)`);
    if (m === 'perplexity') {
      metricChart.removeAttribute('y-min');
      metricChart.removeAttribute('y-max');
      metricChart.setAttribute('log-y', '');
    } else {
      metricChart.setAttribute('y-min', '0');
      metricChart.setAttribute('y-max', '100');
      metricChart.removeAttribute('log-y');
    }
    metricChart.series = metrics;
  }

  function stats() {
    const run = app.run;
    const r = run?.report;
    const step = r?.step ?? 0, total = run?.totalSteps || 0;
    $('step-text').textContent = app.t('train.stepOf', { step, total });
    $('progress-bar').style.width = total ? `${Math.min(100, (step / total) * 100)}%` : '0';
    $('loss').textContent = r ? formatLoss(r.loss) : '–';
    $('val-loss').textContent = r && r.evaluatedAt > 0 ? formatLoss(r.valLoss) : '–';
    const metric = app.info?.metric;
    $('metric-name').textContent = metric ? app.t(`metric.${metric}`) : app.t('train.metric');
    $('metric').textContent = r && r.evaluatedAt > 0 ? formatMetric(metric, r.metric) : '–';
    $('tps').textContent = r?.tokensPerSec > 0 ? compact(r.tokensPerSec) : '–';
    $('lr').textContent = r ? r.lr.toExponential(1) : '–';
    $('grad-norm').textContent = r ? r.gradNorm.toPrecision(3) : '–';
    diverged(r);
    const done = total > 0 && step >= total;
    const running = run?.running ?? false;
    const invalid = (app.invalid?.size ?? 0) > 0;
    buttons.train.disabled = busy || !app.config || running || done || invalid;
    buttons.pause.disabled = busy || !running;
    buttons.step.disabled = busy || !app.config || running || done || invalid;
    buttons.reset.disabled = busy || !app.config;
  }

  // The trainer flags a step that diverged (docs/API.md, StepReport.diverged); the hint stays
  // from that step on, until a reset or a new configuration starts over.
  function diverged(r) {
    const el = $('diverged');
    el.hidden = !(r?.divergedAt > 0);
    if (el.hidden || !app.info) return;
    const tr = { ...app.info.train, ...app.state.train };
    el.textContent = app.t('training.diverged', { step: r.divergedAt, lr: Number(tr.lr).toPrecision(2), warmup: tr.warmup });
  }

  function note() {
    const i = app.info;
    if (!i) return;
    const tr = { ...Object.fromEntries(Object.entries(i.train)), ...app.state.train };
    $('training-note').textContent = app.t('training.note', {
      task: app.t(`task.${app.state.task}`), steps: app.run?.totalSteps ?? 0, batch: tr.batchSize, lr: Number(tr.lr).toPrecision(2), schedule: app.t(`value.${tr.schedule}`),
    });
  }

  // "2 threads: …" or "1 thread: why", from the session (training-session.js).
  function threadsNote() {
    const session = app.session;
    if (!session) return;
    const { threads, threadSupport: support } = session;
    $('threads').textContent = String(threads);
    let text;
    if (threads > 1) text = app.t('threads.many', { n: threads, cores: support.cores });
    else if (support.reason === 'not-isolated') text = app.t('threads.notIsolated');
    else if (support.reason === 'no-shared-memory') text = app.t('threads.noSharedMemory');
    else if (support.reason === 'failed') text = app.t('threads.failed', { why: support.error });
    else text = app.t('threads.oneCore');
    $('threads-note').textContent = text;
    $('isolate').hidden = !(app.standalone && threads === 1 && support.reason === 'not-isolated' && isolationStatus() === 'possible');
  }

  $('isolate').addEventListener('click', async () => {
    $('isolate').disabled = true;
    try {
      const result = await isolatePage();  // reloads the page when it works
      $('threads-note').textContent = app.t('threads.isolateFailed', { why: result });
    } catch (e) {
      $('threads-note').textContent = app.t('threads.isolateFailed', { why: e.message });
    }
    $('isolate').disabled = false;
  });

  function labels() {
    for (const [name, key] of [['train', 'startAria'], ['pause', 'pauseAria'], ['step', 'stepAria'], ['reset', 'resetAria']]) buttons[name].setAttribute('aria-label', app.t(`train.${key}`));
  }

  buttons.train.addEventListener('click', () => app.session.start().catch((e) => app.fail(e)));
  buttons.pause.addEventListener('click', () => app.session.pause().catch((e) => app.fail(e)));
  buttons.step.addEventListener('click', () => app.session.step(1).catch((e) => app.fail(e)));
  buttons.reset.addEventListener('click', () => app.reset());

  // A refused set-up or a failed step: the whole message, under the bar (the status line is one
  // short line), until the next model is built.
  const error = $('train-error');
  app.on('error', (e) => {
    error.textContent = app.t('status.error', { message: e.message });
    error.hidden = false;
    stats();
  });
  app.on('run', (d) => {
    if (d.reason !== 'error') return;
    error.textContent = app.t('status.error', { message: d.error });
    error.hidden = false;
  });
  app.on('configured', () => {
    error.hidden = true;
  });

  app.on('busy', (b) => {
    busy = b;
    stats();
  });
  app.on('configured', () => {
    draw();
    stats();
    note();
  });
  app.on('progress', () => {
    draw();
    stats();
  });
  app.on('run', () => {
    draw();
    stats();
  });
  app.on('state', () => note());
  app.on('invalid', stats);
  app.on('kept', draw);
  app.on('ready', () => threadsNote());
  app.on('lang', () => {
    labels();
    draw();
    stats();
    note();
    threadsNote();
  });
  labels();
  draw();
  stats();
}
