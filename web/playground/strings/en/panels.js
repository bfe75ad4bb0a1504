// strings/en/panels.js — the playground's English strings for the panels: outputs, attention, tokens,
// embeddings and RoPE, the walk-through, model files and imports, about.
// One `key = text` a line; {name} is filled in where the string is shown. strings/ko/panels.js
// has the same keys with the same placeholders (wasm_tests/playground_strings.test.mjs).
import { table } from '../table.js';

export default table(`
tokens.lead = The text is split into tokens, and each token becomes an id in the vocabulary. Hover a token to find it in every other view.
tokens.input = Input text (used by the tokens, embeddings and attention views)
tokens.kind = Tokenizer
tokens.model = this model's
tokens.note.model = The model's own {kind} tokenizer ({vocab} tokens).{extra}
tokens.note.cls =  A classifier reads <CLS> first.
tokens.note.char = Characters: the vocabulary is every distinct character of the text.
tokens.note.word = Words and punctuation: short sequences, a big vocabulary, and unknown words become <UNK>.
tokens.note.bpe = Sub-words learned by byte-pair encoding on The Devil's Dictionary (512 tokens). ## marks a piece that continues a word; text it never saw (like Korean) falls back to bytes.
tokens.note.byte = Bytes (ByT5-style): 256 ids cover any text; a Korean syllable is 3 bytes.
tokens.compareKind = tokenizer
tokens.compareCount = tokens
tokens.compareVocab = vocabulary
tokens.compareTokens = pieces
tokens.korean = 한국어 example
tokens.vocabFromText = from this text

emb.title = Embeddings and positions
emb.lead = Each id picks a row of the embedding table (a learned d_model-wide vector); the position adds its own vector; their sum enters the first layer.
emb.leadInside = Each id picks a row of the embedding table (a learned d_model-wide vector), and that row enters the first layer as it is: this model adds no position vector; its positional information, {pos}, acts inside attention.
emb.leadNone = Each id picks a row of the embedding table (a learned d_model-wide vector), and that row enters the first layer as it is: this model has no positional information.
emb.tokens = token embeddings E[id]
emb.positions = position vectors P[pos]
emb.sum = sum: X = E[id] + P[pos]
emb.positionsNone = position vectors: none added ({pos})
emb.sumNone = what enters the first layer: X = E[id]
emb.peTraced = Rows 0–{last} (outlined) are the position vectors this input got, above.
emb.dim = dimension
emb.position = position
emb.peTitle = Positional information
emb.pe.sinusoidal = Sinusoidal positional encoding, positions 0–{n}
emb.pe.learned = Learned position table, positions 0–{n}
emb.pe.rope = RoPE: no position vectors are added
emb.pe.alibi = ALiBi: a distance penalty added to the attention scores (head {h}, slope {slope})
emb.pe.none = No positional information
emb.peNote.sinusoidal = PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(…): fast waves on the left columns, slow waves on the right, so every position gets a distinct pattern.
emb.peNote.learned = The model's learned table (one trainable row per position), read live from the worker.
emb.peNote.rope = RoPE rotates Q and K inside attention instead (see below); V is not rotated.
emb.peNote.alibi = The bias −m·|t−u| is added to Q·Kᵀ/√d_k, so far tokens get less attention; each head has its own slope.
emb.peNote.none = Without positions, attention is blind to order: "the dog bites the man" and "the man bites the dog" look the same.
emb.onehotTitle = One-hot versus dense
emb.onehotNote = A one-hot vector is as long as the vocabulary ({vocab}) with a single 1: all tokens are equally far apart (cosine 0). The learned dense vectors are only d_model = {d} wide, and their cosine similarity can say that two tokens are alike.
emb.onehot = one-hot vectors ({vocab} wide)
emb.onehotUsed = one-hot vectors ({vocab} wide; the {used} columns of the input's ids)
emb.cosine = cosine similarity of the dense embeddings
emb.cosineVocab = cosine similarity of every token's dense embedding (input tokens outlined)
rope.title = RoPE: rotation and relative distance
rope.note.on = The query of the first token (head 0), rotated pair by pair by pos·θᵢ. The score q(m)·k(n) depends only on m − n: the curves for different m lie on top of each other.
rope.note.off = This model does not use RoPE ({pos}); here is what RoPE would do to its first token's query (head 0). Choose positions = RoPE to train with it.
rope.note.odd = RoPE rotates pairs of dimensions, so it needs an even head size; this model's is {dh} (d_model {d} / {h} heads) and cannot use RoPE. Here is what RoPE would do to the first {even} dimensions of its first token's query (head 0).
rope.distance = score vs distance m − n
rope.scores = score(m, n) = rot(q, m) · rot(k, n) / √d_k: constant along each diagonal
rope.plot = rotation of q, pair by pair

attn.compare = Beside it, the kept run
attn.compareGrid = {run} at step {step}
attn.compareNote = The same heads of the kept run "{run}" at step {step} (this run: step {here}).
attn.compareNone = That run has no {kind} attention.
attn.title = Attention
attn.lead = Every head of every layer decides how much each token (row) takes from every other token (column). Rows sum to 1. Hatched cells are masked (−∞ before the softmax, exactly 0 after).
attn.stage = show
attn.layerPick = layer
attn.headPick = head
attn.gridWindow = model view: layers {first}–{last} of {layers} × heads (pick a layer to move the window)
attn.grid = model view: layers × heads
attn.main = layer {layer}, head {head}: {kind}
attn.headView = head view: layer {layer}

attn.note = Input: "{input}"{answer}. Step {step}. Click a thumbnail (or use the arrow keys) to pick a head.
attn.noteAnswer =  → answer "{answer}"
attn.changed = Changed most from step {from} to {to}: {kind}, layer {layer}, head {head} (its rows' weights moved by {tv} of 1 on average).
attn.changedShow = Show it
attn.changedHere = Shown
attn.shortened =  The history keeps its first {tokens} of {of} tokens: a snapshot may take at most {mb} MB.
attn.mask = the mask of this layer, with two <PAD> added
attn.maskNote = {rules}. Hatched = −∞ (never attended).
attn.rule.causal = causal (no looking ahead)
attn.rule.window = sliding window w = {w}
attn.rule.global = {n} global tokens
attn.rule.pad = <PAD> keys ignored
attn.rule.full = full attention

wt.title = Walk-through: one forward pass, step by step
wt.lead = The computation from the embedding to the chosen token, with the real numbers of the model: the seed article's 28 steps for the seed's model ("how are you" → "i am fine", vocabulary 11, d_model = 6, 2 heads); for any other model, the steps its configuration implies, on the task's first sample (an imported model: on your prompt and what it generated), at the layer, head and token you pick, each formula with the focused cells' numbers.
wt.source = Weights
wt.source.fresh = the seed example, freshly initialised (seed {seed})
wt.source.live = the model training here (step {step})
wt.note.fresh = Random weights, like the article: the attention rows are nearly uniform until training.
wt.note.live = The weights of the model in the training worker, read at step {step}.
wt.note.unavailable = The model training here is shown once its set-up is accepted.
wt.note.waiting = The walk-through of this model is recorded from the first snapshot after this panel came into view: take a step or train to see it.
wt.note.prompt = {name} (imported), on the prompt "{text}": generate to walk through the tokens it writes.
wt.note.generated = {name} (imported), on what it generated: "{text}". From position {from} on, each token was generated one at a time, its keys and values of the earlier positions read from the KV cache; pick one under token.
wt.pick = Layer, head and token shown
wt.layerPick = layer
wt.headPick = head
wt.tokenPick = token

out.atStep = At step {step}, after "{input}" the model expects: {guesses}.
out.atStepAnswer = At step {step} the model answers "{input}" with "{answer}"; its first guesses: {guesses}.
out.now = Now (step {step}), after "{input}" the model expects: {guesses}.
out.nowAnswer = Now (step {step}) the model answers "{input}" with "{answer}"; its first guesses: {guesses}.
out.answeredAt = answered by the model as it was at step {step} (the step the timeline shows)
out.answeredNow = answered by the model now (step {step})
out.title = Outputs
out.lead = Generation, one token at a time: each step shows the most likely next tokens. Temperature, top-k and top-p reshape the distribution before a token is drawn; beam search keeps several candidates.
out.prompt = Prompt
out.invalidInt = Not used: a whole number from {min} to {max}.
out.invalidReal = Not used: a number {range}.
out.generate = Generate
out.predict = Predict
out.output = output
out.steps = generated tokens
out.step = step {i}:
out.meta = {n} tokens · {ms} ms per token · KV cache {cache} · stopped: {reason}
out.reason.max_new_tokens = max new tokens
out.reason.max_len = max length
out.kvCompare = Measure the KV cache
out.kvResult = with the KV cache {on} ms/token, without {off} ms/token ({x}× faster); outputs {same}.
out.same = identical
out.differ = different
out.kvTitle = What the KV cache holds
out.kvLead = Each new token needs the keys and values of every position before it. The cache keeps them: per layer one row of K and one of V per position, added as the answer grows, so each is computed once. A windowed layer keeps only its last rows, a ring whose oldest slot the next row overwrites.
out.kvShort = A few tokens cannot show what the cache is worth: measure on a long answer, e.g. the pre-trained character model (Files) with 60 new tokens or more.
out.kvLabel = the KV cache after {n} positions
out.classes = class probabilities
out.tags = tag per token
out.stepBars = step {i}: top candidates
out.previewBars = next token after the prompt, as drawn at temperature {t}, top-k {k}, top-p {p} (bars; the line: the model)
out.predicted = predicted: {label}

files.title = Model file
files.lead = Save the model (weights, configuration and tokenizer) as a safetensors file, or load one saved here, by the command line tool or from PyTorch. The whole set-up also lives in the page address: copy the link to share it.
files.pretrained = Pre-trained models
files.pretrainedHint = Checkpoints shipped with the playground (web/models), trained with the command line tool: load one to see trained attention at once.
files.save = Save model
files.load = Load model…
files.copyLink = Copy link to this set-up
files.saved = Saved {name} ({size} kB).
files.loadedInfo = Loaded {name}: task {task}, {params} parameters.
files.runs = Run files
files.runsHint = A run's whole recorded history (its curves and every snapshot the views show), with the kept runs beside it, in one .tphistory file: a <tp-replay> element replays it in a documentation page without training, and Open run file brings its runs back here as kept runs.
files.saveRun = Save run file
files.openRun = Open run file…
files.runSaved = Saved {name}: {runs} runs, {size} kB.
files.runOpened = Opened {name}: {runs} runs, now among the kept runs (the training chart and the attention comparison show them).
files.runNone = Train first: there is no recorded run to save yet.
files.runNoSetup = {name}: the run "{label}" names no built-in task, so the playground cannot keep it.
import.title = Load a model
import.hint = Your own model: a Hugging Face-style folder of the GPT-2 or Llama family (config.json, model.safetensors, tokenizer.json or vocab.json + merges.txt) or llama2.c's model .bin with tokenizer.bin. Models up to 1 GB of weights (GPT-2 small) load and generate; up to 67 M parameters also fine-tune here on the text under Task.
import.files = Model files…
import.folder = Model folder…
import.url = or its URL
import.urlGo = Load
import.reading = Reading {name}…
import.loading = Loading…
import.loaded = Loaded {name}.
import.summary = {params} parameters ({mb} MB of weights): {layers} layers × {heads} heads, width {d}, {vocab} tokens.
import.trainable = It can be fine-tuned here on your text.
import.notTrainable = Fine-tuning it needs {mb} MB (weights, gradients and Adam state), more than the {limit} MB this page allows; it generates and every view shows it.
import.notTrainableHere = With the training options under Task its fine-tuning does not fit; the training bar says why.
import.left = Back to the built-in models (the imported one was set aside when the task or architecture changed).
files.needText = This model was trained on your own data; paste that data under Task first.

about.title = About and diagnostics
about.lead = The C++ transformer runs as WebAssembly with 128-bit SIMD; this check compares its kernels with the scalar reference in your browser.
about.browsers = Browsers
about.browsersHint = The oldest version of each browser that runs the playground, and the feature that sets it (MDN compatibility data): the last row of each table.
about.browsersCaption = What the playground uses, and since which version each browser has it
about.feature = Feature
about.minimum = Needs at least
about.apiOnly = The JavaScript API alone (web/lib, without the views) runs from Chrome and Edge {chrome}, Firefox {firefox} and Safari {safari}.
about.threadsCaption = Multi-threaded training needs these too, on a cross-origin isolated page (served with COOP and COEP headers, or isolated by the Training panel's button)
about.threadsMinimum = Threads need at least
about.feature.wasmSimd = WebAssembly SIMD (128-bit)
about.feature.moduleWorker = Module workers (training off the page thread)
about.feature.privateMethods = Private class methods
about.feature.finalizationRegistry = FinalizationRegistry (frees forgotten handles)
about.feature.containerQueries = CSS container queries (layout)
about.feature.mathml = MathML (the walk-through formulas)
about.feature.constructableSheets = Constructable stylesheets (adoptedStyleSheets)
about.feature.crossOriginIsolated = Cross-origin isolation (SharedArrayBuffer)
about.feature.wasmThreads = WebAssembly threads and atomics
about.isolation = Isolated by a service worker
about.isolationNote = This page was made cross-origin isolated with a service worker (the "use every core" button), registered for this page and its training workers alone ({scope}), so that training can use every core. Undo it to have the page served as the host sends it again.
about.unisolate = Stop isolating this page (reloads it)
about.colors = Colour maps: dark blue → yellow for values from low to high, blue ← white → orange for signed values; both are perceptually uniform and readable with every common colour-vision deficiency. Roles: Q blue, K vermilion, V green, output purple.
`, 'strings/en/panels.js');
