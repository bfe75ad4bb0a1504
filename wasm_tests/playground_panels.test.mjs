// node:test — the playground's panels without a browser: each panel's derive(state, run, shown,
// info, page) on runs recorded by a training session in Node (wasm_tests/playground/recorded.mjs:
// the worker's own code, then RunRecord.toJSON() and back), one run per kind of model —
// encoder-decoder, decoder-only with a windowed layer, encoder-only with classes and with tags.
// What the panels draw is checked against the run and against the core: the KV cache's rows
// and the mask come from tp.kvLayout() and tp.attentionMask(), the special tokens from the
// tokenizer.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { recorded, SETUPS } from './playground/recorded.mjs';
import { deriveOutputs } from '../web/playground/panels/outputs/derive.js';
import { deriveAttention } from '../web/playground/panels/attention/derive.js';
import { deriveTokens } from '../web/playground/panels/tokens/derive.js';
import { deriveEmbeddings } from '../web/playground/panels/embeddings/derive.js';
import { deriveTrainbar } from '../web/playground/panels/trainbar/derive.js';
import { deriveTraining } from '../web/playground/panels/training/derive.js';
import { deriveSetup } from '../web/playground/panels/setup/derive.js';
import { deriveWalkthrough } from '../web/playground/panels/walkthrough/derive.js';
import { deriveFiles } from '../web/playground/panels/files/derive.js';
import { deriveAbout } from '../web/playground/panels/about/derive.js';
import { deriveMasthead } from '../web/playground/panels/masthead/derive.js';
import { formatLoss } from '../web/components/shared/format.js';
import { StepRate } from '../web/playground/step-rate.js';
import { t } from '../web/playground/strings/index.js';

const KINDS = Object.keys(SETUPS);
const runs = {};
before(async () => {
  for (const kind of KINDS) runs[kind] = await recorded(kind);
});
const args = (r, over = {}) => [over.state ?? r.state, r.run, r.run.snapshots.at(-1), r.info, { ...r.page, ...over.page }];

test('outputs: the answer as it is revealed, its bars and the line under it, from the generation', () => {
  for (const kind of ['encoder-decoder', 'decoder-only']) {
    const r = runs[kind];
    const p = deriveOutputs(...args(r));
    const result = r.outputs.answer.generation.result;
    assert.equal(p.answer.kind, 'generate', kind);
    assert.equal(p.answer.steps.length, result.steps.length, kind);
    assert.equal(p.answer.textAt.at(-1), result.text, `${kind}: the last step shows the whole answer`);
    // Each step's text is the answer so far, without <EOS> (the tokenizer's, not a literal).
    const eos = r.info.tokenizer.specials.eos;
    for (let k = 0; k < result.steps.length - 1; ++k) {
      assert.equal(p.answer.textAt[k], r.info.tokenizer.decode(Array.from(result.ids.slice(0, k + 1)).filter((id) => id !== eos)), `${kind} step ${k}`);
    }
    p.answer.bars.forEach((b, i) => {
      assert.equal(b.items.filter((x) => x.chosen).length <= 1, true);
      assert.equal(b.items.find((x) => x.chosen)?.label ?? result.steps[i].token, result.steps[i].token, `${kind}: step ${i}'s chosen bar is its token`);
    });
    assert.match(p.answer.meta, new RegExp(`^${result.steps.length} tokens · .* ms per token · KV cache on · stopped: `), kind);
    assert.equal(p.ready, true);
    assert.equal(p.fields.length, 6);
    assert.deepEqual(p.fields.filter((f) => f.slider).map((f) => f.field.key), ['temperature', 'topK', 'topP']);
    // A box's refusal names the core's range (top-p: above 0, an open end), in the page's language.
    for (const lang of ['en', 'ko']) {
      const topP = deriveOutputs(...args(r, { state: { ...r.state, lang } })).fields.find((f) => f.field.key === 'topP');
      assert.equal(topP.invalidLabel(), t(lang, 'out.invalidReal', { range: t(lang, 'range.minOpen', { min: topP.field.min, max: topP.field.max }) }), lang);
    }
    // Korean: the same answer, in Korean words.
    const ko = deriveOutputs(...args(r, { state: { ...r.state, lang: 'ko' } }));
    assert.match(ko.answer.meta, /토큰당/);
    assert.equal(ko.answer.textAt.at(-1), result.text);
  }
  assert.equal(deriveOutputs(...args(runs['encoder-decoder'])).answer.text, runs['encoder-decoder'].outputs.answer.generation.result.text);
});

