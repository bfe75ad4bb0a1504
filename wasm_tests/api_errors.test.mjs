// node:test — bad input through the public API. Every case must throw a real JS Error whose
// message names the problem (the offending key or value, and what is allowed), and afterwards
// the module must still work: a trained model still answers and a new model can be created,
// trained, saved and loaded (helpers.mjs assertModuleWorks). Nothing a user types may break the
// page, so this is the error boundary of the bindings (src/bindings/guard.h) tested end to end.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { trainedToy, assertModuleWorks } from './helpers.mjs';
import { Model, Tokenizer } from '../web/lib/transformer-playground.js';

let tp, toy, toyTask, tok, checkpoint, encoderOnly, untrained, spare, lmTask, lmModel;

before(async () => {
  ({ tp, model: toy, task: toyTask } = await trainedToy());
  tok = toyTask.tokenizer();
  checkpoint = toy.save();
  const sentiment = tp.task('sentiment');
  encoderOnly = tp.model({ ...sentiment.defaults, seed: 1 });
  tp.trainer(encoderOnly, sentiment).dispose();
  sentiment.dispose();
  untrained = tp.model({ ...toyTask.defaults, seed: 2 });  // never trained, so it has no tokenizer
  spare = tp.model({ ...toyTask.defaults, seed: 3 });      // for trainers that must be created
  lmTask = tp.task('lm-char');
  lmModel = tp.model({ ...lmTask.defaults, seed: 1 });
});

const qa = () => toyTask.defaults;

// A safetensors file with this JSON header and no data.
function safetensors(header) {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const bytes = new Uint8Array(8 + json.length);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
  bytes.set(json, 8);
  return bytes;
}

// The checkpoint with `from` replaced by `to` (same length) in its JSON header.
function patched(from, to) {
  assert.equal(from.length, to.length);
  const text = new TextDecoder('latin1').decode(checkpoint);
  const at = text.indexOf(from);
  assert.ok(at > 0, `${from} is in the header`);
  const bytes = checkpoint.slice();
  bytes.set(new TextEncoder().encode(to), at);
  return bytes;
}

// The checkpoint with its last weight (of lm_head.weight) set to NaN.
function withNaN() {
  const bytes = checkpoint.slice();
  bytes.set([0x00, 0x00, 0xc0, 0x7f], bytes.length - 4);
  return bytes;
}

// An ArrayBuffer (and a view of it) whose bytes were transferred away.
function detached() {
  const buffer = checkpoint.slice().buffer;
  const view = new Uint8Array(buffer);
  structuredClone(buffer, { transfer: [buffer] });
  return { buffer, view };
}

// A sparse array that claims the longest length an array can have.
function hugeSparse() {
  const ids = [];
  ids.length = 2 ** 32 - 1;
  return ids;
}

function disposed(make) {
  const object = make();
  object.dispose();
  return object;
}

