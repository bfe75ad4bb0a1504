// Imports the folder ?model=URL (config.json, model.safetensors, vocab.json, merges.txt) with
// tp.importModel — the files fetched and streamed into the heap in slices — then generates
// ?tokens=N (default 32) tokens greedily with the KV cache, and publishes { impl, load_s,
// peak_mb (the wasm memory, which never shrinks), ms_per_token, ... } as window.benchResult.
import { load } from '../../web/lib/transformer-playground.js';

const params = new URLSearchParams(location.search);
const base = params.get('model');
const tokens = Number(params.get('tokens') ?? 32);
const impl = params.get('impl') ?? 'browser-wasm';

async function main() {
  const tp = await load();
  const start = performance.now();
  const names = ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt'];
  const model = await tp.importModel(names.map((name) => ({ name, url: `${base}/${name}` })));
  const loadSeconds = (performance.now() - start) / 1000;
  const result = model.generate('The quick brown fox jumps over the lazy dog', { maxNewTokens: tokens });
  const heap = tp.heapStats();
  window.benchResult = {
    bench: 'import', impl, parameters: model.info.parameterCount, load_s: loadSeconds,
    peak_mb: heap.heapSize / (1 << 20), tokens: result.ids.length, ms_per_token: result.msPerToken,
  };
  document.getElementById('out').textContent = JSON.stringify(window.benchResult, null, 1);
  model.dispose();
}

main().catch((error) => {
  window.benchResult = { error: error.message };
});
