// Writes every file the import benchmark reads, for the shapes asked (default: all), under
// bench/results/import/<shape>/: hf-f32/, hf-f16/, hf-bf16/ (ours), model-f32.gguf and
// model-f16.gguf (wllama), model.onnx (onnxruntime-web; needs Debian's python3-torch, else the
// onnxruntime rows are skipped). Files an earlier run finished are kept (the weights are the
// same random ones every time).
//   node bench/import/prepare.mjs [shape,...]
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGguf } from './gguf.mjs';
import { writeHfFolder } from './hf_folder.mjs';
import { SHAPES } from './shapes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const importBase = path.join(root, 'bench', 'results', 'import');
export const DTYPES = ['F32', 'F16', 'BF16'];

export const hasTorch = () => spawnSync('/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;

// { hf: { F32, F16, BF16 }, gguf: { F32, F16 }, onnx } — the paths of one shape's files.
export async function prepareShape(shape, { log = () => {} } = {}) {
  const files = { hf: {}, gguf: {}, onnx: null };
  for (const dtype of DTYPES) {
    log(`  ${shape}: Hugging Face folder, ${dtype}`);
    files.hf[dtype] = await writeHfFolder(importBase, shape, dtype);
  }
  for (const dtype of ['F32', 'F16']) {
    log(`  ${shape}: GGUF, ${dtype}`);
    files.gguf[dtype] = await writeGguf(importBase, shape, dtype);
  }
  const onnx = path.join(importBase, shape, 'model.onnx');
  if (!existsSync(onnx) && hasTorch()) {
    log(`  ${shape}: ONNX with past key-values (torch.onnx.export)`);
    const r = spawnSync('/usr/bin/python3', [path.join(root, 'bench', 'import', 'export_onnx.py'), files.hf.F32, `${onnx}.part`],
      { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, OPENBLAS_NUM_THREADS: '1' } });
    if (r.status !== 0) throw new Error(`export_onnx.py failed for ${shape} (exit ${r.status})`);
    renameSync(`${onnx}.part`, onnx);
  }
  files.onnx = existsSync(onnx) ? onnx : null;
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const shapes = process.argv[2] ? process.argv[2].split(',') : Object.keys(SHAPES);
  for (const shape of shapes) {
    if (!SHAPES[shape]) throw new Error(`unknown shape '${shape}'; allowed: ${Object.keys(SHAPES).join(', ')}`);
    console.log(JSON.stringify(await prepareShape(shape, { log: console.log })));
  }
}
