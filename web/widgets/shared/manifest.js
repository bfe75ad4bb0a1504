// manifest.js — every widget's element, attributes and events, written once. The widgets take
// their observedAttributes from here (attributeNames()); `npm run generate` writes from it the
// custom-elements manifest (custom-elements.json), the TypeScript element types
// (web/lib/transformer-playground-widgets.d.ts, web/widgets/tp-*.d.ts) and the attribute tables
// of docs/WIDGETS.md, and wasm_tests/generated.test.mjs fails when they are stale.
//
// An attribute: { name, type (as the docs write it), default (as the docs write it), doc
// (Markdown), values? (the allowed words, for a choice), observed? (false: read by CSS or once at
// start, so a change needs no re-render) }. An event: { name, detail (its
// TypeScript type), doc }. Every event bubbles and is composed (crosses shadow roots).
import { THEME_VALUES } from '../../ui/scheme.js';
import { SHIPPED_MODELS } from '../../models/models.js';

// The shipped checkpoints' names, as the docs list them (web/models/models.js is the one list).
const SHIPPED = Object.keys(SHIPPED_MODELS).map((name) => `\`${name}\``).join(', ');

// What every widget but <tp-playground> understands (docs/WIDGETS.md, "Common attributes").
// theme: light, dark, or the host page's own dark mode (web/ui/scheme.js, its THEME_VALUES).
const THEME_ATTRIBUTE = { name: 'theme', type: 'string', values: THEME_VALUES, default: '`auto`',
  doc: "`light`, `dark`, or `auto`: follow the page's own dark mode — an ancestor's `data-theme=\"dark\"` or `class=\"dark\"` (Docusaurus, VitePress, Starlight, Tailwind), else the page's CSS `color-scheme`, else the reader's `prefers-color-scheme` — live when the page toggles it ([Theming](#theming))" };

export const COMMON_ATTRIBUTES = Object.freeze([
  { name: 'lang', type: 'string', default: "the page's", doc: '`en` or `ko` (or a regional form such as `ko-KR`), on the element or any ancestor: the labels and explanations follow it' },
  { name: 'frameless', type: 'boolean', default: 'off', doc: 'no border, padding or background around the widget', observed: false },
  THEME_ATTRIBUTE,
]);

// The model and training attributes of the widgets that train (<tp-train>, <tp-attention>
// without a checkpoint). Each names where it goes in a session's configure() — `model` (a config
// key) or `training` (a trainer option) — and its allowed values (`min` … `max`, `values`), from
// which web/widgets/shared/runtime.js reads and checks it and the docs' text below is made; `note`
// adds what the range does not say. `seed` sets both the model's and the training's seed.
const TRAINING = [
  { name: 'seed', type: 'integer', default: '1', min: 0, max: 2147483647, note: 'weights and batch order' },
  { name: 'steps', type: 'integer', training: 'totalSteps', min: 1, max: 100000, note: 'where training stops' },
  { name: 'lr', type: 'number', training: 'lr', min: 0, max: 1, exclusiveMin: true },
  { name: 'batch-size', type: 'integer', training: 'batchSize', min: 1, max: 512 },
  { name: 'warmup', type: 'integer', training: 'warmup', min: 0, max: 100000, note: 'steps' },
  { name: 'schedule', type: 'string', training: 'schedule', values: ['constant', 'cosine', 'noam'] },
  { name: 'weight-decay', type: 'number', training: 'weightDecay', min: 0, max: 0.99 },
  { name: 'clip', type: 'number', training: 'clip', min: 0, max: 1000, note: '0 = no clipping' },
  { name: 'arch', type: 'string', model: 'arch', values: ['encoder-decoder', 'encoder-only', 'decoder-only'], note: 'must suit the task' },
  { name: 'd-model', type: 'integer', model: 'dModel', min: 1, max: 1024, note: 'a multiple of `heads`' },
  { name: 'heads', type: 'integer', model: 'nHeads', min: 1, max: 64 },
  { name: 'kv-heads', type: 'integer', model: 'nKvHeads', default: '= `heads`', min: 1, max: 64, note: 'divides `heads` (GQA; 1 = MQA)' },
  { name: 'layers', type: 'integer', model: 'nLayers', min: 1, max: 12 },
  { name: 'd-ff', type: 'integer', model: 'dFF', min: 1, max: 4096 },
  { name: 'max-len', type: 'integer', model: 'maxLen', min: 2, max: 1024 },
  { name: 'pos', type: 'string', model: 'pos', values: ['learned', 'sinusoidal', 'rope', 'alibi', 'none'] },
  { name: 'norm', type: 'string', model: 'norm', values: ['layer', 'rms'] },
  { name: 'norm-placement', type: 'string', model: 'normPlacement', values: ['pre', 'post'] },
  { name: 'ffn', type: 'string', model: 'ffn', values: ['relu', 'gelu', 'swiglu'] },
  { name: 'window', type: 'integer', model: 'window', default: '0', min: 0, max: 1024, note: 'sliding-window attention width (0 = full)' },
  { name: 'dropout', type: 'number', model: 'dropout', min: 0, max: 0.9 },
];

