// The playground's page logic without a browser: every UI string of the page and of the widgets
// exists in English and Korean (including the keys built at run time), the URL hash round-trips
// the whole state, presets give configurations the model accepts, and the walk-through follows
// the seed's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { STRINGS as APP_STRINGS, COMMON, t } from '../web/playground/strings/index.js';
import { SHARED } from '../web/ui/strings.js';
import { WIDGET_STRINGS } from '../web/widgets/shared/strings.js';
import { TASKS, CUSTOM_TASKS, ARCH_FIELDS, TRAIN_FIELDS, GEN_FIELDS, TOKENIZER_KINDS, ATTN_STAGES, RANGE_KINDS, PRESETS, inRange, defaultState, applyPreset, sessionRequest, parsePairs, URL_TEXT_LIMIT } from '../web/playground/state.js';
import { parseHash, toHash } from '../web/playground/hash.js';
import { buildSteps } from '../web/components/shared/walkthrough-steps.js';
import { mathText } from '../web/ui/mathml.js';
import { load } from 'transformer-playground';
import { BROWSER_FEATURES, BROWSERS } from '../web/lib/browser-support.js';

const web = path.join(root, 'web');
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : []));
}

// What the playground's t() looks in: its own table, what every language writes alike, then the
// one shared with the widgets.
const STRINGS = { en: { ...SHARED.en, ...COMMON, ...APP_STRINGS.en }, ko: { ...SHARED.ko, ...COMMON, ...APP_STRINGS.ko } };

test('every string key the page uses exists in English and Korean', () => {
  const used = new Set();
  // (The views' own labels are checked in wasm_tests/web_strings.test.mjs.)
  for (const file of [...sources(path.join(web, 'playground')), path.join(web, 'components', 'shared', 'walkthrough-steps.js')]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:t|tr)\(\s*(?:lang,\s*|this,\s*)?'([a-zA-Z0-9_.-]+)'/g)) used.add(m[1]);
    // The panels' markup (and its keys written `nav.${name}` from a list).
    for (const m of text.matchAll(/data-i18n(?:-aria)?="([^"$]+)"/g)) used.add(m[1]);
  }
  for (const s of ['training', 'outputs', 'attention', 'tokens', 'embeddings', 'walkthrough', 'files', 'about']) used.add(`nav.${s}`);
  // Keys built at run time.
  for (const n of [...TASKS, ...CUSTOM_TASKS]) used.add(`task.${n}`).add(`taskdesc.${n}`);
  for (const f of [...ARCH_FIELDS, ...TRAIN_FIELDS, ...GEN_FIELDS]) {
    used.add(`field.${f.key}`);
    if (f.kind === 'enum') for (const v of f.values) used.add(`value.${v}`);
  }
  for (const v of [...TOKENIZER_KINDS, 'true', 'false']) used.add(`value.${v}`);
  for (const s of ATTN_STAGES) used.add(`attn.stage.${s}`);
  for (const k of RANGE_KINDS) used.add(`range.${k}`);
  for (const k of ['enc', 'dec', 'cross']) used.add(`attn.kind.${k}`);
  for (const p of Object.keys(PRESETS)) used.add(`preset.${p}`).add(`preset.${p}.hint`);
  for (const m of ['exact_match', 'token_accuracy', 'accuracy', 'perplexity']) used.add(`metric.${m}`);
  for (const r of ['eos', 'max_new_tokens', 'max_len']) used.add(`out.reason.${r}`);
  for (const p of ['sinusoidal', 'learned', 'rope', 'alibi', 'none']) used.add(`emb.pe.${p}`).add(`emb.peNote.${p}`);
  for (const k of ['char', 'word', 'bpe', 'byte']) used.add(`tokens.note.${k}`);
  for (const g of ['input', 'encoder', 'decoder', 'output']) used.add(`wt.group.${g}`);
  for (const f of BROWSER_FEATURES) used.add(`about.feature.${f.id}`);
  for (const b of BROWSERS) used.add(`about.browser.${b}`);
  for (const s of ['vocab', 'embed', 'pe', 'sum', 'q', 'kv', 'qk', 'scale', 'mask', 'softmax', 'av', 'concat', 'wo', 'add1', 'norm1', 'ffn1', 'ffn2', 'add2',
    'dembed', 'dqk', 'dmask', 'dsoftmax', 'dout', 'cross', 'crossout', 'dffn', 'logits', 'probs']) used.add(`wt.s.${s}.t`).add(`wt.s.${s}.x`);
  const missing = [...used].filter((k) => !(k in STRINGS.en) || !(k in STRINGS.ko));
  assert.deepEqual(missing, [], `missing strings: ${missing.join(', ')}`);
  for (const table of [APP_STRINGS, SHARED]) {
    assert.deepEqual(Object.keys(table.en).filter((k) => !(k in table.ko)), []);
    assert.deepEqual(Object.keys(table.ko).filter((k) => !(k in table.en)), []);
  }
  // A key lives in one table only.
  assert.deepEqual(Object.keys(APP_STRINGS.en).filter((k) => k in SHARED.en || k in COMMON), []);
  assert.deepEqual(Object.keys(COMMON).filter((k) => k in SHARED.en), []);
});

