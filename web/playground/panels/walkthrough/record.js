// walkthrough/record.js — keeps what the history records for the walk-through in step with the
// page: again whenever the task or the model changes, and once more when the walk-through card is
// first on screen (a model other than the seed's is traced in full only from then on: see
// walkthroughRecord in derive.js), and for an imported model whenever it has generated (the
// sequence generation fed it, kept in local.wtGenerated for derive.js).
import { walkthroughRecord } from './derive.js';
import { fedIds } from '../outputs/kv-cache.js';
import { decodeIds } from '../common.js';

// app: the playground (state, record(), on()); root: where the panels are; local: what the page
// adds (local.outputs: the Outputs panel's answer and its KV cache trace).
export function recordWalkthrough(app, root, local) {
  let seen = false;
  const record = () => app.record('walkthrough', walkthroughRecord(app.state, { seen, imported: Boolean(app.imported), generated: app.imported ? local.wtGenerated : null }));
  app.on('state', ({ changed }) => (changed.includes('task') || changed.includes('model') || changed.includes('prompt')) && record());
  app.on('imported', () => {
    local.wtGenerated = null;
    record();
  });
  // What the last generation fed the decoder: its text and where the generated tokens start.
  let read;  // the generation last read (the panel's answer changes less often than it redraws)
  app.on('outputs', () => {
    const generation = app.imported ? local.outputs?.answer?.generation : null;
    if (generation === read) return;
    read = generation;
    const next = generation ? generatedSequence(app, generation) : null;
    if (JSON.stringify(next) === JSON.stringify(local.wtGenerated ?? null)) return;
    local.wtGenerated = next;
    if (app.imported) record();
  });
  const card = root.querySelector('tp-walkthrough-panel #walkthrough');  // its panel element is display: contents
  if (card && typeof IntersectionObserver !== 'function') seen = true;
  else if (card) {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      seen = true;
      record();
    });
    observer.observe(card);
  }
  record();
}

// The prompt and the tokens generation fed back after it (every token but the last), as text the
// model can read at once: as many of those tokens as keep it within the model's context (text
// decoded and read again may split into more tokens than were generated). -> { input, from: the
// first generated position } | null
function generatedSequence(app, generation) {
  const tokenizer = app.info?.tokenizer, maxLen = app.config?.maxLen;
  if (!generation || !tokenizer || !maxLen) return null;
  const fed = fedIds(generation.result, tokenizer.specials);
  const from = tokenizer.encode(generation.prompt).ids.length;
  const length = (text) => tokenizer.encode(text).ids.length;
  let keep = Math.min(fed.length, maxLen - from);
  let input = generation.prompt + decodeIds(tokenizer, fed.slice(0, keep));
  while (keep > 0 && length(input) > maxLen) input = generation.prompt + decodeIds(tokenizer, fed.slice(0, (keep = Math.floor(keep * 0.9))));
  return keep > 0 ? { input, from } : null;
}