// "1 … 1024: a multiple of `heads`", "0 < lr ≤ 1", "`pre`, `post`".
function allowed(a) {
  const range = a.values ? a.values.map((v) => `\`${v}\``).join(', ')
    : a.exclusiveMin ? `${a.min} < ${a.name} ≤ ${a.max}` : `${a.min} … ${a.max}`;
  return a.note ? `${range}: ${a.note}` : range;
}

export const TRAINING_ATTRIBUTES = Object.freeze(TRAINING.map((a) => Object.freeze({ default: "the task's", ...a, doc: allowed(a) })));

// The widgets that train (<tp-train>, a live <tp-attention>) can stop where the task is learned:
// the session's stopWhenMet (lib/stop-rule.js).
const STOP_WHEN_MET = Object.freeze({ name: 'stop-when-met', type: 'boolean', default: 'off',
  doc: "pause once where the run has learned its task (its metric the best it can be and the loss of the last steps below 0.02; never a language model's), saying so; Resume trains on to `steps`" });

export const COMMON_EVENTS = Object.freeze([
  { name: 'tp-ready', detail: 'null', doc: 'once, after the first render (`data-ready="true"` is set too)' },
  { name: 'tp-error', detail: '{ message: string }', doc: 'an invalid attribute, a missing file, a configuration the model rejects; the message is shown in the widget and in `data-error`' },
  { name: 'tp-hover', detail: '{ side: string, index: number } | null', doc: 'the token under the pointer in any view' },
]);