test('outputs: the KV cache picture is laid out as the core lays out the cache (tp.kvLayout)', () => {
  for (const kind of ['encoder-decoder', 'decoder-only']) {
    const r = runs[kind];
    const p = deriveOutputs(...args(r));
    const config = r.run.config;
    const layout = r.tp.kvLayout(config, p.kv.data.tokens.length);
    assert.deepEqual(p.kv.data.layers.map((l) => [l.layer, l.local, l.capacity, l.ringStart, [...l.rows]]), layout.map((l) => [l.layer, l.local, l.capacity, l.ringStart, [...l.rows]]), kind);
    assert.equal(p.kv.data.layers.length, config.nLayers);
    const steps = r.outputs.answer.generation.result.steps.length;
    // While k tokens show: the prompt and the k − 1 fed back (never more than were fed).
    assert.equal(p.kv.uptoAt.length, steps + 1);
    assert.equal(p.kv.uptoAt[1], p.kv.data.prompt);
    assert.equal(p.kv.uptoAt.at(-1), p.kv.data.prompt + r.outputs.kv.fed);
    assert.deepEqual(p.kv.uptoAt, [...p.kv.uptoAt].sort((a, b) => a - b));
  }
  // The windowed layer (pattern "LG", window 3) is a ring: its rows repeat every 3 positions.
  const [local, global] = deriveOutputs(...args(runs['decoder-only'])).kv.data.layers;
  assert.deepEqual([local.local, local.capacity, global.local], [true, 3, false]);
  assert.deepEqual([...local.rows].slice(0, 7), [0, 1, 2, 0, 1, 2, 0]);
  assert.deepEqual([...global.rows].slice(0, 7), [0, 1, 2, 3, 4, 5, 6]);
});

test('outputs: an encoder-only model\'s prediction, and the sliders\' preview', () => {
  const c = deriveOutputs(...args(runs['encoder-only classes']));
  const result = runs['encoder-only classes'].outputs.answer.prediction.result;
  assert.equal(c.encoderOnly, true);
  assert.equal(c.generateLabel, 'Predict');
  assert.deepEqual([c.answer.kind, c.answer.text], ['classes', result.classes[0].label]);
  assert.equal(c.answer.meta, t('en', 'out.predicted', { label: result.classes[0].label }));
  assert.deepEqual(c.answer.bars[0].items.map((x) => x.label), result.classes.map((x) => x.label));
  assert.equal(c.kv, null);
  const g = deriveOutputs(...args(runs['encoder-only tags']));
  const tags = runs['encoder-only tags'].outputs.answer.prediction.result;
  assert.equal(g.answer.kind, 'tags');
  assert.equal(g.answer.steps.length, tags.input.tokens.length);
  assert.equal(g.answer.text, tags.input.tokens.map((tok, i) => `${tok}/${tags.positions[i][0].label}`).join(' '));
  assert.equal(g.answer.bars[1].label, `${t('en', 'out.tags')}: ${tags.input.tokens[1]}`);
  // A preview: the core's pSample as the bars, the setting it was drawn with.
  const r = runs['encoder-decoder'];
  const step = r.outputs.answer.generation.result.steps[0];
  const p = deriveOutputs(...args(r, { page: { outputs: { ...r.outputs, preview: { id: 7, options: { temperature: 2, topK: 0, topP: 1 }, step } } } }));
  assert.deepEqual(p.preview.items.map((x) => x.pSample), step.topk.map((x) => x.pSample));
  assert.deepEqual(JSON.parse(p.preview.setting), { temperature: 2, topK: 0, topP: 1 });
  assert.equal(p.preview.label, t('en', 'out.previewBars', { t: 2, k: 0, p: 1 }));
});

