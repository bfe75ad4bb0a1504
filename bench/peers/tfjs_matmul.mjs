// Peer benchmark: tf.matMul on @tensorflow/tfjs-backend-wasm (XNNPACK, SIMD, 1 thread) at the
// same shapes and forms as tp_bench matmul. nt/tn use tfjs's own transposeA/transposeB flags,
// which is what a user of tfjs would write. Prints one JSON object per row.
import * as tf from '@tensorflow/tfjs';
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + path.sep);
setThreadsCount(1);
await tf.setBackend('wasm');
await tf.ready();

const reps = Number(process.argv[2] ?? 7);
const shapes = [[64, 64, 64], [128, 128, 128], [256, 256, 256], [512, 512, 512], [1024, 128, 384],
  [1024, 128, 512], [1024, 512, 128], [128, 1024, 512], [1024, 128, 65]];

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

for (const [m, k, n] of shapes) {
  for (const form of ['nn', 'nt', 'tn']) {
    const ta = form === 'tn', tb = form === 'nt';
    const a = tf.randomUniform(ta ? [k, m] : [m, k]);
    const b = tf.randomUniform(tb ? [n, k] : [k, n]);
    const run = () => {
      const c = tf.matMul(a, b, ta, tb);
      c.dataSync();
      c.dispose();
    };
    const t0 = performance.now();
    run();
    const once = Math.max(performance.now() - t0, 0.01);
    const inner = Math.max(1, Math.round(20 / once));
    for (let i = 0; i < inner; ++i) run();  // warm-up
    const gflops = [];
    for (let r = 0; r < reps; ++r) {
      const start = performance.now();
      for (let i = 0; i < inner; ++i) run();
      gflops.push((2 * m * n * k * inner) / ((performance.now() - start) / 1000) / 1e9);
    }
    console.log(JSON.stringify({ bench: 'matmul', m, k, n, form, impl: 'tfjs-wasm', gflops: Number(median(gflops).toFixed(3)) }));
    a.dispose();
    b.dispose();
  }
}