export const WIDGETS = Object.freeze([
  {
    tag: 'tp-tokenizer',
    className: 'TpTokenizer',
    summary: 'Text as coloured tokens, each with its id; hover (or focus and use the arrow keys) to see which span of the text a token covers.',
    attributes: [
      { name: 'text', type: 'string', default: '`The dog bites the man.`', doc: 'the text to tokenize' },
      { name: 'kind', type: 'string', default: '`char`', doc: '`char` (one token per character), `word` (words and punctuation), `bpe` (byte-pair encoding), `byte` (UTF-8 bytes)', values: ['char', 'word', 'bpe', 'byte'] },
      { name: 'task', type: 'string', default: '—', doc: "use a built-in task's vocabulary instead of `kind` (e.g. `qa-toy`: the seed's 11 tokens; `lm-bpe`, `translate`, `sentiment`, …)" },
      { name: 'vocab-text', type: 'string', default: 'the `text` itself', doc: "`char` / `word` / `bpe`: the text the vocabulary is learned from (then words outside it become `<UNK>`). Without it, `bpe` uses the 512-token vocabulary learned from *The Devil's Dictionary*" },
      { name: 'vocab-size', type: 'integer', default: '512', doc: '`bpe` with `vocab-text`: the vocabulary size, 262 … 65536' },
      { name: 'lowercase', type: 'boolean', default: 'off', doc: '`word`: fold A–Z to lower case' },
      { name: 'editable', type: 'boolean', default: 'off', doc: 'show a text box; typing updates `text`' },
      { name: 'no-ids', type: 'boolean', default: 'off', doc: 'hide the ids under the tokens' },
      { name: 'compact', type: 'boolean', default: 'off', doc: 'smaller chips' },
      { name: 'no-export', type: 'boolean', default: 'off', doc: 'hide the PNG / SVG export buttons' },
      { name: 'label', type: 'string', default: '—', doc: 'a title above the tokens' },
      ...COMMON_ATTRIBUTES,
    ],
    events: [
      { name: 'tp-tokens', detail: '{ ids: Int32Array, tokens: string[], spans: Int32Array }', doc: 'after every render (the `data-tokens` attribute holds the token count)' },
      ...COMMON_EVENTS,
    ],
  },
  {
    tag: 'tp-positional-encoding',
    className: 'TpPositionalEncoding',
    summary: 'How a transformer knows where each token is: the encoding as a heatmap, a second view of its key property, the formula and a short explanation.',
    attributes: [
      { name: 'kind', type: 'string', default: '`sinusoidal`', doc: "`sinusoidal` (table + waves), `rope` (rotations + score vs distance), `alibi` (bias per head), `learned` (a checkpoint's `pos_emb.weight`), `none` (explanation only)", values: ['sinusoidal', 'rope', 'alibi', 'learned', 'none'] },
      { name: 'd-model', type: 'integer', default: '64 (rope: 16)', doc: '2 … 512. Sinusoidal: the model width; RoPE: the head size (even)' },
      { name: 'length', type: 'integer', default: '48 (rope, alibi: 12)', doc: "1 … 512 positions (ALiBi shows at most 32, RoPE's score matrix at most 32)" },
      { name: 'base', type: 'number', default: '10000', doc: 'the wavelength base of sinusoidal and RoPE' },
      { name: 'heads', type: 'integer', default: '4', doc: 'ALiBi: number of heads, 1 … 16 (each has slope 2^(−8(h+1)/H))' },
      { name: 'model', type: 'name or URL', default: 'the shipped `lm-char` model', doc: '`learned`: a checkpoint with a learned position table: a shipped one by name (`lm-char`) or a URL' },
      { name: 'values', type: 'boolean', default: 'on for tables up to 8 × 8', doc: 'print the numbers in the cells' },
      { name: 'no-text', type: 'boolean', default: 'off', doc: 'hide the formula and the explanation' },
      { name: 'label', type: 'string', default: 'a description', doc: 'the title' },
      ...COMMON_ATTRIBUTES,
    ],
    events: [...COMMON_EVENTS],
  },
  {
    tag: 'tp-attention',
    className: 'TpAttention',
    summary: 'The attention of a real model on a text: a shipped or given checkpoint traced at once, or a model trained on a built-in task in its own Worker, redrawn as it learns.',
    attributes: [
      { name: 'model', type: 'name or URL', default: '—', doc: `a shipped checkpoint by name — ${SHIPPED} (\`web/models/\`, found next to the widget files) — or the URL of a \`.safetensors\` file (relative to the page)` },
      { name: 'task', type: 'string', default: '`qa-toy`', doc: 'without `model`: the built-in task to train on (`qa-toy`, `copy`, `reverse`, `sort`, `addition`, `translate`, `lm-char`, `lm-bpe`, `sentiment`, `tagging`)' },
      { name: 'text', type: 'string', default: "the task's first sample input", doc: 'the input to trace' },
      { name: 'target', type: 'string', default: "the model's own answer", doc: 'sequence tasks: what the decoder is fed after `<SOS>`' },
      { name: 'kind', type: 'string', default: "the model's first", doc: '`encoder` (encoder self-attention), `decoder` (masked self-attention), `cross` (decoder → encoder); which exist depends on the architecture', values: ['encoder', 'decoder', 'cross'] },
      { name: 'layer', type: 'integer', default: '0', doc: '0 … layers − 1' },
      { name: 'head', type: 'integer or `all`', default: '0', doc: '0 … heads − 1; `all` in the lines view' },
      { name: 'view', type: 'string', default: '`grid`', doc: "`grid` (the head's matrix with numbers), `lines` (BertViz-style links, one colour per head), `heads` (every layer × head as thumbnails; click one to select it)", values: ['grid', 'lines', 'heads'] },
      { name: 'stage', type: 'string', default: '`probs`', doc: '`probs` (after softmax), `masked` (scores with −∞), `scaled` (÷ √d_k), `scores` (Q·Kᵀ)', values: ['probs', 'masked', 'scaled', 'scores'] },
      { name: 'values', type: 'boolean', default: 'on for matrices up to 12 × 12', doc: 'numbers in the cells' },
      { name: 'editable', type: 'boolean', default: 'off', doc: 'a text box for `text`' },
      { name: 'no-controls', type: 'boolean', default: 'off', doc: 'hide the view / layer / head controls' },
      { name: 'label', type: 'string', default: 'a description', doc: 'the title' },
      { ...STOP_WHEN_MET, doc: `when training: ${STOP_WHEN_MET.doc}` },
      ...TRAINING_ATTRIBUTES,
      ...COMMON_ATTRIBUTES,
    ],
    events: [
      { name: 'tp-trace', detail: '{ step: number | null }', doc: 'after each new trace is drawn (`step` is `null` for a checkpoint; while training, `data-step` holds the step of the trace shown)' },
      ...COMMON_EVENTS,
    ],
  },
  {
    tag: 'tp-walkthrough',
    className: 'TpWalkthrough',
    summary: "One forward pass, one step at a time, with the real numbers: the seed example (the seed article's 28 steps), or the steps any checkpoint's configuration implies, ours or an imported one.",
    attributes: [
      { name: 'step', type: 'number or id', default: '1', doc: '1 … the number of steps, or a step id: the seed\'s `vocab`, `embed`, `pe`, `sum`, `q`, `kv`, `qk`, `scale`, `mask`, `softmax`, `av`, `concat`, `wo`, `add1`, `norm1`, `ffn1`, `ffn2`, `add2`, `dembed`, `dqk`, `dmask`, `dsoftmax`, `dout`, `cross`, `crossout`, `dffn`, `logits`, `probs`; another model\'s such as `dec.embed`, `dec.0.self.kv`, `dec.1.self.softmax`, `dec.0.ffn.hidden`, `logits`, `probs`' },
      { name: 'seed', type: 'integer', default: '1', doc: "the freshly initialised seed model's seed (without `model`)" },
      { name: 'model', type: 'name or URL', default: '—', doc: `a checkpoint: a shipped one (${SHIPPED}), the URL of a \`.safetensors\` file, or an imported model: the URL of a GPT-2 or Llama folder (ending in \`/\`) or of a llama2.c \`.bin\`` },
      { name: 'text', type: 'string', default: "`how are you`, or the checkpoint's task's first sample", doc: 'the input walked through (required for an imported model)' },
      { name: 'target', type: 'string', default: '`i am` (the seed)', doc: "an encoder-decoder's decoder input after `<SOS>`" },
      { name: 'layer', type: 'integer', default: '0', doc: 'the layer shown (another model than the seed\'s; 0-based, up to its last)' },
      { name: 'head', type: 'integer', default: '0', doc: 'the head shown (0-based)' },
      { name: 'token', type: 'integer', default: 'the last', doc: 'the focused token: its row in numbers, its cells in each formula (0-based)' },
      { name: 'label', type: 'string', default: '—', doc: 'a title' },
      ...COMMON_ATTRIBUTES,
    ],
    events: [
      { name: 'tp-step', detail: '{ index: number, id: string }', doc: 'when the reader moves (keys: ← →)' },
      ...COMMON_EVENTS,
    ],
  },
  {
    tag: 'tp-train',
    className: 'TpTrain',
    summary: "A compact trainer: Train / Pause / Reset, the loss and the task's metric, the loss curve, and the model's answer to a prompt, refreshed while it learns.",
    attributes: [
      { name: 'task', type: 'string', default: '`qa-toy`', doc: 'a built-in task (as for `<tp-attention>`)' },
      { name: 'prompt', type: 'string', default: "the task's first sample input", doc: 'what the model answers (classifiers: the sentence to classify)' },
      { name: 'autoplay', type: 'boolean', default: 'off', doc: 'start training when first on screen instead of waiting for Train' },
      STOP_WHEN_MET,
      { name: 'max-new-tokens', type: 'integer', default: '32 (language models: 80)', doc: '1 … 512' },
      { name: 'height', type: 'integer', default: '170', doc: "the chart's height in px, 80 … 800" },
      { name: 'label', type: 'string', default: "the task's name", doc: 'the title' },
      ...TRAINING_ATTRIBUTES,
      ...COMMON_ATTRIBUTES,
    ],
    events: [
      { name: 'tp-progress', detail: '{ step: number, totalSteps: number, loss: number }', doc: 'at most every ~120 ms while training' },
      { name: 'tp-finished', detail: '{ step: number, loss: number }', doc: 'when training reaches `steps` (`data-step` and `data-state` — `ready`, `training`, `paused`, `diverged` (paused by itself at the step where the run diverged: the status line says what to change), `offscreen`, `finished` — mirror its state)' },
      ...COMMON_EVENTS,
    ],
  },
  {
    tag: 'tp-replay',
    className: 'TpReplay',
    summary: 'A recorded training run replayed from its run file (`.tphistory`): scrub or play through its steps and every view shows what the run recorded there — no Worker, no WebAssembly, no training, the same for every reader.',
    attributes: [
      { name: 'src', type: 'URL', default: '—', doc: 'the run file (relative to the page), saved by the playground ("Save run file") or made by a script ([FORMAT.md](FORMAT.md#run-files-tphistory)); at most 64 MB' },
      { name: 'run', type: 'integer', default: '0', doc: 'which run of a file that holds several (a lesson), 0 … runs − 1; the run menu changes it' },
      { name: 'step', type: 'integer or `last`', default: '`last`', doc: 'the training step shown: the last snapshot recorded at or before it' },
      { name: 'panels', type: 'list', default: "the file's", doc: 'the views to show (comma or space separated): `loss`, `attention`, `tokens`, `outputs`' },
      { name: 'kind', type: 'string', default: "the model's first", doc: '`encoder`, `decoder` or `cross`: which attention (as for `<tp-attention>`)', values: ['encoder', 'decoder', 'cross'] },
      { name: 'layer', type: 'integer', default: '0', doc: '0 … layers − 1' },
      { name: 'head', type: 'integer', default: '0', doc: '0 … heads − 1; clicking a thumbnail selects it' },
      { name: 'label', type: 'string', default: "the run's label", doc: 'the title' },
      ...COMMON_ATTRIBUTES,
    ],
    events: [
      { name: 'tp-step', detail: '{ step: number | null, index: number }', doc: 'after each step is drawn (`data-step` holds the training step shown, `data-index` the snapshot)' },
      ...COMMON_EVENTS,
    ],
  },
  {
    tag: 'tp-playground',
    className: 'TpPlayground',
    summary: 'The whole playground — set-up, training, outputs, attention, tokens, embeddings, the walk-through, model files — in one element.',
    attributes: [
      { name: 'task', type: 'string', default: '`qa-toy`', doc: 'a built-in task, or `text` / `pairs` (your own data, typed in the set-up panel)' },
      { name: 'state', type: 'string', default: '—', doc: "a whole set-up as the playground's URL hash writes it (copy it from the address bar after \"Copy link\", without the `#`)" },
      { name: 'panels', type: 'list', default: 'all', doc: 'show only these (comma or space separated): `header`, `trainbar`, `setup`, `training`, `outputs`, `attention`, `tokens`, `embeddings`, `walkthrough`, `files`, `about`. The training bar stays when a training, outputs or attention panel is shown' },
      { name: 'hide', type: 'list', default: 'none', doc: 'hide these panels' },
      { name: 'lang', type: 'string', default: "the page's", doc: '`en` or `ko`' },
      THEME_ATTRIBUTE,
      { name: 'standalone', type: 'boolean', default: 'off', doc: "the page is the playground: its state is mirrored in the URL hash (links reproduce it) and it sets the document's title and language", observed: false },
    ],
    events: COMMON_EVENTS.filter((e) => e.name === 'tp-error'),
  },
]);

// The attributes a widget observes: every one whose change redraws it.
export function attributeNames(tag) {
  const widget = WIDGETS.find((x) => x.tag === tag);
  if (!widget) throw new Error(`manifest.js: no widget <${tag}>`);
  return widget.attributes.filter((a) => a.observed !== false).map((a) => a.name);
}