test('outputs: what the model answers at the shown step, and "now" when the timeline follows the newest', () => {
  const r = runs['encoder-decoder'];
  const step = r.run.snapshots.at(-1).step;
  const now = deriveOutputs(r.state, r.run, r.run.snapshots.at(-1), r.info, { ...r.page, shownStep: null });
  assert.match(now.atStep, new RegExp(`^Now \\(step ${step}\\) the model answers "how are you" with "`));
  const first = deriveOutputs(r.state, r.run, r.run.snapshots[0], r.info, { ...r.page, shownStep: 0 });
  assert.match(first.atStep, /^At step 0 /);
  // An answer says which model gave it: the step the timeline showed, or now.
  const answered = (answer) => deriveOutputs(r.state, r.run, r.run.snapshots[0], r.info, { ...r.page, outputs: { answer } }).answerStep;
  const result = { text: 'i am fine', steps: [], msPerToken: 0, stopReason: 'eos' };
  assert.equal(answered({ id: 1, atStep: 2, step: 2, generation: { id: 1, prompt: 'how are you', result, options: {} } }),
    'answered by the model as it was at step 2 (the step the timeline shows)');
  assert.equal(answered({ id: 2, atStep: null, step: step, generation: { id: 2, prompt: 'how are you', result, options: {} } }), `answered by the model now (step ${step})`);
  assert.equal(answered({ id: 3, error: 'no' }), '');
});

test('attention: the grid, the head and the mask of every kind; the mask is the core\'s', () => {
  for (const kind of KINDS) {
    const r = runs[kind];
    const p = deriveAttention(...args(r));
    const config = r.run.config;
    assert.ok(p.views, kind);
    assert.equal(p.views.grid.maps.probs.length, config.nLayers, kind);
    assert.equal(p.views.grid.maps.heads, config.nHeads, kind);
    const { rows, cols, data } = p.views.main.matrix;
    // Probabilities: every unmasked row sums to 1.
    for (let i = 0; i < rows; ++i) {
      let sum = 0;
      for (let j = 0; j < cols; ++j) if (data[i * cols + j] !== -Infinity) sum += data[i * cols + j];
      assert.ok(Math.abs(sum - 1) < 1e-4, `${kind}: row ${i} sums to ${sum}`);
    }
    // Two <PAD> added, named as the tokenizer names them, masked as keys.
    const pad = r.info.vocab[r.info.tokenizer.specials.pad];
    const m = p.mask.matrix;
    assert.deepEqual(m.colLabels.slice(-2), [pad, pad]);
    for (let i = 0; i < m.rows; ++i) assert.deepEqual([m.data[i * m.cols + m.cols - 2], m.data[i * m.cols + m.cols - 1]], [-Infinity, -Infinity]);
    assert.match(p.mask.note, /<PAD> keys ignored/);
  }
  // Decoder-only, layer 0 local (window 3): causal and windowed, as the core masks.
  const d = runs['decoder-only'];
  const dec = deriveAttention(...args(d));
  assert.equal(dec.kind, 'dec');
  assert.match(dec.mask.note, /causal/);
  assert.match(dec.mask.note, /window w = 3/);
  const m = dec.mask.matrix;
  for (let q = 0; q < m.rows - 2; ++q) {
    for (let k = 0; k < m.cols - 2; ++k) assert.equal(m.data[q * m.cols + k] === 1, k <= q && q - k < 3, `query ${q}, key ${k}`);
  }
  const global = deriveAttention(...args(d, { state: { ...d.state, attn: { ...d.state.attn, layer: 1 } } }));
  assert.doesNotMatch(global.mask.note, /window/);
  // An encoder sees everything but <PAD>.
  assert.match(deriveAttention(...args(runs['encoder-only classes'])).mask.note, /^full attention/);
});