test('the URL hash round-trips the state, and bad values are ignored', () => {
  const s = { ...defaultState(), task: 'pairs', pairs: 'a => b\nc => d', lang: 'ko', seed: 42, model: { pos: 'rope', dModel: 8, tieEmbeddings: true, layerPattern: 'LG' },
    train: { lr: 0.003, schedule: 'noam' }, gen: { ...defaultState().gen, temperature: 0.7, kvCache: false }, attn: { kind: 'cross', layer: 1, head: 2, stage: 'masked' },
    input: '안녕 & hello=1', prompt: 'how are you', tokKind: 'byte', wt: 12 };
  assert.deepEqual(parseHash(toHash(s)), s);
  assert.equal(toHash(defaultState()), '#');
  const bad = parseHash('#task=nope&m.pos=sideways&m.dModel=abc&t.schedule=x&seed=-3&lang=fr&m.unknown=1&a.kind=zzz');
  assert.deepEqual(bad, defaultState());
  assert.deepEqual(parsePairs('a => b\n\nbad line\nc\td'), [['a', 'b'], ['c', 'd']]);
});

test('hash keys are only the tables\' own, and values only what the controls allow', async () => {
  // Names Object.prototype holds (and a polluted prototype's) are no options.
  const inherited = parseHash('#m.constructor=x&m.toString=1&m.__proto__=1&t.hasOwnProperty=2&g.valueOf=3&a.constructor=4');
  assert.deepEqual(inherited, defaultState());
  Object.prototype.polluted = { kind: 'int' };
  try {
    assert.deepEqual(parseHash('#m.polluted=5&t.polluted=5'), defaultState());
  } finally {
    delete Object.prototype.polluted;
  }
  // Out of a control's range, not a whole number, or beyond what a JS number holds exactly.
  const wild = parseHash('#m.dModel=1e9&m.nLayers=2.5&t.lr=-1&t.batchSize=99999&g.topP=7&a.layer=-1&seed=99999999999999999999&wt=1e3&m.dropout=');
  assert.deepEqual(wild, defaultState());
  // In range, they load; and the request the page sends the library is then accepted by it.
  const fine = parseHash('#m.dModel=12&m.nLayers=2&t.lr=0.01&t.batchSize=8&seed=9007199254740991');
  assert.deepEqual([fine.model, fine.train, fine.seed], [{ dModel: 12, nLayers: 2 }, { lr: 0.01, batchSize: 8 }, 9007199254740991]);
  const tp = await load();
  const task = tp.task('qa-toy');
  const req = sessionRequest(parseHash('#m.constructor=x&m.nHeads=3&m.dModel=12'));
  const model = tp.model({ ...task.defaults, ...req.model });
  assert.equal(model.config.nHeads, 3);
  for (const o of [model, task]) o.dispose();
});

