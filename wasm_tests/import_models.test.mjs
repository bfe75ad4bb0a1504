// node:test — importing other projects' models through the JavaScript API (tp.importModel),
// on the fixtures tools/make_import_fixtures.py wrote from PyTorch: the greedy tokens of 48
// steps with and without the KV cache are PyTorch's, GPT-2's logits are PyTorch's within 1e-4,
// describeModelFiles says what fits from config.json (or a .bin's header) alone, the files
// stream in from Blobs as well as from bytes, and bad files are refused with the module still
// working afterwards.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { load } from 'transformer-playground';
import { trainedToy, assertModuleWorks } from './helpers.mjs';

const dir = new URL('../native_tests/data/import/', import.meta.url);
let tp, toy;

function folder(name, { blobs = false } = {}) {
  return readdirSync(new URL(`${name}/`, dir))
    .filter((f) => f !== 'expected.json')
    .map((f) => {
      const bytes = new Uint8Array(readFileSync(new URL(`${name}/${f}`, dir)));
      return blobs ? { name: `${name}/${f}`, blob: new Blob([bytes]) } : { name: f, bytes };
    });
}
const expected = (name) => JSON.parse(readFileSync(new URL(`${name}/expected.json`, dir), 'utf8'));

before(async () => {
  tp = await load();
  ({ model: toy } = await trainedToy());
});

for (const name of ['gpt2', 'llama', 'llama2c']) {
  test(`${name}: greedy generation is PyTorch's, with and without the KV cache`, async () => {
    const want = expected(name);
    const model = await tp.importModel(folder(name, { blobs: name === 'llama' }));
    try {
      const steps = want.greedy_ids.length;
      const cached = model.generate(want.prompt_ids, { maxNewTokens: steps, kvCache: true });
      const uncached = model.generate(want.prompt_ids, { maxNewTokens: steps, kvCache: false });
      assert.deepEqual(Array.from(cached.ids), want.greedy_ids);
      assert.deepEqual(Array.from(uncached.ids), want.greedy_ids);
      const tok = model.tokenizer();
      // The model's tokenizer puts <s> first for Llama (tokenizer.json's post-processor,
      // tokenizer_config.json's add_bos_token) and llama2.c (as run.c), nothing for GPT-2.
      const before = name === 'gpt2' ? [] : [1];
      for (const { text, ids } of want.texts) {
        assert.deepEqual(Array.from(tok.encode(text, { addSpecialTokens: false }).ids), ids, `'${text}'`);
        const withSpecials = tok.encode(text);
        assert.deepEqual(Array.from(withSpecials.ids), [...before, ...ids], `'${text}' with its specials`);
        assert.equal(withSpecials.tokens.length, withSpecials.ids.length);
        if (before.length) assert.deepEqual(Array.from(withSpecials.spans.slice(0, 2)), [0, 0]);
        assert.equal(tok.decode(ids), text);
      }
      tok.dispose();
    } finally {
      model.dispose();
    }
  });
}

for (const name of ['gpt2', 'llama', 'llama2c']) {
  test(`${name}: a text prompt is encoded as its authors run it, and the continuation is PyTorch's`, async () => {
    // The fixtures' references start from the tool's prompt encoded by the model's own tokenizer:
    // <s> first for Llama and llama2.c.
    const want = expected(name);
    const model = await tp.importModel(folder(name));
    try {
      const r = model.generate('the quick brown fox', { maxNewTokens: want.greedy_ids.length });
      assert.deepEqual(Array.from(r.promptIds), want.prompt_ids);
      assert.deepEqual(Array.from(r.ids), want.greedy_ids);
      const bare = model.generate('the quick brown fox', { maxNewTokens: 1, addSpecialTokens: false });
      assert.deepEqual(Array.from(bare.promptIds), name === 'gpt2' ? want.prompt_ids : want.prompt_ids.slice(1));
      const tok = model.tokenizer();
      assert.throws(() => tok.encode('x', { addSpecialTokens: 'no' }), /encode option addSpecialTokens must be a boolean, got/);
      assert.throws(() => tok.encode('x', { addBos: true }), /unknown encode option key 'addBos'; allowed: addSpecialTokens/);
      tok.dispose();
    } finally {
      model.dispose();
    }
  });
}