test('attention: a probe the history kept shortened says how many of its tokens it shows', () => {
  const r = runs['encoder-decoder'];
  const last = r.run.snapshots.at(-1);
  assert.doesNotMatch(deriveAttention(...args(r)).note, /history keeps/);
  const shortened = { ...last, probes: { ...last.probes, main: { ...last.probes.main, shortened: { tokens: 3, of: 120, limit: 3 * 2 ** 20 } } } };
  const p = deriveAttention(r.state, r.run, shortened, r.info, r.page);
  assert.match(p.note, /^Input: "how are you".*to pick a head\. The history keeps its first 3 of 120 tokens: a snapshot may take at most 3\.0 MB\.$/);
  const ko = deriveAttention({ ...r.state, lang: 'ko' }, r.run, shortened, r.info, r.page);
  assert.match(ko.note, /120개 토큰 중 앞의 3개만 남습니다: 스냅숏 하나는 최대 3\.0 MB/);
});

test('attention: a kept run beside this one, or none', () => {
  const r = runs['encoder-decoder'];
  assert.equal(deriveAttention(...args(r)).compare.hidden, true);
  const other = runs['decoder-only'];
  const compared = [{ key: 'a', record: other.run, label: 'architecture: decoder-only', current: false }, { key: 'b', record: r.run, label: 'this', current: true }];
  const p = deriveAttention(...args(r, { page: { compared } }));
  assert.equal(p.compare.hidden, false);
  assert.deepEqual(p.compare.options, [{ value: 'a', text: 'architecture: decoder-only' }]);
  // The decoder-only run has no encoder self-attention to show beside this one's.
  assert.equal(p.compare.maps, null);
  assert.equal(p.compare.note, t('en', 'attn.compareNone', { kind: t('en', 'attn.kind.enc') }));
});

test('tokens: the model\'s own tokens, with its <CLS> first where it classifies', () => {
  for (const kind of KINDS) {
    const r = runs[kind];
    const p = deriveTokens(...args(r));
    const enc = r.info.tokenizer.encode(p.input);
    const ids = p.chips.tokens.map((x) => x.id);
    if (r.info.kind === 'classify') {
      assert.deepEqual(ids, [r.info.tokenizer.specials.cls, ...enc.ids], kind);
      assert.equal(p.chips.tokens[0].text, r.info.vocab[r.info.tokenizer.specials.cls]);
      assert.equal(p.chips.tokens[0].span, null);
    } else {
      assert.deepEqual(ids, [...enc.ids], kind);
    }
    assert.deepEqual(p.table.rows.map((x) => x.name), ['this model\'s (' + t('en', `value.${r.info.tokenizer.kind}`) + ')', 'character', 'word', 'byte'], kind);
  }
  const r = runs['encoder-decoder'];
  const bytes = deriveTokens(...args(r, { state: { ...r.state, tokKind: 'byte', input: '한' } }));
  assert.equal(bytes.chips.tokens.length, 3, 'one Korean syllable is three bytes');
  assert.equal(bytes.chips.side, null);
});

test('embeddings: the traced rows, the positional table of the model, one-hot and cosine', () => {
  for (const kind of KINDS) {
    const r = runs[kind];
    const p = deriveEmbeddings(...args(r));
    const trace = r.run.snapshots.at(-1).probes.main;
    assert.deepEqual(p.views.rows.map((x) => x.matrix.rows), [trace.input.tokens.length, trace.input.tokens.length, trace.input.tokens.length], kind);
    assert.equal(p.views.onehot.onehot.matrix.cols, r.run.config.vocabSize);
  }
  const seq = deriveEmbeddings(...args(runs['encoder-decoder']));
  assert.equal(seq.views.positional.table.matrix.rows, 8);  // the toy's maxLen
  assert.match(seq.views.positional.title, /sinusoidal/);
  // A learned table comes from the snapshot's parameters (the history records them).
  const learned = deriveEmbeddings(...args(runs['encoder-only classes']));
  const table = runs['encoder-only classes'].run.snapshots.at(-1).params['pos_emb.weight'];
  assert.deepEqual([...learned.views.positional.table.matrix.data.subarray(0, 8)], [...table.data.subarray(0, 8)]);
  assert.equal(seq.views.onehot.cosine.matrix.rows, 11, 'a small vocabulary: every token against every token');
});