test('a number control takes exactly what the core takes: an open end of its range (lr 0, dropout 1) is refused, and said', async () => {
  const tp = await load();
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  // Whether the core takes option f = v (null: not one this checks here).
  const accepted = (f, v) => {
    try {
      if (TRAIN_FIELDS.includes(f)) tp.trainer(model, task, { [f.key]: v }).dispose();
      else if (ARCH_FIELDS.includes(f)) tp.model({ ...task.defaults, [f.key]: v }).dispose();
      else return null;
      return true;
    } catch {
      return false;
    }
  };
  const open = [...ARCH_FIELDS, ...TRAIN_FIELDS, ...GEN_FIELDS].filter((f) => f.minOpen || f.maxOpen);
  assert.ok(open.some((f) => f.key === 'lr' && f.minOpen) && open.some((f) => f.key === 'dropout' && f.maxOpen), open.map((f) => f.key).join());
  for (const f of [...ARCH_FIELDS, ...TRAIN_FIELDS].filter((x) => x.kind === 'float')) {
    for (const [end, isOpen] of [[f.min, f.minOpen], [f.max, f.maxOpen]]) {
      if (end === undefined) continue;
      assert.equal(inRange(f, end), !isOpen, `${f.key} = ${end}`);
      const core = accepted(f, end);
      if (core !== null && isOpen) assert.equal(core, false, `the core takes ${f.key} = ${end}, which the control refuses`);
    }
  }
  // The words come from the range's kind, in the page's language; a link is refused the same way.
  const lr = TRAIN_FIELDS.find((f) => f.key === 'lr');
  assert.equal(t('en', `range.${RANGE_KINDS[1]}`, { min: lr.min, max: lr.max }), `above ${lr.min} and at most ${lr.max}`);
  assert.deepEqual(parseHash('#t.lr=0').train, {});
  assert.deepEqual(parseHash('#t.lr=10&m.dropout=1').model, {});
  assert.deepEqual(parseHash('#t.lr=10').train, { lr: 10 });
  for (const o of [model, task]) o.dispose();
});

test('a link holds a few kB at most, however long the texts in the state', () => {
  const huge = 'x'.repeat(10 * 1024 * 1024), korean = '고양이'.repeat(700);
  for (const task of ['text', 'pairs']) {
    const s = { ...defaultState(), task, text: huge, pairs: `${huge} => y`, input: korean, prompt: huge, model: { dModel: 8, pos: 'rope' } };
    const hash = toHash(s);
    assert.ok(hash.length <= 4096, `${task}: a ${hash.length}-character link`);
    const back = parseHash(hash);
    // What fits stays; what does not is left out whole (never cut short).
    assert.deepEqual([back.task, back.model], [task, { dModel: 8, pos: 'rope' }]);
    assert.deepEqual([back.text, back.pairs, back.input, back.prompt], [defaultState().text, defaultState().pairs, '', '']);
  }
  // A text just within the limit, once percent-encoded, is carried.
  const fits = 'a'.repeat(URL_TEXT_LIMIT);
  assert.equal(parseHash(toHash({ ...defaultState(), task: 'text', text: fits })).text, fits);
  assert.notEqual(parseHash(toHash({ ...defaultState(), task: 'text', text: `${fits}a` })).text, `${fits}a`);
});

test('every preset, on every built-in task, gives a model the library accepts', async () => {
  const tp = await load();
  const infos = Object.fromEntries(['qa-toy', 'copy', 'sentiment', 'tagging', 'lm-char', 'translate', 'addition'].map((n) => {
    const task = tp.task(n);
    const info = { kind: task.kind, defaults: task.defaults };
    task.dispose();
    return [n, info];
  }));
  const infoOf = (n) => infos[n] ?? (() => {
    const task = tp.task(n);
    infos[n] = { kind: task.kind, defaults: task.defaults };
    task.dispose();
    return infos[n];
  })();
  for (const taskName of ['qa-toy', 'copy', 'sentiment', 'tagging', 'lm-char', 'addition']) {
    for (const preset of Object.keys(PRESETS)) {
      const state = applyPreset({ ...defaultState(), task: taskName }, preset, infoOf);
      const req = sessionRequest(state);
      const task = tp.task(req.task);
      const model = tp.model({ ...task.defaults, ...req.model });
      const trainer = tp.trainer(model, task, req.training);  // checks model/task compatibility
      trainer.step(1);
      for (const o of [trainer, model, task]) o.dispose();
    }
  }
});

