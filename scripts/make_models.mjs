// Trains the small pre-trained models shipped in web/models/ with the `tp` command line, so the
// documentation widgets can show trained attention the moment a page opens — and so anyone can
// reproduce them exactly:  npm run models
//
// Each model is trained with a fixed seed and step count, must stay under 1 MB, and its final
// validation metrics are written to web/models/README.md.
//
//   npm run models                               every model
//   npm run models -- --only lm-char-llama       some (the README keeps the others' rows)
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './build.mjs';

const tp = path.join(root, 'build', 'native', 'tp');
const models = [
  { name: 'qa-toy', args: ['--task', 'qa-toy', '--steps', '600'], about: "the seed's Q&A example (encoder-decoder, d_model 6)" },
  { name: 'reverse', args: ['--task', 'reverse', '--steps', '600'], about: 'reversing 10 symbols: cross-attention reads the source backwards' },
  { name: 'translate', args: ['--task', 'translate', '--steps', '3000', '--d-ff', '128'], about: 'English → Korean phrases (encoder-decoder, characters)' },
  { name: 'lm-char', args: ['--task', 'lm-char', '--steps', '3000', '--d-model', '64', '--d-ff', '256'], about: "a character language model of The Devil's Dictionary (decoder-only)" },
  { name: 'sentiment', args: ['--task', 'sentiment', '--steps', '400'], about: 'positive / negative sentences (encoder-only, mean pooling)' },
  { name: 'lm-char-llama', args: ['--task', 'lm-char', '--steps', '3000', '--d-model', '48', '--n-heads', '4', '--n-kv-heads', '2', '--pos', 'rope', '--norm', 'rms', '--ffn', 'swiglu', '--d-ff', '128'],
    about: 'the same character language model, Llama-style: RoPE, RMSNorm, a SwiGLU feed-forward, 4 query heads sharing 2 key/value heads (decoder-only)' },
];

const README = path.join(root, 'web', 'models', 'README.md');
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg >= 0 ? (process.argv[onlyArg + 1] ?? '').split(',').filter(Boolean) : null;
const unknown = (only ?? []).filter((name) => !models.some((m) => m.name === name));
if (unknown.length) {
  console.error(`--only: no model named ${unknown.join(', ')}; the models are ${models.map((m) => m.name).join(', ')}`);
  process.exit(2);
}
// The README's row of a model not trained this time, as it was.
const oldRows = new Map(readFileSync(README, 'utf8').split('\n').filter((l) => l.startsWith('| `')).map((l) => [l.slice(3, l.indexOf('.safetensors')), l]));

const rows = [];
for (const m of models) {
  if (only && !only.includes(m.name)) {
    if (!oldRows.has(m.name)) {
      console.error(`${m.name}: not in ${README} yet; train it too`);
      process.exit(1);
    }
    rows.push(oldRows.get(m.name));
    continue;
  }
  const out = path.join(root, 'web', 'models', `${m.name}.safetensors`);
  console.log(`training ${m.name}…`);
  const r = spawnSync(tp, ['train', ...m.args, '--seed', '1', '--out', out, '--json'], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(r.stderr || r.error?.message);
    process.exit(1);
  }
  const final = JSON.parse(r.stdout.trim().split('\n').pop());
  const size = statSync(out).size;
  if (size >= 1 << 20) {
    console.error(`${m.name}: ${size} bytes, over the 1 MB limit`);
    process.exit(1);
  }
  rows.push(`| \`${m.name}.safetensors\` | ${m.about} | \`tp train ${m.args.join(' ')} --seed 1\` | ${(size / 1024).toFixed(0)} KB | ` +
            `val loss ${final.val_loss.toFixed(3)}, token accuracy ${(100 * final.token_accuracy).toFixed(1)}% |`);
  console.log(`  ${(size / 1024).toFixed(0)} KB, val loss ${final.val_loss.toFixed(3)}`);
}

writeFileSync(README, `# Pre-trained models

Small checkpoints the documentation widgets load (\`<tp-attention model="models/reverse.safetensors">\`)
so a page shows trained attention at once. They are ordinary checkpoints ([docs/FORMAT.md](../../docs/FORMAT.md)),
with their tokenizer and task in the metadata, made by \`scripts/make_models.mjs\` with the \`tp\`
command line:

\`\`\`sh
npm run models
\`\`\`

| file | what | how | size | final validation |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`);