// [what is wrong, the call, what the message must say]
const CASES = [
  // model configs
  ['unknown config key', () => tp.model({ ...qa(), dmodel: 6 }),
    /unknown model config key 'dmodel'; allowed: arch, vocabSize, dModel, nHeads, nKvHeads, nLayers, dFF, maxLen, pos, ropePairs, ropeTheta, norm/],
  ['config size of the wrong type', () => tp.model({ ...qa(), dModel: 'six' }), /'dModel' must be an integer, got a string/],
  ['config choice of the wrong type', () => tp.model({ ...qa(), arch: 5 }), /'arch' must be a string, got a number/],
  ['arch outside its choices', () => tp.model({ ...qa(), arch: 'rnn' }), /'arch' is 'rnn'; allowed: decoder-only, encoder-only, encoder-decoder/],
  ['pos outside its choices', () => tp.model({ ...qa(), pos: 'rotary' }), /'pos' is 'rotary'; allowed: .*rope/],
  ['ffn outside its choices', () => tp.model({ ...qa(), ffn: 'tanh' }), /'ffn' is 'tanh'; allowed: .*swiglu/],
  ['negative size', () => tp.model({ ...qa(), dModel: -6 }), /dModel = -6 is out of range; allowed: 1 \.\. 4096/],
  ['fractional layer count', () => tp.model({ ...qa(), nLayers: 1.5 }), /'nLayers' must be an integer, got 1\.5/],
  ['heads that do not divide dModel', () => tp.model({ ...qa(), nHeads: 4 }), /dModel = 6 is not divisible by nHeads = 4/],
  ['kv heads above heads', () => tp.model({ ...qa(), nKvHeads: 3 }), /nKvHeads = 3 is out of range; allowed: 1 \.\. nHeads \(2\)/],
  ['vocabulary too small for the specials', () => tp.model({ vocabSize: 3 }), /vocabSize = 3 is out of range; allowed: 4 \.\. 1000000/],
  ['window longer than maxLen', () => tp.model({ ...qa(), window: 9 }), /window = 9 is out of range; allowed: 0 \(full attention\) \.\. maxLen \(8\)/],
  ['bad layer pattern', () => tp.model({ ...qa(), window: 2, layerPattern: 'LXG' }), /layerPattern 'LXG' may only contain 'L'.*'G'/],
  ['dropout of 1.5', () => tp.model({ ...qa(), dropout: 1.5 }), /dropout = 1\.5 is out of range; allowed: 0 <= dropout < 1/],
  ['an encoder-only head on an encoder-decoder', () => tp.model({ ...qa(), head: 'cls' }), /head = cls is only for encoder-only models/],
  ['an infinite value', () => tp.model({ ...qa(), normEps: Infinity }), /'normEps' must be a finite number.*got the number Infinity/],
  ['an array value', () => tp.model({ ...qa(), dModel: [6] }), /'dModel' must be a finite number.*got an array/],
  ['a negative seed', () => tp.model({ ...qa(), seed: -1 }), /'seed' must be a whole number >= 0, got the number -1/],
  ['no config object', () => tp.model(null), /model\(config\): config must be a plain object \(\{ dModel: 64, … \}\), got null/],
  ['a model too large for the page', () => tp.model({ vocabSize: 1000000, dModel: 4096 }),
    /8330756608 parameters.*the limit is 1024 MB; make dModel, dFF, nLayers or vocabSize smaller/],
  ['a Map as the config', () => tp.model(new Map([['dModel', 8]])), /model\(config\): config must be a plain object \(\{ dModel: 64, … \}\), got a Map/],
  ['a config that only inherits its keys', () => tp.model(Object.create({ ...qa(), dModel: 8 })), /model\(config\): config must be a plain object/],
  ['a class instance as generate options', () => toy.generate('how', new (class GenerateSettings { constructor() { this.topK = 1; } })()),
    /generate option must be a plain object \(\{ key: value, … \}\), got a GenerateSettings/],

  // tokenizers
  ['unknown tokenizer kind', () => tp.tokenizer({ kind: 'wordpiece', text: 'abc' }), /unknown tokenizer kind 'wordpiece'; expected one of: char, word, bpe, byte/],
  ['unknown tokenizer key', () => tp.tokenizer({ kind: 'char', text: 'abc', size: 3 }), /unknown tokenizer option key 'size'; allowed: kind, vocabSize, lowercase/],
  ['negative tokenizer vocabSize', () => tp.tokenizer({ kind: 'char', vocabSize: -5, text: 'abc' }), /vocabSize must be >= 0 .*got -5/],
  ['bpe vocabSize below the bytes', () => tp.tokenizer({ kind: 'bpe', vocabSize: 10, text: 'abc' }), /bpe tokenizer vocabSize must be in 262\.\.65536 .*got 10/],
  ['tokenizer text of the wrong type', () => tp.tokenizer({ kind: 'char', text: 5 }), /tokenizer option 'text' must be a string, got the number 5/],
  ['tokenizer options not an object', () => tp.tokenizer('char'), /tokenizer\(options\) needs a plain object .*got the string 'char'/],
  ['encode of a number', () => tok.encode(5), /encode\(text\): text must be a string, got the number 5/],
  ['encode of a word outside a vocabulary without <UNK>', () => tok.encode('how are things'),
    /word "things" at byte offset 8 is not in the vocabulary and this tokenizer has no <UNK> token/],
  ['decode of an id out of range', () => tok.decode([6, 99]), /token id 99 is out of range; this tokenizer has 11 tokens \(ids 0\.\.10\)/],
  ['decode of a negative id', () => tok.decode([-1]), /ids\[0\] = -1 is not a token id \(a whole number >= 0\)/],
  ['decode of a fractional id', () => tok.decode([3, 1.5]), /ids\[1\] = 1\.5 is not a token id/],
  ['decode of a string', () => tok.decode('i am fine'), /decode\(ids\): ids must be an array, Int32Array or Uint32Array of token ids, got the string 'i am fine'/],
  ['decode of a Float32Array', () => tok.decode(new Float32Array([1])), /decode\(ids\): ids must be .* got a Float32Array/],
  ['vocabulary of a negative count', () => tok.vocabulary(-1), /vocabulary\(limit\): limit must be a whole number >= 0, got the number -1/],
  ['vocabulary of 2**31', () => tok.vocabulary(2 ** 31), /vocabulary\(limit\): limit must be a whole number >= 0, got the number 2147483648/],
  ['decode of a huge sparse array', () => tok.decode(hugeSparse()), /decode\(ids\): ids\[0\] is not a number, got undefined/],
  ['decode of an id of 2**32', () => tok.decode([6, 2 ** 32]), /decode\(ids\): ids\[1\] = 4294967296 is not a token id \(at most 2147483647\)/],
  ['decode of a Proxy around an Int32Array', () => tok.decode(new Proxy(new Int32Array([6]), {})), /decode\(ids\): ids must be an array, Int32Array or Uint32Array of token ids, got an Int32Array look-alike \(a Proxy or an object made from its prototype, not the array itself\)/],
  ['a Tokenizer method called on a Model', () => Tokenizer.prototype.encode.call(toy, 'how'),
    /Tokenizer\.encode\(\) must be called on a Tokenizer from tp\.tokenizer\(\) or task\.tokenizer\(\), got a Model/],

  // tasks
  ['unknown task name', () => tp.task('nope'), /there is no task named 'nope'; built-in tasks: qa-toy, copy, reverse, sort/],
  ['task spec of the wrong type', () => tp.task(42), /task\(spec\): spec must be a task name or \{ pairs \} or \{ text \}, got the number 42/],
  ['task object without data', () => tp.task({}), /an object spec needs 'pairs' or 'text'/],
  ['pairs that are not an array', () => tp.task({ pairs: 'a,b' }), /pairs must be an array of \[source, target\] string pairs/],
  ['a pair with one string', () => tp.task({ pairs: [['a', 'b'], ['c']] }), /pairs\[1\] must be a \[source, target\] pair of strings/],
  ['no pairs', () => tp.task({ pairs: [] }), /no pairs given; a pairs task needs at least one/],
  ['an extra key beside pairs', () => tp.task({ pairs: [['a', 'b']], foo: 1 }), /task\(\{ pairs \}\) takes only 'pairs', got pairs, foo/],
  ['a text too short to learn from', () => tp.task({ text: 'abc' }), /the text has 3 bytes; a language model needs at least 16/],
  ['a text task with an unknown tokenizer', () => tp.task({ text: 'abcdefgh'.repeat(4), tokenizer: 'unigram' }), /unknown tokenizer kind 'unigram'/],
  ['a text task that would learn an imported kind', () => tp.task({ text: 'abcdefgh'.repeat(4), tokenizer: 'sentencepiece' }),
    /a sentencepiece tokenizer comes with an imported model's files and is not learned from text; import the model/],
  ['a negative example index', () => toyTask.example(-1), /example\(index\): index must be a whole number >= 0, got the number -1/],
  ['an example index of 2**32', () => toyTask.example(2 ** 32), /example\(index\): index must be a whole number >= 0, got the number 4294967296/],
  ['a sparse pairs array', () => tp.task({ pairs: (() => { const p = [['a', 'b']]; p.length = 2 ** 31; return p; })() }), /pairs\[1\] must be a \[source, target\] pair of strings/],

  // trainers
  ['unknown training option', () => tp.trainer(untrained, toyTask, { learningRate: 0.1 }),
    /unknown training option key 'learningRate'; allowed: lr, batchSize, warmup, schedule, totalSteps/],
  ['negative learning rate', () => tp.trainer(untrained, toyTask, { lr: -1 }), /lr = -1 is out of range; allowed: 0 < lr <= 10/],
  ['zero batch size', () => tp.trainer(untrained, toyTask, { batchSize: 0 }), /batchSize = 0 is out of range; allowed: 1 \.\. 4096/],
  ['unknown schedule', () => tp.trainer(untrained, toyTask, { schedule: 'linear' }), /schedule 'linear' is unknown; allowed: constant, cosine, noam/],
  ['zero totalSteps', () => tp.trainer(untrained, toyTask, { totalSteps: 0 }), /totalSteps = 0 is out of range/],
  ['a model whose vocabulary does not fit the task', () => tp.trainer(tp.model({ ...qa(), vocabSize: 5 }), toyTask),
    /task 'qa-toy' uses a vocabulary of 11 tokens, but the model has vocabSize = 5; set vocabSize to 11/],
  ['an encoder-only model for a seq2seq task', () => tp.trainer(tp.model({ ...qa(), arch: 'encoder-only', head: 'mlm' }), toyTask),
    /task 'qa-toy' maps a source to a target sequence; it needs an encoder-decoder or decoder-only model/],
  ['a trainer without a Model', () => tp.trainer({}, toyTask), /trainer\(model, task\): model must be a Model from tp\.model\(\)/],
  ['a trainer without a Task', () => tp.trainer(untrained, 'qa-toy'), /trainer\(model, task\): task must be a Task from tp\.task\(\)/],
  ['step(0)', () => tp.trainer(spare, toyTask).step(0), /step\(n\): n must be a whole number >= 1, got the number 0/],
  ['step of a string', () => tp.trainer(spare, toyTask).step('5'), /step\(n\): n must be a whole number >= 1, got the string '5'/],
  ['step of too many', () => tp.trainer(spare, toyTask).step(200000), /step\(n\) needs 1 <= n <= 100000, got 200000/],
  ['step of 2**32 + 1 (which wrapped to 1)', () => tp.trainer(spare, toyTask).step(2 ** 32 + 1), /step\(n\) needs 1 <= n <= 100000, got 4294967297/],
  ['setTotalSteps of 2**32 + 5', () => tp.trainer(spare, toyTask).setTotalSteps(2 ** 32 + 5),
    /training option 'totalSteps' = 4294967301 is out of range; allowed: 1 \.\. 100000000/],
  ['a batch whose activations do not fit', () => tp.trainer(lmModel, lmTask, { batchSize: 4096 }),
    /batchSize × length × dModel = 4096 × 64 × 128 is out of range for training: a step needs about \d+ MB of activations.*the limit is 1024 MB in all .*make batchSize, seqLen or dModel smaller/],
  ['a trainer given a Proxy of a model', () => tp.trainer(new Proxy(spare, {}), toyTask), /trainer\(model, task\): model must be a Model from tp\.model\(\) or tp\.loadModel\(\), got a Model/],
  ['a Trainer method with no object', () => { const { step } = tp.trainer(spare, toyTask); return step(1); },
    /Trainer\.step\(\) must be called on a Trainer from tp\.trainer\(\), got undefined \(the method was called without its object/],

  // generation, trace, predict, parameters
  ['prompt id out of range', () => toy.generate([5, 100]), /prompt token id 100 is out of range; allowed: 0 \.\. 10/],
  ['negative prompt id', () => toy.generate([-3]), /prompt\[0\] = -3 is not a token id/],
  ['prompt of the wrong type', () => toy.generate({ text: 'how' }), /generate\(prompt\): prompt must be a string, or an array, Int32Array or Uint32Array of token ids, got an object/],
  ['empty prompt', () => toy.generate(''), /needs a non-empty source to generate from/],
  ['prompt longer than maxLen', () => toy.generate('how are you how are you how are you'), /the prompt has 9 tokens; this model's maxLen is 8/],
  ['unknown generate option', () => toy.generate('how', { maxTokens: 3 }), /unknown generate option key 'maxTokens'; allowed: maxNewTokens, temperature, topK, topP, beam/],
  ['generate option of the wrong type', () => toy.generate('how', { kvCache: 'yes' }), /generation option 'kvCache' must be a boolean, got a string/],
  ['maxNewTokens of 0', () => toy.generate('how', { maxNewTokens: 0 }), /maxNewTokens = 0 is out of range; allowed: 1 \.\. 4096/],
  ['negative temperature', () => toy.generate('how', { temperature: -1 }), /temperature = -1 is out of range; allowed: 0 \(greedy\) \.\. 100/],
  ['topP above 1', () => toy.generate('how', { topP: 2 }), /topP = 2 is out of range; allowed: 0 < topP <= 1/],
  ['negative topK', () => toy.generate('how', { topK: -2 }), /topK = -2 must be >= 0/],
  ['topK of 2**31 (which wrapped negative)', () => toy.generate('how', { topK: 2 ** 31 }), /generation option 'topK' = 2147483648 is out of range; allowed: 0 \.\. 2147483647/],
  ['a prompt id of 2**31', () => toy.generate([5, 2 ** 31]), /generate\(prompt\): prompt\[1\] = 2147483648 is not a token id \(at most 2147483647\)/],
  ['a Model method called on a Tokenizer', () => Model.prototype.generate.call(tok, 'how'),
    /Model\.generate\(\) must be called on a Model from tp\.model\(\) or tp\.loadModel\(\), got a Tokenizer/],
  ['a Model method through a Proxy (reactive state)', () => new Proxy(toy, {}).generate('how'),
    /Model\.generate\(\) must be called on a Model .*got a Model that is a Proxy, a copy or a subclass object rather than the object itself .*markRaw/],
  ['a Model getter on an object made from its prototype', () => Object.create(toy).config, /Model\.config\(\) must be called on a Model .*that is a Proxy, a copy or a subclass object/],
  ['beam of 0', () => toy.generate('how', { beam: 0 }), /beam = 0 is out of range; allowed: 1 \(no beam search\) \.\. 64/],
  ['topKProbs above 100', () => toy.generate('how', { topKProbs: 1000 }), /topKProbs = 1000 is out of range; allowed: 0 \.\. 100/],
  ['text for a model without a tokenizer', () => untrained.generate('how are you'), /this model has no tokenizer yet: train it on a task .*or pass token ids/],
  ['generate on an encoder-only model', () => encoderOnly.generate('so cute'), /generate\(\) needs a model with a decoder; this model is encoder-only: use predict\(\)/],
  ['predict on an encoder-decoder model', () => toy.predict('how are you'), /predict\(\) is for encoder-only models; this model is encoder-decoder: use generate\(\)/],
  ['predict of an input longer than maxLen', () => encoderOnly.predict('so '.repeat(40)), /the input has 41 tokens; this model's maxLen is 32/],
  ['trace of empty text', () => toy.trace(''), /the input gives no tokens; type some text/],
  ['trace of an input longer than maxLen', () => toy.trace('how are you how are you how are you'), /the input has 9 tokens; this model's maxLen is 8/],
  ['trace target longer than maxLen', () => toy.trace('how', { target: 'i am fine i am fine i am' }), /the target has 8 tokens; with <SOS> the decoder input must fit this model's maxLen of 8/],
  ['trace target of the wrong type', () => toy.trace('how', { target: 5 }), /trace\(input, \{ target \}\): target must be a string, got the number 5/],
  ['padTo of 2**31 (which wrapped and padded nothing)', () => toy.trace('how are you', { padTo: 2 ** 31 }),
    /padTo = 2147483648 must be between the input's length \(3\) and this model's maxLen \(8\)/],
  ['padTo of 2**32 + 3', () => toy.trace('how are you', { padTo: 2 ** 32 + 3 }), /padTo = 4294967299 must be between the input's length/],
  ['trace options that are a Map', () => toy.trace('how', new Map([['padTo', 4]])), /trace\(input, options\): options must be a plain object, got a Map/],
  ['positionalTable maxLen of 2**32 + 2', () => tp.positionalTable({ kind: 'sinusoidal', maxLen: 2 ** 32 + 2, dim: 4 }), /maxLen = 4294967298 is out of range; allowed: 1 \.\. 4096/],
  ['positionalTable dim of 2**32', () => tp.positionalTable({ kind: 'sinusoidal', maxLen: 8, dim: 2 ** 32 }), /dim = 4294967296 is out of range; allowed: 1 \.\. 4096/],
  ['positionalTable heads of 2**31 + 1', () => tp.positionalTable({ kind: 'alibi', maxLen: 8, heads: 2 ** 31 + 1 }), /heads = 2147483649 is out of range; allowed: 1 \.\. 64/],
  ['positionalTable kind inherited from Object.prototype', () => tp.positionalTable({ kind: 'constructor', maxLen: 8, dim: 4 }), /kind must be sinusoidal, rope, alibi, got the string 'constructor'/],
  ['unknown parameter name', () => toy.parameter('nope'), /this model has no parameter named 'nope'/],

  // checkpoints
  ['garbage checkpoint bytes', () => tp.loadModel(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])),
    /safetensors: the header length is \d+ bytes, above the limit .* the file is corrupt or not safetensors/],
  ['an empty checkpoint', () => tp.loadModel(new Uint8Array(0)), /the file is 0 bytes, shorter than the 8-byte header length/],
  ['a truncated checkpoint', () => tp.loadModel(checkpoint.slice(0, checkpoint.length - 4)), /tensor 'lm_head\.weight' has data_offsets .* past the end .* may be truncated/],
  ['a checkpoint cut inside its header', () => tp.loadModel(checkpoint.slice(0, 200)), /safetensors: the header length is \d+ bytes, past the end of the file/],
  ['a safetensors file from another program', () => tp.loadModel(safetensors({ __metadata__: { format: 'other' } })),
    /checkpoint: metadata 'format' is "other"; expected "transformer-playground"/],
  ['a checkpoint without its config', () => tp.loadModel(safetensors({ __metadata__: { format: 'transformer-playground', format_version: '1' } })),
    /checkpoint: metadata key 'config' is missing/],
  ['a checkpoint whose config disagrees with its tensors', () => tp.loadModel(patched('d_model\\":6', 'd_model\\":8')),
    /tensor 'tok_emb\.weight' has shape \[11, 6\] but the config needs \[11, 8\]/],
  ['a checkpoint with a broken config', () => tp.loadModel(patched('d_model\\":6', 'd_model\\":x')), /metadata 'config' is invalid JSON/],
  ['a path instead of bytes', () => tp.loadModel('model.safetensors'), /loadModel\(bytes\): bytes must be a Uint8Array or ArrayBuffer, got the string 'model\.safetensors'/],
  ['an Int8Array instead of bytes', () => tp.loadModel(new Int8Array(16)), /got an Int8Array/],
  ['a detached ArrayBuffer', () => tp.loadModel(detached().buffer),
    /loadModel\(bytes\): bytes is detached, so it holds no bytes: its ArrayBuffer was transferred .*transfer a copy \(bytes\.slice\(\)\)/],
  ['a view of a detached ArrayBuffer', () => tp.loadModel(detached().view), /loadModel\(bytes\): bytes is detached/],
  ['a Proxy around the bytes', () => tp.loadModel(new Proxy(checkpoint, {})), /loadModel\(bytes\): bytes must be a Uint8Array or ArrayBuffer, got a Uint8Array look-alike \(a Proxy/],
  ['a checkpoint with a NaN weight', () => tp.loadModel(withNaN()),
    /checkpoint: tensor 'lm_head\.weight' holds 1 value that is not finite \(at index \d+: NaN\); such a model gives NaN for every output .*set allowNonFinite/],
  ['an unknown loadModel option', () => tp.loadModel(checkpoint, { allowNaN: true }), /unknown loadModel option key 'allowNaN'; allowed: allowNonFinite/],
  ['loadModel options of the wrong type', () => tp.loadModel(checkpoint, { allowNonFinite: 'yes' }), /loadModel option 'allowNonFinite' must be a boolean, got a string/],
  // a Symbol key is no option (Object.keys skips it; it is refused, not ignored)
  ['a Symbol key in a model config', () => tp.model({ ...qa(), [Symbol('dModel')]: 8 }),
    /^model config key Symbol\(dModel\) is a Symbol, not a string; the keys allowed are arch, vocabSize, .*, seed$/],
  ['a Symbol key in training options', () => tp.trainer(untrained, toyTask, { [Symbol.for('lr')]: 0.1 }),
    /^training option key Symbol\(lr\) is a Symbol, not a string; the keys allowed are lr, batchSize, /],
  ['a Symbol key in generate options', () => toy.generate('how', { [Symbol('topK')]: 2 }), /^generate option key Symbol\(topK\) is a Symbol/],
  ['a Symbol key in loadModel options', () => tp.loadModel(checkpoint, { [Symbol('allowNonFinite')]: true }),
    /^loadModel option key Symbol\(allowNonFinite\) is a Symbol, not a string; the keys allowed are allowNonFinite$/],
  ['a Symbol key in trace options', () => toy.trace('how', { [Symbol('padTo')]: 4 }), /^trace option key Symbol\(padTo\) is a Symbol, not a string; the keys allowed are target, padTo$/],
  ['a Symbol key in a task spec', () => tp.task({ text: 'abc', [Symbol('tokenizer')]: 'word' }), /^task key Symbol\(tokenizer\) is a Symbol, not a string; the keys allowed are pairs, text, tokenizer$/],
  ['a Symbol key in tokenizer options', () => tp.tokenizer({ kind: 'char', text: 'ab', [Symbol('lowercase')]: true }), /^tokenizer option key Symbol\(lowercase\) is a Symbol/],
  ['a Symbol key in positionalTable options', () => tp.positionalTable({ kind: 'rope', maxLen: 4, dim: 4, [Symbol('base')]: 10 }),
    /^positionalTable key Symbol\(base\) is a Symbol, not a string; the keys allowed are kind, maxLen, dim, base$/],
  ['a checkpoint naming an unknown task', () => tp.loadModel(patched('"task":"qa-toy"', '"task":"qa-tox"')),
    /checkpoint: metadata 'task' is not a task this version knows: there is no task named 'qa-tox'/],

  // disposed objects
  ['a disposed model', () => disposed(() => tp.model({ ...qa() })).generate([5]), /this Model has been disposed; create a new one/],
  ['a disposed model\'s config', () => disposed(() => tp.loadModel(checkpoint)).config, /this Model has been disposed/],
  ['a disposed tokenizer', () => disposed(() => toyTask.tokenizer()).encode('how'), /this Tokenizer has been disposed/],
  ['a disposed task given to a trainer', () => tp.trainer(untrained, disposed(() => tp.task('qa-toy'))), /this Task has been disposed/],
  ['a disposed trainer', () => disposed(() => tp.trainer(spare, toyTask)).step(1), /this Trainer has been disposed/],
];

test('at least 20 kinds of bad input are covered', () => {
  assert.ok(CASES.length >= 20, `${CASES.length} cases`);
  assert.equal(new Set(CASES.map(([name]) => name)).size, CASES.length, 'case names are unique');
});

for (const [name, call, message] of CASES) {
  test(`bad input: ${name}`, () => {
    assert.throws(call, (error) => {
      assert.ok(error instanceof Error, `an Error, not ${Object.prototype.toString.call(error)}`);
      assert.match(error.message, message);
      return true;
    });
    assertModuleWorks(tp, toy);
  });
}

test('many errors in a row leave no error behind for the next call', () => {
  for (const [name, call] of CASES) assert.throws(call, Error, name);
  assert.equal(untrained.info.tokenizer, null, 'no rejected trainer attached a task');
  assert.equal(tok.decode([6, 3, 4]), 'i am fine');
  assert.equal(tp.heapStats().allocated > 0, true);
  assertModuleWorks(tp, toy);
});

test('a rejected trainer leaves its model as it was', () => {
  const model = tp.model({ ...qa(), seed: 3 });
  const before = model.parameter('lm_head.weight');
  assert.throws(() => tp.trainer(model, toyTask, { lr: -1 }), /lr = -1/);
  assert.equal(model.info.task, '', 'no task attached');
  assert.equal(model.info.tokenizer, null);
  assert.deepEqual(model.parameter('lm_head.weight'), before);
  model.dispose();
});