test('the training bar: a run that trained to its end without meeting the stop rule says what its metric reached and what the rule asks', () => {
  const r = runs['encoder-decoder'];
  assert.equal(r.info.metric, 'exact_match');
  // 20 steps of loss 0.5 with the metric evaluated at 60% on the last: finished, not met.
  const points = Array.from({ length: 20 }, (_, i) => [i + 1, 0.5, null, i === 12 ? 0.2 : i === 19 ? 0.6 : null]);
  const finished = { ...r.run, running: false, reason: 'finished', points };
  const unmet = 'Trained to the last step without meeting the stop rule: exact match reached 60.0% at the last evaluation; it stops early only at 100.0%, with a mean loss below 0.02 over the last 10 steps.';
  assert.deepEqual(deriveTrainbar({ ...r.state, stop: true }, finished, null, r.info, r.page).met, { text: unmet, keep: '' });
  assert.match(deriveTrainbar({ ...r.state, stop: true, lang: 'ko' }, finished, null, r.info, r.page).met.text, /^멈춤 규칙을 채우지 못해 마지막 단계까지 학습했습니다: 마지막 평가에서 완전 일치 60\.0%/);
  // Nothing to say: the rule was off, the run is still going or only paused, a language model (no best value), or no evaluation yet.
  assert.equal(deriveTrainbar({ ...r.state, stop: false }, finished, null, r.info, r.page).met, null);
  assert.equal(deriveTrainbar(r.state, { ...finished, running: true }, null, r.info, r.page).met, null);
  assert.equal(deriveTrainbar(r.state, { ...finished, reason: 'paused' }, null, r.info, r.page).met, null);
  assert.equal(deriveTrainbar(r.state, finished, null, { ...r.info, metric: 'perplexity' }, r.page).met, null);
  assert.equal(deriveTrainbar(r.state, { ...finished, points: points.map(([a, b]) => [a, b, null, null]) }, null, r.info, r.page).met, null);
  // A run that met the rule and trained on to the end (Keep training) has met it: no such note.
  const learned = points.map(([step], i) => [step, 0.001, null, i === 19 ? 1 : null]);
  assert.equal(deriveTrainbar(r.state, { ...finished, points: learned }, null, r.info, r.page).met, null);
  // Paused where it was met: the rule's own line, with Keep training.
  assert.equal(deriveTrainbar(r.state, { ...finished, points: learned, reason: 'met' }, null, r.info, r.page).met.keep, 'Keep training');
});

