// One measurement of one runtime on one model, the same way for each: load the files, warm up,
// then time greedy generation of N1 and N2 tokens from the same prompt and take
// (t(N2) − t(N1)) / (N2 − N1) — the cost of a generated token with the KV cache, sampling and
// the runtime's own overhead included, the prompt's prefill and one-time costs cancelled. Runs
// in Node (ours, onnxruntime-web) and in a browser page (all three; bench/browser/import-peers.mjs),
// so nothing here imports a Node module. Each runtime at its best for decoding on the CPU:
//
//   ours            transformer-playground's public API: importModel(files) and model.generate()
//                   (the threaded module when threads > 1)
//   onnxruntime     onnxruntime-web's wasm execution provider, graphOptimizationLevel 'all',
//                   env.wasm.numThreads = threads, SIMD; the decode loop feeds present key-values
//                   back as past ones and takes the argmax of the last logits in JS
//   wllama          @wllama/wllama (llama.cpp): n_gpu_layers 0 (CPU), n_threads = threads,
//                   n_ctx = the prompt + N2 + slack, temperature 0 (greedy), ignore_eos; its
//                   completion call per generation
//
// spec: { impl, threads, files: [{ name, url }] | { name, path }, promptText, promptIds, n1, n2 }
// read(file) gives a file's bytes (Node: from disk; browser: fetched).

export const N1 = 8, N2 = 40;

const now = () => performance.now();

// generate(n) may stop early (ours at <EOS>: the random weights can sample it); it returns the
// ids it made where it can, and the difference is taken over the tokens really generated.
async function decodeTiming(generate) {
  await generate(4);  // warm-up: compilation tiers up, buffers are made
  const a0 = now();
  const first = await generate(N1);
  const a = now() - a0;
  const b0 = now();
  const out = await generate(N2);
  const b = now() - b0;
  const n1 = first.ids ? first.ids.length : N1, n2 = out.ids ? out.ids.length : N2;
  if (n2 <= n1) throw new Error(`generation stopped after ${n2} tokens (asked ${N2}); no per-token time`);
  return { ms_per_token: (b - a) / (n2 - n1), ms_n1: a, ms_n2: b, tokens_n1: n1, tokens_n2: n2, ...out };
}

export async function runOurs(spec, { load, read }) {
  const t0 = now();
  const tp = await load(spec.threads > 1 ? { threads: spec.threads } : {});
  const files = await Promise.all(spec.files.map(async (f) => ({ name: f.name, bytes: await read(f) })));
  const model = await tp.importModel(files);
  const load_ms = now() - t0;
  const heap_mb = tp.heapStats().heapSize / 2 ** 20;
  let text = '';
  const timing = await decodeTiming(async (n) => {
    const r = model.generate(spec.promptText, { maxNewTokens: n });
    text = r.text;
    return { ids: Array.from(r.ids), promptIds: Array.from(r.promptIds) };
  });
  model.dispose();
  return { load_ms, heap_mb, text, ...timing };
}

export async function runOnnx(spec, { ort, read }) {
  const t0 = now();
  ort.env.wasm.numThreads = spec.threads;
  ort.env.wasm.simd = true;
  const bytes = await read(spec.files[0]);
  const session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  const load_ms = now() - t0;
  const layers = (session.inputNames.length - 1) / 2;
  const [kvHeads, headDim] = [spec.kvHeads, spec.headDim];
  const timing = await decodeTiming(async (n) => {
    const empty = () => new ort.Tensor('float32', new Float32Array(0), [1, kvHeads, 0, headDim]);
    let feeds = { input_ids: new ort.Tensor('int64', BigInt64Array.from(spec.promptIds.map(BigInt)), [1, spec.promptIds.length]) };
    for (let l = 0; l < layers; l++) Object.assign(feeds, { [`past_key_${l}`]: empty(), [`past_value_${l}`]: empty() });
    const ids = [];
    for (let step = 0; step < n; step++) {
      const out = await session.run(feeds);
      const [, T, V] = out.logits.dims, logits = out.logits.data, base = (T - 1) * V;
      let best = 0;
      for (let i = 1; i < V; i++) if (logits[base + i] > logits[base + best]) best = i;
      ids.push(best);
      feeds = { input_ids: new ort.Tensor('int64', BigInt64Array.from([BigInt(best)]), [1, 1]) };
      for (let l = 0; l < layers; l++) {
        feeds[`past_key_${l}`] = out[`present_key_${l}`];
        feeds[`past_value_${l}`] = out[`present_value_${l}`];
      }
    }
    return { ids };
  });
  await session.release();
  return { load_ms, ...timing };
}

export async function runWllama(spec, { Wllama, wasmUrl, read }) {
  const t0 = now();
  const wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true });
  const bytes = await read(spec.files[0]);
  await wllama.loadModel([new Blob([bytes])], { n_gpu_layers: 0, n_threads: spec.threads, n_ctx: 512, n_batch: 512 });
  const load_ms = now() - t0;
  let text = '', internal = null;
  const timing = await decodeTiming(async (n) => {
    const r = await wllama.createCompletion({ prompt: spec.promptText, max_tokens: n, temperature: 0, ignore_eos: true });
    text = r.choices[0].text;
    internal = r.timings?.predicted_per_token_ms ?? null;
    return {};
  });
  await wllama.exit();
  return { load_ms, text, wllama_predicted_per_token_ms: internal, ...timing };
}

// A STREAM-like copy in this JavaScript engine: the best of five copies of a 256 MiB array
// (typed-array set, a memmove), counted as STREAM counts its Copy kernel — bytes read plus bytes
// written, per second.
export function streamCopyGBps() {
  const n = 32 * 2 ** 20;  // float64 values: 256 MiB each way
  const a = new Float64Array(n).fill(1), b = new Float64Array(n);
  let best = Infinity;
  for (let rep = 0; rep < 5; rep++) {
    const t0 = now();
    b.set(a);
    best = Math.min(best, now() - t0);
  }
  return (2 * 8 * n) / (best / 1000) / 1e9;
}
