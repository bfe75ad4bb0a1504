// Deliberately wrong uses of the API. `tsc -p wasm_tests/types/negative` must fail with an error
// on each line marked `// error:` and on no other line (api_types.test.mjs checks this), which
// proves the declarations catch these mistakes instead of accepting anything.
import { load, createTrainingSession, Model } from 'transformer-playground';

const tp = await load();
const task = tp.task('qa-toy');
const model = tp.model({ ...task.defaults, seed: 1 });
const trainer = tp.trainer(model, task);
const tok = task.tokenizer();

tp.model({ dmodel: 6 }); // error: unknown config key
tp.positionalTable({ kind: 'learned', maxLen: 8, dim: 4 }); // error: no table for a learned kind
tp.positionalTable({ kind: 'alibi', maxLen: 8, dim: 4 }); // error: alibi takes heads, not dim
const notRope: Float32Array = tp.positionalTable({ kind: 'sinusoidal', maxLen: 8, dim: 4 }).cos; // error: a sinusoidal table has no cos
tp.model({ arch: 'rnn' }); // error: arch outside its union
tp.model({ pos: 'rotary' }); // error: pos outside its union
tp.model({ norm: 'batch' }); // error: norm outside its union
tp.model({ ffn: 'tanh' }); // error: ffn outside its union
tp.model({ head: 'regression' }); // error: head outside its union
tp.model({ dModel: '64' }); // error: a size must be a number
tp.model({ tieEmbeddings: 1 }); // error: a flag must be a boolean
tp.tokenizer({ kind: 'wordpiece', text: 'abc' }); // error: kind outside its union
tp.tokenizer({ kind: 'char', txt: 'abc' }); // error: unknown tokenizer key
tp.trainer(model, task, { learningRate: 0.1 }); // error: unknown training option
tp.trainer(model, task, { schedule: 'linear' }); // error: schedule outside its union
tp.trainer(task, model); // error: arguments swapped
tp.task({ pairs: [['only one']] }); // error: a pair needs two strings
tp.task(42); // error: not a task spec
model.generate('how are you', { maxTokens: 8 }); // error: unknown generate option
model.generate('how are you', { kvCache: 'yes' }); // error: kvCache is a boolean
model.generate({ text: 'how are you' }); // error: prompt is text or ids
const text: number = model.generate('how are you').text; // error: text is a string
const ids: number[] = tok.encode('how').ids; // error: ids is an Int32Array
const spans: string = tok.encode('how').spans; // error: spans is an Int32Array
tok.decode('how are you'); // error: decode takes ids
const loss: string = trainer.step(1).loss; // error: loss is a number
trainer.step('10'); // error: n is a number
const arch: 'gpt' = model.config.arch; // error: arch is the Arch union
model.config = model.config; // error: config is read-only
model.trace('how', { targets: 'i am' }); // error: unknown trace option
tp.loadModel('checkpoint.safetensors'); // error: bytes, not a path
const bytes: string = model.save(); // error: save returns a Uint8Array
new Model(); // error: the constructor is private; use tp.model()
tp.heapStats().used; // error: no such field
model.disposed = true; // error: read-only
model.dispose(true); // error: dispose takes no argument

const session = await createTrainingSession();
session.configure({ model: { seed: 1 } }); // error: task is required
session.configure({ task: 'qa-toy', training: { steps: 10 } }); // error: unknown training option
session.snapshot({ target: 'i am' }); // error: input is required
session.addEventListener('progress', (e) => e.detail.loss.toUpperCase()); // error: loss is a number