test('the training bar, the training card and the timeline read the run as recorded', () => {
  for (const kind of KINDS) {
    const r = runs[kind];
    const bar = deriveTrainbar(...args(r));
    assert.equal(bar.stats.loss, formatLoss(r.run.report.loss), kind);
    assert.equal(bar.stepText, `step ${r.run.totalSteps} / ${r.run.totalSteps}`);
    assert.deepEqual([bar.buttons.train.disabled, bar.buttons.step.disabled, bar.buttons.reset.disabled], [true, true, false], `${kind}: finished`);
    assert.equal(bar.timeline.count, r.run.snapshots.length);
    assert.equal(bar.timeline.index, r.run.snapshots.length - 1);
    assert.equal(bar.status.text, 'finished');
    const card = deriveTraining(...args(r));
    assert.equal(card.charts.loss.series[0].points.length, r.run.points.length, kind);
    assert.match(card.note, new RegExp(`${r.run.totalSteps} steps`));
    assert.equal(card.diverged, null);
  }
  // A control holding a value the core refuses keeps Train off.
  const r = runs['encoder-decoder'];
  const fresh = { ...r.run, report: { ...r.run.report, step: 1 }, snapshots: r.run.snapshots, points: r.run.points, totalSteps: r.run.totalSteps, config: r.run.config };
  assert.equal(deriveTrainbar(r.state, fresh, null, r.info, r.page).buttons.train.disabled, false);
  assert.equal(deriveTrainbar(r.state, fresh, null, r.info, { ...r.page, invalid: new Map([['dModel', 'no']]) }).buttons.train.disabled, true);
  // Showing an earlier step: the timeline says which of how many.
  const shown = r.run.snapshots[1];
  const tl = deriveTrainbar(r.state, r.run, shown, r.info, { ...r.page, shownStep: shown.step }).timeline;
  assert.equal(tl.index, 1);
  assert.equal(tl.text, t('en', 'time.at', { step: shown.step, last: r.run.snapshots.at(-1).step, n: r.run.snapshots.length }));
  // While training: the steps per second and the time left at that rate.
  const running = { ...fresh, running: true, report: { ...fresh.report, step: 100 }, totalSteps: 2000 };
  assert.equal(deriveTrainbar(r.state, running, null, r.info, { ...r.page, rate: 0.0667 }).stepText, 'step 100 / 2000 · 0.0667 steps/s · 7.9 h left');
  assert.equal(deriveTrainbar(r.state, running, null, r.info, { ...r.page, rate: 25 }).stepText, 'step 100 / 2000 · 25 steps/s · 76 s left');
  assert.equal(deriveTrainbar(r.state, running, null, r.info, { ...r.page, rate: 2.5 }).stepText, 'step 100 / 2000 · 2.5 steps/s · 13 min left');
  assert.equal(deriveTrainbar(r.state, running, null, r.info, { ...r.page, rate: null }).stepText, 'step 100 / 2000');
  assert.equal(deriveTrainbar({ ...r.state, lang: 'ko' }, running, null, r.info, { ...r.page, rate: 25 }).stepText, '100 / 2000 단계 · 초당 25단계 · 남은 시간 76초');
  // A model that cannot be trained here: Train and Step off, the reason in one sentence.
  const untrainable = { ...fresh, notTrainable: 'this model has 124439808 parameters; training needs 1898 MB' };
  const off = deriveTrainbar(r.state, untrainable, null, r.info, r.page);
  assert.deepEqual([off.buttons.train.disabled, off.buttons.step.disabled, off.buttons.reset.disabled], [true, true, true]);
  assert.equal(off.notTrainable, 'Fine-tuning is off for this model, which still generates and shows every view: this model has 124439808 parameters; training needs 1898 MB.');
  assert.equal(deriveTrainbar(r.state, fresh, null, r.info, r.page).notTrainable, '');
});

test('the step rate: steps per second over the last seconds of the worker\'s clock, from each start on', () => {
  const rate = new StepRate();
  assert.equal(rate.rate, null);
  rate.observe(0, 1000);
  rate.observe(1, 1500);
  assert.equal(rate.rate, null, 'less than a second seen');
  for (let i = 2; i <= 40; ++i) rate.observe(i, 1000 + i * 500);  // 2 steps/s for 20 s
  assert.equal(rate.rate, 2);
  for (let i = 41; i <= 60; ++i) rate.observe(i, 21000 + (i - 40) * 1000);  // then 1 step/s: the window follows
  assert.equal(rate.rate, 1);
  rate.observe(60, 45000);  // the same step again (a state event) adds nothing
  assert.equal(rate.rate, 1);
  rate.observe(3, 46000);  // a step back: another run
  assert.equal(rate.rate, null);
  rate.observe(4, 61000);  // one step in 15 s
  assert.equal(rate.rate, 1 / 15);
  rate.reset();
  assert.equal(rate.rate, null);
});

