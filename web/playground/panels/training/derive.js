// training/derive.js — the Training card: the kept runs (keep this run, one line per kept run
// with its colour, name, last loss, a button to go back to its set-up and one to forget it), the
// loss and metric curves (one run: every step, the moving average, the validation dots; several:
// one smoothed curve per run, named as comparison.js names it), the run's plan (or that the
// model is not trained here), a divergence with what to change (and one button that does it: a
// tenth of the learning rate, a new run), and how many threads train and why. The current run's
// label is typed here; the list also holds the current run when it is not kept, and says so; the
// kept runs a link brought untrained are trained with one button (train-kept.js). Pure: (state,
// run, shown, info, page).
import { ROLE_COLORS } from '../../../components/shared/colormap.js';
import { formatLoss } from '../../../components/shared/format.js';
import { stateForSetup } from '../../hash.js';
import { runNames } from '../../comparison.js';
import { tr } from '../common.js';
import { curvesOf } from './curves.js';

export function deriveTraining(state, run, shown, info, page) {
  const t = tr(state);
  const compared = page.compared ?? [];
  return {
    runs: runsProps(state, run, page, compared, t),
    charts: chartsProps(state, run, info, page, compared, t),
    note: info ? t(run?.notTrainable ? 'training.notTrained' : 'training.note', noteVars(state, run, info, page, t)) : null,
    diverged: divergedText(run?.report, state, info, t),
    lowerLr: lowerLrProps(run?.report, state, info, page, t),
    threads: threadsProps(page, t),
  };
}

function runsProps(state, run, page, compared, t) {
  const kept = page.kept?.entries ?? [];
  const labels = new Map(compared.map((r) => [r.key, r.label]));
  // The kept runs not trained here are named among themselves (by label, preset or differences).
  const pending = kept.filter((e) => !e.record);
  if (page.infoFor) runNames(pending, page.infoFor, t).forEach((name, i) => labels.set(pending[i].key, name));
  const keptHere = kept.some((e) => e.live && e.record === run);
  const lossAt = (r) => (r ? t('runs.at', { step: r.step, loss: formatLoss(r.loss) }) : '');
  const list = kept.map((e) => {
    const here = e.live && e.record === run;
    const name = labels.get(e.key) ?? t('runs.elsewhere');
    return {
      key: e.key, here, kept: true, color: e.color,
      name: e.record ? name : `${name} — ${t('runs.notHere')}`,
      loss: lossAt(e.record?.report),
      open: here ? null : { label: t('runs.open'), aria: t('runs.openAria', { name }), state: stateForSetup(state, e.setup) },
      forget: t('runs.forgetOne', { name }),
    };
  });
  // The current run, when it is not kept and has trained, is listed too: the list holds what the
  // chart draws.
  const current = compared.find((r) => r.current && !r.kept && r.record.points.length);
  if (current && kept.length) list.push({ key: current.key, here: true, kept: false, color: current.color, name: current.label, tag: t('runs.thisRun'), loss: lossAt(run?.report), open: null, forget: null });
  return {
    list,
    holds: kept.length ? t(current ? 'runs.holds' : 'runs.holdsKept', { n: kept.length }) : '',
    label: { value: state.label, placeholder: current?.label ?? compared.find((r) => r.current)?.label ?? '' },
    trainAll: trainAllProps(kept, labels, page, t),
    keep: { disabled: !run || keptHere || !(run.points.length > 0), text: t(keptHere ? 'runs.kept' : 'runs.keep') },
    forgetHidden: kept.length === 0,
  };
}

// The kept runs a link brought that were never trained here: one button trains them all, then
// says how far it has got (train-kept.js).
function trainAllProps(kept, labels, page, t) {
  const job = page.keptTraining;
  if (job?.running) {
    return { hidden: false, disabled: true, text: t('runs.trainAll', { n: job.n }), progress: t('runs.trainingAll', { i: job.i, n: job.n, name: labels.get(job.key) ?? t('runs.elsewhere') }) };
  }
  const untrained = kept.filter((e) => !e.record).length;
  const progress = job && job.done ? t('runs.trainedAll', { n: job.done }) : untrained ? t('runs.trainAllHint') : '';
  return { hidden: untrained === 0, disabled: Boolean(page.busy), text: t('runs.trainAll', { n: untrained }), progress };
}

