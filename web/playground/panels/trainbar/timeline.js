// trainbar/timeline.js — the run's history under the training bar: a slider over the recorded
// snapshots (every view shows the model as it was at the step picked), Play to replay the
// history at its own speed (steps of the history per second), and the training pace (steps per
// second, or as fast as possible), two separate choices. The slider's end follows the newest
// snapshot while training goes on. After a new input the worker traces the history again; the
// text says so, and how many steps show the input when some could not be traced again (their
// weights were not kept). Pure.
import { PACES, defaultPace } from '../../state.js';
import { tr } from '../common.js';

// A replay's speeds, in steps of the history per second: the panel keeps the one picked (a view
// setting, not part of the run or the link), REPLAY_DEFAULT until then.
export const REPLAY_SPEEDS = [5, 10, 20, 50, 100, 200];
export const REPLAY_DEFAULT = 20;

export function timelineProps(state, run, shown, info, page) {
  const t = tr(state);
  const list = run?.snapshots ?? [];
  const n = list.length;
  const index = shown ? list.indexOf(shown) : 0;
  const step = shown?.step ?? 0;
  const last = list.at(-1)?.step ?? 0;
  const pace = state.pace ?? defaultPace(info?.train);
  return {
    steps: list.map((s) => s.step),
    count: n,
    index: Math.max(0, index),
    step,
    following: page.shownStep === null || page.shownStep === undefined,
    text: [page.shownStep === null || page.shownStep === undefined ? t('time.now', { step, n }) : t('time.at', { step, last, n }), inputNote(state, list, info, page, t)]
      .filter(Boolean).join(' · '),
    pace,
    defaultPace: defaultPace(info?.train),
    speeds: PACES.map((p) => ({ value: p, selected: p === pace, text: p === 0 ? t('time.max') : p === PACES[0] ? t('time.every', { n: p }) : t('time.pace', { n: p }) })),
    speedLabel: t('time.speed'),
    replaySpeeds: REPLAY_SPEEDS.map((p) => ({ value: p, text: t('time.pace', { n: p }) })),
    replayLabel: t('time.replay'),
    playLabel: t('time.play'),
    stopLabel: t('time.stop'),
  };
}

// While the history is traced again on a new input, or when only part of it shows the input.
function inputNote(state, list, info, page, t) {
  const input = state.input || info?.sampleInputs?.[0] || '';
  if (!list.length || !input) return '';
  const k = list.filter((s) => s.probes?.main?.probe === input).length, n = list.length;
  if (page.retracing && k < n) return t('time.retracing', { k, n });
  return k < n ? t('time.partly', { k, n }) : '';
}
