// strings/en/setup.js — the playground's English strings for the page's frame (title, menu, status),
// the training bar and timeline, the kept runs and the set-up column (tasks, options and their
// values, presets).
// One `key = text` a line; {name} is filled in where the string is shown. strings/ko/setup.js
// has the same keys with the same placeholders (wasm_tests/playground_strings.test.mjs).
import { table } from '../table.js';

export default table(`
app.title = Transformer Playground
app.tagline = Train a small transformer in this tab and watch every matrix of it change.
app.share = Copy link
app.shared = Link copied: it reproduces this setup.
app.langButton = 한국어
app.langHint = Switch the page to Korean
app.linkProblems = Parts of this link were not understood and are left out: {list}.
nav.skip = Skip to the panels
nav.sections = Sections
nav.training = Training
nav.tokens = Tokens
nav.embeddings = Embeddings
nav.attention = Attention
nav.walkthrough = Walk-through
nav.outputs = Outputs
nav.files = Model file
nav.about = About

status.loading = loading the WebAssembly module…
status.building = building the model…
status.ready = ready: press Train
status.training = training…
status.paused = paused
status.offscreen = paused while out of view; scroll back to resume
status.finished = finished
status.error = error: {message}
status.failed = stopped: see the message below
status.loaded = model loaded from {name}

train.region = Training controls
train.start = Train
train.pause = Pause
train.step = Step
train.reset = Reset
train.startAria = Train the model
train.pauseAria = Pause training
train.stepAria = Train one step
train.resetAria = Reset the model to its initial weights
train.loss = loss
train.valLoss = val loss
train.metric = metric
train.tokensPerSec = tokens/s
train.lr = learning rate
train.gradNorm = grad norm
train.threads = threads
threads.many = {n} threads: this page is cross-origin isolated, so training uses every core ({cores} here), with the same results as one thread, bit for bit.
threads.failed = 1 thread: the threaded module could not start on this page ({why}).
threads.notIsolated = 1 thread: this page is not cross-origin isolated.
threads.noSharedMemory = 1 thread: this browser has no SharedArrayBuffer.
threads.oneCore = 1 thread: this device reports one core.
threads.isolate = Use every core (reloads the page once)
threads.isolateFailed = This page could not be isolated here ({why}).
train.stepOf = step {step} / {total}
runs.keep = Keep this run
runs.kept = Kept
runs.forget = Forget kept runs
runs.list = Kept runs
runs.forgetOne = Forget the run {name}
runs.open = Set up
runs.openAria = Set up the run {name} again
runs.at = step {step}, loss {loss}
runs.same = run {n}
runs.seed = seed {seed}
runs.data = data {data}
runs.elsewhere = a kept run
runs.notHere = not trained in this browser: set it up and train it
time.label = Training step shown in every view
time.play = Replay the training history
time.stop = Stop the replay
time.speed = Speed
time.every = {n} steps/s: every step drawn
time.pace = {n} steps/s
time.max = as fast as possible
time.now = step {step}: now ({n} recorded)
time.at = step {step} of {last} ({n} recorded)

setup.invalidInt = Not used: a whole number from {min} to {max}. Train waits until it is.
setup.invalidReal = Not used: a number from {min} to {max}. Train waits until it is.
setup.title = Task and architecture
setup.task = Task
setup.yourText = Your text (a language model learns to continue it)
setup.yourPairs = Your pairs, one per line: source => target
setup.pairsHint = A character tokenizer is learned from your pairs; every tenth pair is held out for validation.
setup.tokenizer = Tokenizer
setup.apply = Use this data
setup.dataLimit = Up to {limit} characters. A link carries the data only up to about {link} characters; a longer one stays in this tab.
setup.tooMuch = Your data has {n} characters; the playground trains on at most {limit}. Shorten it (a part of the text is enough to learn from); the data in use is unchanged.
setup.presets = Presets
setup.architecture = Architecture
setup.training = Training
setup.resetAll = reset all
setup.reset = Reset {name} to its default
setup.default = default: {value}
setup.seed = seed
setup.summary = {arch} · {params} parameters · vocabulary {vocab} · d_k = {dk}
setup.fixed = vocabulary {vocab}{classes} (set by the task)
setup.classes =  · {n} classes
setup.notFor = not for this task: {why}
setup.needsSeq = a sequence task needs a decoder
setup.needsEnc = classification and tagging need an encoder-only model
setup.needsNoEncDec = a language model has one text, no source
setup.ropeOdd = RoPE needs an even head size; d_model / heads = {dh}

taskdesc.qa-toy = The exact model of the seed article: vocabulary of 11, d_model = 6, 2 heads, sinusoidal positions, post-norm, ReLU. It memorises two answers in a few hundred steps.
taskdesc.copy = Encoder-decoder; the decoder learns to copy the source through cross-attention (watch the diagonal appear).
taskdesc.reverse = Encoder-decoder; cross-attention learns the anti-diagonal.
taskdesc.sort = Encoder-decoder; harder: each output symbol must find the next smallest input.
taskdesc.addition = Multi-digit sums such as 123+45 → 168, character by character.
taskdesc.translate = 328 English → Korean phrase pairs written for the product, characters.
taskdesc.lm-char = Decoder-only next-character prediction on a public-domain text.
taskdesc.lm-bpe = Decoder-only next-token prediction with a 512-token BPE vocabulary.
taskdesc.sentiment = Encoder-only classifier pooled over the tokens (mean pooling).
taskdesc.tagging = Encoder-only: one tag (O, PER, LOC, TIME) for every token.
taskdesc.text = A decoder-only language model over the text you paste.
taskdesc.pairs = An encoder-decoder over the (source, target) pairs you paste.

preset.seed = The seed's example
preset.gpt = GPT-like
preset.bert = BERT-like
preset.t5 = Encoder-decoder with ALiBi
preset.modern = Modern: pre-RMSNorm + RoPE + GQA + SwiGLU
preset.seed.hint = encoder-decoder, d_model 6, post-LayerNorm, ReLU
preset.gpt.hint = decoder-only, learned positions, pre-LayerNorm, GELU, tied embeddings
preset.bert.hint = encoder-only, learned positions, post-LayerNorm, GELU
preset.t5.hint = T5's layout (encoder-decoder, pre-RMSNorm, ReLU, no biases) with ALiBi's distance penalty in place of T5's bucketed relative bias
preset.modern.hint = RoPE, RMSNorm before each sublayer, grouped K/V heads, SwiGLU

field.arch = architecture
field.dModel = model width
field.nHeads = heads
field.nKvHeads = K/V heads
field.nLayers = layers
field.dFF = feed-forward width
field.maxLen = max length
field.pos = positions
field.norm = norm
field.normPlacement = norm placement
field.ffn = feed-forward
field.window = sliding window
field.globalTokens = global tokens
field.layerPattern = local/global layers
field.dropout = dropout
field.tieEmbeddings = tie embeddings
field.bias = biases
field.head = output head
field.lr = learning rate
field.batchSize = batch size
field.totalSteps = steps
field.warmup = warm-up steps
field.schedule = schedule
field.labelSmoothing = label smoothing
field.weightDecay = weight decay
field.clip = gradient clip
field.seqLen = window (text tasks)
field.temperature = temperature
field.beam = beam width
field.maxNewTokens = max new tokens
field.kvCache = KV cache
value.encoder-decoder = encoder-decoder
value.encoder-only = encoder-only
value.decoder-only = decoder-only
value.sinusoidal = sinusoidal
value.learned = learned
value.alibi = ALiBi (relative bias)
value.none = none
value.lm = language model
value.mlm = masked tokens
value.cls = class from <CLS>
value.mean = class from mean
value.token = tag per token
value.constant = constant
value.cosine = warm-up + cosine
value.char = character
value.word = word
value.bpe = sub-word (BPE)
value.byte = byte
value.gpt2 = GPT-2 byte-level BPE
value.true = on
value.false = off

training.lead = Cross-entropy loss on the training batches (every step) and on the held-out examples (dots). Training runs in a Web Worker, so the page stays responsive.
training.train = train
training.smoothed = train (smoothed)
training.val = validation
training.step = step
training.metricTitle = {metric} on the validation set
training.note = {task}: {steps} steps, batch {batch}, learning rate {lr} ({schedule}).
training.diverged = Training diverged at step {step}: the loss became infinite or rose far above a uniform guess over the outputs. Lower the learning rate (now {lr}) or add warm-up steps (now {warmup}), then reset.
`, 'strings/en/setup.js');