test('the walk-through has the seed article\'s steps in order, with the real numbers of the trace', async () => {
  const tp = await load();
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  const trace = model.trace('how are you', { target: 'i am' });
  const params = { 'tok_emb.weight': model.parameter('tok_emb.weight'), 'enc.0.self_attn.q.weight': model.parameter('enc.0.self_attn.q.weight') };
  const vocab = task.tokenizer().vocabulary();
  for (const lang of ['en', 'ko']) {
    const steps = buildSteps({ trace, params, vocab, t: (k, v) => t(lang, k, v) });
    const ids = steps.map((s) => s.id);
    assert.deepEqual(ids, ['vocab', 'embed', 'pe', 'sum', 'q', 'kv', 'qk', 'scale', 'mask', 'softmax', 'av', 'concat', 'wo', 'add1', 'norm1', 'ffn1', 'ffn2', 'add2',
      'dembed', 'dqk', 'dmask', 'dsoftmax', 'dout', 'cross', 'crossout', 'dffn', 'logits', 'probs']);
    for (const s of steps) {
      assert.ok(s.title && s.text && !s.text.includes('{'), `${lang} ${s.id}: ${s.title} / ${s.text}`);
      // A formula is data (web/ui/mathml.js): a block <math> whose text a reader sees.
      assert.equal(s.math.tag, 'math', s.id);
      assert.equal(s.math.attrs.display, 'block', s.id);
      assert.ok(mathText(s.math).trim().length > 0, s.id);
      assert.ok(s.matrices.length >= 1 && s.shapes.length >= 1, s.id);
    }
    // The numbers are the trace's own: the embedding step shows E[5], E[8], E[9] of the table.
    const emb = steps[1].matrices.at(-1).matrix;
    assert.deepEqual(Array.from(emb.data), Array.from(trace.tensors['enc.embed.tokens'].data));
    const table = params['tok_emb.weight'].data;
    assert.deepEqual(Array.from(emb.data.slice(0, 6)), Array.from(table.slice(5 * 6, 6 * 6)));
    // The causal mask step has −∞ above the diagonal, and softmax turns them into exact zeros.
    const masked = steps.find((s) => s.id === 'dmask').matrices[0].matrix.data;
    const probs = steps.find((s) => s.id === 'dsoftmax').matrices[0].matrix.data;
    assert.equal(masked[1], -Infinity);
    assert.equal(probs[1], 0);
    assert.equal(probs[0], 1);
  }
  for (const o of [trainer, model, task]) o.dispose();
});

test('every widget string exists in English and Korean', () => {
  const dir = path.join(root, 'web', 'widgets');
  const files = [...readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f)), path.join(dir, 'shared', 'session-driver.js')];
  const used = new Set();
  for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/this\.t\(\s*'([a-zA-Z0-9_.-]+)'/g)) used.add(m[1]);
  // Widgets have their own table and the one shared with the playground, never the playground's.
  const missing = [...used].filter((k) => !((k in WIDGET_STRINGS.en && k in WIDGET_STRINGS.ko) || (k in SHARED.en && k in SHARED.ko)));
  assert.deepEqual(missing, []);
  assert.deepEqual(Object.keys(WIDGET_STRINGS.en).filter((k) => !(k in WIDGET_STRINGS.ko)), []);
  assert.deepEqual(Object.keys(WIDGET_STRINGS.ko).filter((k) => !(k in WIDGET_STRINGS.en)), []);
  assert.deepEqual(Object.keys(WIDGET_STRINGS.en).filter((k) => k in SHARED.en), [], 'a widget string is not also a shared one');
});
