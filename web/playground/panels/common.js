// panels/common.js — what several panels' derive() functions read the same way: the strings in
// the page's language, the model's configuration as the page may use it, the trace of one probe
// in a snapshot of the history. Pure: no DOM, no state of its own.
import { t } from '../strings/index.js';
import { rangeKind } from '../state.js';

// t() in the state's language.
export const tr = (state) => (key, vars) => t(state.lang, key, vars);

// What a number box takes (controls.js invalidLabel), from the core's table (an open end said
// as one), in the page's language: the message `keys.int` or `keys.real` ({range}: range.*).
export function invalidNumber(f, t, keys) {
  const ends = { min: f.min ?? '−∞', max: f.max ?? '∞' };
  return f.kind === 'int' ? t(keys.int, ends) : t(keys.real, { range: t(`range.${rangeKind(f)}`, ends) });
}

// The configuration of the run the page configured last, or null while its set-up is refused.
export function configOf(run, page) {
  return page?.configError ? null : run?.config ?? null;
}

// A snapshot's trace of probe `key` ('main': the page's input): { input, decoderInput, output,
// tensors, probe, top, step, params, error: Error | null }, or null when it has none.
export function traceOf(snapshot, key = 'main') {
  const p = snapshot?.probes?.[key];
  if (!p) return null;
  return { ...p, step: snapshot.step, params: snapshot.params, error: p.error ? new Error(p.error) : null };
}

// Token ids as text with the task's tokenizer, or the ids themselves if it cannot decode them.
export function decodeIds(tokenizer, ids) {
  try {
    return tokenizer.decode(ids);
  } catch {
    return Array.from(ids).join(' ');
  }
}

// The text the views trace (the state's input, or the task's first sample).
export function probeInput(state, info) {
  return state.input || info?.sampleInputs?.[0] || '';
}