test('a divergence: the hint in the page\'s language and one button for a tenth of the run\'s learning rate', () => {
  const r = runs['encoder-decoder'];
  assert.equal(deriveTraining(...args(r)).lowerLr, null, 'no button for a run that did not diverge');
  const diverged = { ...r.run, report: { ...r.run.report, diverged: true, divergedAt: 3 } };
  const state = { ...r.state, train: { ...r.state.train, lr: 10, warmup: 0 } };
  for (const lang of ['en', 'ko']) {
    const card = deriveTraining({ ...state, lang }, diverged, null, r.info, r.page);
    assert.equal(card.diverged, t(lang, 'training.diverged', { step: 3, lr: '10', warmup: 0 }), lang);
    assert.deepEqual(card.lowerLr, { value: 1, text: t(lang, 'training.lowerLr', { lr: 1 }), disabled: false }, lang);
  }
  assert.match(t('ko', 'training.lowerLr', { lr: 1 }), /^학습률을 1/);
  // The task's own learning rate when the set-up keeps the default; busy while a model builds.
  const byDefault = deriveTraining(r.state, diverged, null, r.info, { ...r.page, busy: true }).lowerLr;
  assert.deepEqual(byDefault, { value: Number((r.info.train.lr / 10).toPrecision(4)), text: t('en', 'training.lowerLr', { lr: byDefault.value }), disabled: true });
});

test('set-up: the choices each task allows, the preset the model is, the model\'s size', () => {
  const seq = deriveSetup(...args(runs['encoder-decoder']));
  const arch = (p) => p.arch.fields.find((f) => f.field.key === 'arch');
  assert.deepEqual(Object.keys(arch(seq).disabled), ['encoder-only']);
  assert.equal(seq.presets.find((p) => p.name === 'seed').active, true);
  assert.match(seq.summary, /^encoder-decoder · 1,020 parameters/);
  const cls = deriveSetup(...args(runs['encoder-only classes']));
  assert.deepEqual(Object.keys(arch(cls).disabled).sort(), ['decoder-only', 'encoder-decoder']);
  assert.deepEqual(Object.keys(cls.arch.fields.find((f) => f.field.key === 'head').disabled).sort(), ['lm', 'mlm', 'token']);
  assert.equal(cls.custom.check(1_000_001), t('en', 'setup.tooMuch', { n: '1,000,001', limit: '1,000,000' }));
  assert.equal(cls.custom.check(10), '');
});