// The charts' titles (and so their PNG and SVG exports) name the task and the run, or how many
// runs they compare.
function chartsProps(state, run, info, page, compared, t) {
  const m = info?.metric;
  const name = m ? t(`metric.${m}`) : t('train.metric');
  let loss, metrics;
  if (compared.length <= 1 && !(page.kept?.entries.length)) {
    const { train, smooth, val, metric } = curvesOf(run);
    loss = [
      { name: t('training.train'), color: ROLE_COLORS.x, points: train, width: 1, opacity: 0.55 },
      { name: t('training.smoothed'), color: ROLE_COLORS.q, points: smooth, width: 2.2 },
      { name: t('training.val'), color: ROLE_COLORS.k, points: val, width: 2, dots: true },
    ];
    metrics = [{ name: `${name} · ${t('training.val')}`, color: ROLE_COLORS.v, points: metric, width: 2, dots: true }];
  } else {
    const all = compared.map((r) => ({ r, c: curvesOf(r.record) }));
    loss = all.map(({ r, c }) => ({ name: r.label, color: r.color, points: c.smooth, width: r.current ? 2.4 : 1.8, dash: r.kept ? undefined : [6, 3] }));
    metrics = all.filter(({ r }) => r.record.task?.metric === m).map(({ r, c }) => ({ name: r.label, color: r.color, points: c.metric, width: 2, dots: true, dash: r.kept ? undefined : [6, 3] }));
  }
  const perplexity = m === 'perplexity';
  const task = taskName(state, page, t);
  const subject = compared.length > 1 ? t('training.subjectRuns', { task, n: compared.length })
    : compared[0]?.label ? t('training.subject', { task, run: compared[0].label }) : task;
  return {
    loss: { label: t('training.lossTitle', { subject }), x: t('training.step'), y: t('training.lossAxis'), series: loss },
    metric: { label: t('training.metricTitle', { subject, metric: name }), x: t('training.step'), y: perplexity ? name : `${name} (%)`, series: metrics,
      range: perplexity ? null : [0, 100], logY: perplexity },
  };
}

// An imported model is named as the Task menu names it (the state's task is not in use then).
const taskName = (state, page, t) => (page.imported ? t('task.imported', { name: page.imported.name }) : t(`task.${state.task}`));

function noteVars(state, run, info, page, t) {
  const tr2 = { ...info.train, ...state.train };
  return { task: taskName(state, page, t), steps: run?.totalSteps ?? 0, batch: tr2.batchSize, lr: Number(tr2.lr).toPrecision(2), schedule: t(`value.${tr2.schedule}`) };
}

// The trainer flags a step that diverged (StepReport.divergedAt); the hint stays from that step
// on, until a reset or a new configuration starts over.
function divergedText(r, state, info, t) {
  if (!(r?.divergedAt > 0)) return null;
  if (!info) return '';
  const tr2 = { ...info.train, ...state.train };
  return t('training.diverged', { step: r.divergedAt, lr: Number(Number(tr2.lr).toPrecision(2)), warmup: tr2.warmup });
}

// After a divergence: the button that sets the learning rate to a tenth of the run's (the
// set-up's lr, the one place it lives; a new value rebuilds the model, so it is a new run).
function lowerLrProps(r, state, info, page, t) {
  if (!(r?.divergedAt > 0) || !info) return null;
  const lr = Number({ ...info.train, ...state.train }.lr);
  const value = Number((lr / 10).toPrecision(4));
  return { value, text: t('training.lowerLr', { lr: value }), disabled: Boolean(page.busy) };
}

// "2 threads: …" or "1 thread: why", from the session; the standalone page offers to isolate
// itself where it can (a playground embedded in someone else's page never does).
function threadsProps(page, t) {
  const th = page.threads;
  if (!th) return null;
  const { threads, support } = th;
  let text;
  if (page.isolateFailed) text = t('threads.isolateFailed', { why: page.isolateFailed });
  else if (threads > 1) text = t('threads.many', { n: threads, cores: support.cores });
  else if (support.reason === 'not-isolated') text = t('threads.notIsolated');
  else if (support.reason === 'no-shared-memory') text = t('threads.noSharedMemory');
  else if (support.reason === 'failed') text = t('threads.failed', { why: support.error });
  else text = t('threads.oneCore');
  return { text, isolate: page.standalone && threads === 1 && support.reason === 'not-isolated' && page.isolation === 'possible' };
}