test('llama: generated text is what TextDecoder makes of the bytes, and the steps stream it', async () => {
  // SentencePiece with byte fallback: the fixture's random weights emit byte pieces that split
  // and strand characters. The bytes of prompt + answer come from the pieces themselves (<0xNN>
  // is a byte, ▁ a space, the dummy prefix's space dropped); TextDecoder reads them as a browser
  // would, and the answer must be what it adds to the prompt, with no lone surrogate anywhere.
  const model = await tp.importModel(folder('llama'));
  const tok = model.tokenizer();
  const pieces = tok.vocabulary();
  const utf8 = new TextEncoder();
  const bytesOf = (ids, { prefix = true } = {}) => {
    const out = [];
    for (const id of ids) {
      if (id === 0) out.push(0xef, 0xbf, 0xbd);  // <unk> decodes as U+FFFD (docs/API.md)
      if (id < 3) continue;  // <unk> <s> </s>
      const byte = /^<0x([0-9A-F]{2})>$/.exec(pieces[id]);
      if (byte) out.push(parseInt(byte[1], 16));
      else out.push(...utf8.encode(pieces[id].replaceAll('\u2581', ' ')));
    }
    if (prefix && out[0] === 0x20) out.shift();
    return new Uint8Array(out);
  };
  let replaced = 0, heldBack = 0;
  try {
    for (const prompt of ['naïve café — 한국어 😀', 'the quick brown fox', '😀']) {
      for (const seed of [1, 2, 3, 4, 5]) {
        const r = model.generate(prompt, { maxNewTokens: 40, temperature: 1.5, seed });
        const answer = Array.from(r.ids).filter((id) => id !== 2);
        const whole = new TextDecoder().decode(bytesOf([...r.promptIds, ...answer]));
        const before = new TextDecoder().decode(bytesOf(r.promptIds));
        assert.ok(whole.startsWith(before));
        assert.equal(r.text, whole.slice(before.length), `'${prompt}' seed ${seed}`);
        assert.ok(r.text.isWellFormed());
        assert.equal(r.steps.map((step) => step.text).join(''), r.text);
        // Streamed as TextDecoder's stream mode streams the same bytes, token by token.
        const stream = new TextDecoder();
        stream.decode(bytesOf(r.promptIds), { stream: true });
        r.steps.forEach((step, i) => {
          const last = i === r.steps.length - 1;
          let want = stream.decode(bytesOf([step.id], { prefix: false }), { stream: !last });
          if (last) want += stream.decode();
          assert.equal(step.text, want, `step ${i} of '${prompt}' seed ${seed}`);
        });
        if (r.text.includes('\uFFFD')) ++replaced;
        heldBack += r.steps.filter((step) => step.text === '' && step.id !== 2).length;
      }
    }
  } finally {
    tok.dispose();
    model.dispose();
  }
  assert.ok(replaced > 0, 'no answer had a character cut short: nothing was tested');
  assert.ok(heldBack > 0, 'no step held bytes back: nothing was tested');
});

// The trace reads the text as the model's authors run it: llama's tokenizer puts <s> first (the
// fixture's prompt_ids), GPT-2's adds nothing.
for (const name of ['gpt2', 'llama']) {
  test(`${name}: the trace reads the text with its tokenizer's specials, and its logits are PyTorch's within 1e-4`, async () => {
    const want = expected(name);
    const model = await tp.importModel(folder(name));
    const trace = model.trace('the quick brown fox');
    assert.deepEqual([...trace.input.ids], want.prompt_ids);
    const logits = trace.tensors.logits;
    assert.deepEqual(logits.shape, [want.logits.length, want.logits[0].length]);
    let diff = 0, ref = 0;
    want.logits.flat().forEach((v, i) => {
      diff += (logits.data[i] - v) ** 2;
      ref += v * v;
    });
    assert.ok(Math.sqrt(diff / ref) <= 1e-4, `relative error ${Math.sqrt(diff / ref)}`);
    model.dispose();
  });
}

test('describeModelFiles reads only the config: parameters, memory and whether it trains', async () => {
  const gpt2 = await tp.describeModelFiles(folder('gpt2'));
  assert.equal(gpt2.format, 'huggingface');
  assert.equal(gpt2.config.pos, 'learned');
  assert.equal(gpt2.memory.parameters, 4 * gpt2.parameterCount);
  assert.equal(gpt2.trainable, true);
  const llama2c = await tp.describeModelFiles(folder('llama2c'));
  assert.equal(llama2c.format, 'llama2c');
  assert.equal(llama2c.config.ropePairs, 'adjacent');
  const llama = await tp.describeModelFiles(folder('llama'));
  assert.equal(llama.config.ropePairs, 'half');
  assert.equal(llama.config.ropeTheta, 500);
  // GPT-2 small's shape: it loads, but is too large to fine-tune here, and says so.
  const big = { model_type: 'gpt2', vocab_size: 50257, n_embd: 768, n_layer: 12, n_head: 12, n_positions: 1024 };
  const small = await tp.describeModelFiles([{ name: 'config.json', bytes: new TextEncoder().encode(JSON.stringify(big)) }]);
  assert.equal(small.parameterCount, 124439808);
  assert.equal(small.trainable, false);
  assert.match(small.reason, /training needs 1898 MB .* it can still generate/);
  assert.ok(small.memory.parameters <= small.limits.parameters);
});

test('bad model files are refused with their reason, and the module keeps working', async () => {
  const files = folder('gpt2');
  const config = JSON.parse(new TextDecoder().decode(files.find((f) => f.name === 'config.json').bytes));
  const withConfig = (edit) => files.map((f) => (f.name === 'config.json'
    ? { name: f.name, bytes: new TextEncoder().encode(JSON.stringify({ ...config, ...edit })) } : f));
  await assert.rejects(tp.importModel(withConfig({ model_type: 'bert' })), /model_type = 'bert' is not supported; supported: gpt2/);
  await assert.rejects(tp.importModel(withConfig({ activation_function: 'relu' })), /activation_function = 'relu'/);
  await assert.rejects(tp.importModel(files.filter((f) => f.name !== 'model.safetensors')), /needs the file model\.safetensors/);
  await assert.rejects(tp.importModel([]), /no files/);
  await assert.rejects(tp.importModel([{ name: 'notes.txt', bytes: new Uint8Array(3) }]), /cannot tell which model these files are/);
  await assert.rejects(tp.importModel([{ name: 'config.json' }]), /needs bytes/);
  assertModuleWorks(tp, toy);
});