test('the walk-through follows the training seed model, the files card and the about card', () => {
  const r = runs['encoder-decoder'];
  const w = deriveWalkthrough(...args(r));
  assert.equal(w.source, 'live');
  const steps = w.steps();
  assert.ok(steps.length >= 20);
  assert.match(w.note, new RegExp(`step ${r.run.snapshots.at(-1).step}`));
  const fresh = deriveWalkthrough(...args(r, { page: { wtSource: 'fresh' } }));
  assert.equal(fresh.source, 'fresh');
  assert.notEqual(fresh.key, w.key);
  // Every other model walks through live too, on the trace the history recorded at the shown
  // step, at the layer, head and token picked (clamped to the model).
  for (const kind of KINDS.filter((k) => k !== 'encoder-decoder')) {
    const o = runs[kind];
    const shown = o.run.snapshots.at(-1);
    const live = deriveWalkthrough(...args(o, { page: { wtPick: { layer: 1, head: 1, token: 0 } } }));
    assert.equal(live.source, 'live', kind);
    assert.equal(live.sources[1].disabled, false, kind);
    const layers = o.run.config.nLayers;
    assert.deepEqual([live.pick.layer, live.pick.head, live.pick.token], [Math.min(1, layers - 1) === 1 ? 1 : 0, 1, 0], kind);
    const tensors = shown.probes.walkthrough.tensors;
    const wsteps = live.steps();
    assert.ok(wsteps.length > 10, kind);
    for (const s of wsteps) for (const m of s.matrices) {
      const e = tensors[m.trace.name];
      assert.ok(e, `${kind} ${s.id}: ${m.trace.name} not recorded`);
      if (m.trace.head === undefined && !m.trace.cols && m.trace.row === undefined) assert.deepEqual(Array.from(m.matrix.data), Array.from(e.data), `${kind} ${s.id} ${m.label}`);
    }
    assert.notEqual(deriveWalkthrough(...args(o, { page: { wtPick: { layer: 0, head: 0, token: 0 } } })).key, live.key, kind);
    // A sentence classifier and a tagger end in a class; a language model in the next token.
    assert.match(wsteps.at(-1).title, kind.startsWith('encoder-only') ? /the chosen class/ : /the chosen token/, kind);
  }
  assert.equal(deriveFiles(...args(r)).saveDisabled, false);
  assert.equal(deriveFiles(...args(r, { page: { configError: new Error('no') } })).saveDisabled, true);
  const about = deriveAbout(...args(r));
  assert.equal(about.tables.length, 2);
  assert.doesNotMatch(about.tables[1].caption, /planned/);
  // The isolation service worker's undo, only while one is registered.
  assert.equal(about.isolationNote, null);
  const isolated = deriveAbout(...args(r, { page: { isolationScopes: ['https://example.org/web/index.html', 'https://example.org/web/lib/'] } }));
  assert.match(isolated.isolationNote, /registered for this page and its training workers alone \(https:\/\/example\.org\/web\/index\.html, https:\/\/example\.org\/web\/lib\/\)/);
  assert.deepEqual(deriveMasthead({ lang: 'ko' }), { langText: 'English', langAttr: 'en' });
});

test('every panel derives its props from the run of each kind of model, in the reader\'s language', async () => {
  const { PANELS } = await import('./playground/panel-list.mjs');
  for (const kind of KINDS) {
    const r = runs[kind];
    for (const [name, derive] of Object.entries(PANELS)) {
      const en = JSON.stringify(derive(...args(r)), (k, v) => (typeof v === 'function' || ArrayBuffer.isView(v) ? undefined : v));
      const ko = JSON.stringify(derive(...args(r, { state: { ...r.state, lang: 'ko' } })), (k, v) => (typeof v === 'function' || ArrayBuffer.isView(v) ? undefined : v));
      assert.ok(en && en.length > 20, `${kind} ${name}: no props`);
      assert.notEqual(ko, en, `${kind} ${name}: the same props in Korean as in English`);
    }
  }
});

test('timeline: while the history is traced again on a new input it says so; steps that kept another input are counted', async () => {
  const { timelineProps } = await import('../web/playground/panels/trainbar/timeline.js');
  const snap = (step, probe) => ({ step, probes: { main: { probe, tensors: {} } }, params: {} });
  const state = { lang: 'en', input: 'i am you' };
  const page = { shownStep: null };
  const mixed = { snapshots: [snap(0, 'i am you'), snap(1, 'how are you'), snap(2, 'i am you')] };
  assert.equal(timelineProps(state, mixed, mixed.snapshots[2], null, { ...page, retracing: true }).text,
    'step 2: now (3 recorded) · re-tracing the history on the new input… 2 of 3 steps');
  assert.equal(timelineProps(state, mixed, mixed.snapshots[2], null, page).text,
    'step 2: now (3 recorded) · the input shows at 2 of 3 steps; the others show the input they recorded');
  const all = { snapshots: [snap(0, 'i am you'), snap(2, 'i am you')] };
  assert.equal(timelineProps(state, all, all.snapshots[1], null, page).text, 'step 2: now (2 recorded)');
  assert.ok(/단계/.test(timelineProps({ ...state, lang: 'ko' }, mixed, mixed.snapshots[2], null, page).text));
});
