// outputs/at-step.js — what the model answers the probe input at the step the timeline shows:
// its own greedy answer (the trace follows it) and its top guesses for the next token where the
// answer begins. Pure.

// trace: the shown snapshot's trace of the page's input (common.js traceOf); vocab: the task's;
// now: the timeline follows the newest snapshot (the text says "now", not a step of the past).
export function atStepText(trace, vocab, { t, now = false }) {
  if (!trace || trace.error || !trace.top || !vocab) return '';
  const tok = (id) => vocab[id] ?? String(id);
  const { k, ids, p } = trace.top;
  const rows = ids.length / k;
  let answer = '', at = rows - 1;
  if (trace.decoderInput) {
    answer = trace.decoderInput.tokens.slice(1).join(' ');
    at = 0;
  } else if (trace.output?.tokens?.length) {
    answer = trace.output.tokens.join(' ');
    at = rows - trace.output.tokens.length - 1;
  }
  at = Math.max(0, Math.min(rows - 1, at));
  const guesses = Array.from({ length: k }, (_, j) => `${tok(ids[at * k + j])} ${(100 * p[at * k + j]).toFixed(0)}%`).join(' · ');
  const key = answer ? (now ? 'out.nowAnswer' : 'out.atStepAnswer') : now ? 'out.now' : 'out.atStep';
  return t(key, { step: trace.step, input: trace.probe, answer, guesses });
}
