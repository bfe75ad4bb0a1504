// Runs one import-benchmark measurement in this tab (see import-peers.html): the runtime the
// spec names, through bench/import/runners.mjs, each library loaded from node_modules as a page
// would load it. Publishes { ...result, crossOriginIsolated } or { error } as window.benchResult.
import { runOnnx, runOurs, runWllama, streamCopyGBps } from '../import/runners.mjs';

const spec = JSON.parse(new URLSearchParams(location.search).get('spec'));
const read = async (f) => new Uint8Array(await (await fetch(f.url)).arrayBuffer());

async function main() {
  if (spec.impl === 'stream') return { stream_copy_gbps: streamCopyGBps() };
  if (spec.impl === 'ours') {
    const { load } = await import('../../web/lib/transformer-playground.js');
    return runOurs(spec, { load, read });
  }
  if (spec.impl === 'onnxruntime') {
    const ort = await import('../../node_modules/onnxruntime-web/dist/ort.wasm.min.mjs');
    ort.env.wasm.wasmPaths = new URL('../../node_modules/onnxruntime-web/dist/', import.meta.url).href;
    return runOnnx(spec, { ort, read });
  }
  if (spec.impl === 'wllama') {
    const { Wllama } = await import('../../node_modules/@wllama/wllama/esm/index.js');
    const wasmUrl = new URL('../../node_modules/@wllama/wllama/esm/wasm/wllama.wasm', import.meta.url).href;
    return runWllama(spec, { Wllama, wasmUrl, read });
  }
  throw new Error(`unknown impl '${spec.impl}'`);
}

main().then((result) => {
  window.benchResult = { ...result, crossOriginIsolated: self.crossOriginIsolated };
}, (error) => {
  window.benchResult = { error: String(error?.message ?? error) };
}).finally(() => {
  document.getElementById('out').textContent = JSON.stringify(window.benchResult, null, 1);
});
