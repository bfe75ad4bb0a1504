// `npm run generate`: writes what JavaScript derives from the C++ tables — every option's name,
// type, default, range and doc (src/model/config.h, src/model/train_options.h,
// src/generate/generator.h, src/tokenize/tokenizer.h, src/train/trainer.h, src/io/checkpoint_checks.h)
// and the trace names
// (src/model/trace_names.h) — so the API's key lists, the playground's controls and the
// TypeScript types never restate them:
//
//   web/lib/generated/schema.js             the tables, as frozen ES module constants, and
//                                           their JSDoc types
//   web/lib/**/*.d.ts                       the API's TypeScript declarations, emitted from its
//                                           JSDoc (tsc -p tsconfig.api.json: api_types.mjs)
//   docs/API.md                             its reference tables, from those declarations
//
// and, from the widgets' one description (web/widgets/shared/manifest.js), the custom-elements
// manifest, the widgets' TypeScript types and docs/WIDGETS.md's attribute tables
// (scripts/generate_widgets.mjs).
//
// It reads the tables from the built wasm module (npm run build:wasm first). `--check` writes
// nothing and exits 1 when a file is out of date (wasm_tests/generated.test.mjs runs it).
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { widgetFiles } from './generate_widgets.mjs';
import { apiTypeFiles } from './api_types.mjs';
import { API_DOC, apiDoc } from './api_docs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_FILE = path.join(root, 'web/lib/generated/schema.js');

// The TypeScript name of each choice field's type (the choices themselves come from C++).
const CHOICE_TYPES = {
  arch: 'Arch', pos: 'PositionalEncoding', ropePairs: 'RopePairs', norm: 'Norm', normPlacement: 'NormPlacement', ffn: 'FeedForward',
  head: 'OutputHead', schedule: 'Schedule', kind: 'TokenizerKind',
};

export async function readTables() {
  await import('../web/lib/node/platform.js');  // Node reads the .wasm file from disk
  const { loadEngine, call } = await import('../web/lib/engine.js');
  const module = await loadEngine();
  return call(module, (m) => m.schema());
}

// The TypeScript name of each list of the tables' `lists` (the unions no field gives).
const LIST_TYPES = {
  taskKind: ['TaskKind', 'What a task trains: source → target, a language model, sentence classes, token tags.'],
  metric: ['Metric', 'The validation metric a task reports in `metric` (`perplexity`: lower is better).'],
  stopReason: ['StopReason', 'Why generation stopped.'],
  builtinTask: ['BuiltinTaskName', 'The tasks shipped with the library (see `tp.tasks()`).'],
};

const capital = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;

// The JSDoc typedefs of the tables: a union per choice field and list, a shape per table.
function typedefs(tables) {
  const out = [];
  const aliases = new Map();
  for (const f of [...tables.model, ...tables.train, ...tables.tokenizer]) if (f.type === 'choice') aliases.set(tsType(f), [f.doc, f.choices]);
  for (const [key, [name, doc]] of Object.entries(LIST_TYPES)) aliases.set(name, [doc, tables.lists[key]]);
  for (const [alias, [doc, choices]] of aliases) {
    out.push('/**', ` * ${capital(doc).replace(/\.?$/, '.')}`, ` * @typedef {${choices.map((c) => `'${c}'`).join(' | ')}} ${alias}`, ' */', '');
  }
  const shape = (name, doc, fields, { optional = false, defaults = true } = {}) => {
    out.push('/**', ` * ${doc}`, ` * @typedef {object} ${name}`);
    for (const f of fields) {
      const notes = [range(f), defaults ? `default ${JSON.stringify(f.default)}` : ''].filter(Boolean).join('; ');
      out.push(` * @property {${tsType(f)}} ${optional ? `[${f.js}]` : f.js} ${capital(f.doc)}${notes ? ` (${notes})` : ''}.`);
    }
    out.push(' */', '');
  };
  shape('ModelConfig', 'A complete model configuration, as `model.config` and `task.defaults` return it.', tables.model);
  shape('TrainOptions', "Every training option, as `task.train` gives a task's values; `tp.trainer()` takes any of them.", tables.train, { defaults: false });
  shape('GenerateOptions', '`model.generate()` options.', tables.generate, { optional: true });
  shape('TokenizerSettings', 'How a tokenizer is built (`tp.tokenizer()` adds the text to learn from).', tables.tokenizer, { optional: true });
  shape('LoadOptions', '`tp.loadModel()` options.', tables.load, { optional: true });
  shape('StepReport', "What `trainer.step()` returns: the last step's numbers and the latest evaluation.", tables.stepReport, { defaults: false });
  shape('Evaluation', 'A pass over the validation set.', tables.evaluation, { defaults: false });
  return out;
}

const FIELD_INFO = `/**
 * One option or report field as the C++ tables describe it (the JavaScript API's keys, the
 * playground's controls and the API's types are all generated from the same tables): name
 * (snake_case: JSON files, checkpoints, the command line's messages), js (camelCase: the key in
 * this API), cli (the command line's option, without "--"), its type, default and range (max
 * absent: no upper limit; minOpen / maxOpen: the range excludes min or max; minNote: what the
 * smallest value means), choices, the characters a text takes and its length, a doc line.
 * @typedef {{ readonly name: string, readonly js: string, readonly cli: string, readonly type: 'int' | 'real' | 'bool' | 'text' | 'choice', readonly default: number | string | boolean, readonly min?: number, readonly max?: number, readonly minOpen?: boolean, readonly maxOpen?: boolean, readonly minNote?: string, readonly choices?: readonly string[], readonly alphabet?: string, readonly maxLength?: number, readonly doc: string }} FieldInfo
 */

/**
 * A trace entry's name pattern ({stack}: enc | dec, {layer}: 0.., {attn}: self_attn |
 * cross_attn), its shape (e.g. 'H, T, S') and what it is.
 * @typedef {{ readonly pattern: string, readonly shape: string, readonly doc: string }} TraceNameInfo
 */
`;

function schemaModule(tables) {
  const lines = [
    '// schema.js — generated by `npm run generate` from the C++ tables; do not edit by hand.',
    '//',
    '// Every option of the model config (MODEL_CONFIG), the training options (TRAIN_OPTIONS),',
    '// generation (GENERATE_OPTIONS), tokenizers (TOKENIZER_OPTIONS) and loading (LOAD_OPTIONS), and the fields of the step',
    '// reports and evaluations: [{ name (snake_case), js (camelCase), cli, type, default, min?, max?,',
    '// minOpen?, maxOpen?, minNote?, choices?, alphabet?, maxLength?, doc }]. TRACE_NAMES lists the',
    "// trace's entries as patterns ({stack}, {layer}, {attn}) with their shapes. The JSDoc types",
    '// below are the same tables as types (and the unions of the task kinds, metrics, stop reasons',
    '// and built-in tasks the core lists), for the TypeScript declarations.',
    '',
    FIELD_INFO,
    ...typedefs(tables),
  ];
  const constants = {
    MODEL_CONFIG: ['The model config\'s fields.', tables.model], TRAIN_OPTIONS: ['The training options.', tables.train],
    GENERATE_OPTIONS: ['The generation options.', tables.generate], TOKENIZER_OPTIONS: ['The tokenizer options.', tables.tokenizer],
    LOAD_OPTIONS: ['The `tp.loadModel()` options.', tables.load], STEP_REPORT: ['The fields of a step report.', tables.stepReport],
    EVALUATION: ['The fields of an evaluation.', tables.evaluation], TRACE_NAMES: ['Every name a trace records, in forward order.', tables.trace],
  };
  for (const [name, [doc, rows]] of Object.entries(constants)) {
    lines.push(`/** ${doc} @type {readonly ${name === 'TRACE_NAMES' ? 'TraceNameInfo' : 'FieldInfo'}[]} */`, `export const ${name} = Object.freeze([`);
    for (const row of rows) lines.push(`  Object.freeze(${JSON.stringify(row)}),`);
    lines.push(']);', '');
  }
  return lines.join('\n');
}

function range(f) {
  // "0 turns clipping off" already names its value; "no beam search" does not.
  const low = !f.minNote ? `${f.min}` : f.minNote.startsWith(`${f.min}`) ? f.minNote : `${f.min}: ${f.minNote}`;
  if (f.type === 'int') return f.max === undefined ? `>= ${low}` : `${low} .. ${f.max}`;
  if (f.type === 'real') {
    if (f.max === undefined) return `>= ${low}`;
    return `${low} ${f.minOpen ? '<' : '<='} x ${f.maxOpen ? '<' : '<='} ${f.max}`;
  }
  if (f.type === 'text') return `${f.alphabet ? `characters ${f.alphabet.split('').join(', ')}, ` : ''}at most ${f.maxLength}`;
  return '';
}

function tsType(f) {
  if (f.type === 'int' || f.type === 'real') return 'number';
  if (f.type === 'bool') return 'boolean';
  if (f.type === 'text') return 'string';
  const alias = CHOICE_TYPES[f.js];
  if (!alias) throw new Error(`generate.mjs: no TypeScript name for the choice field '${f.js}'; add it to CHOICE_TYPES`);
  return alias;
}

// { file: expected contents } for everything generated.
export async function expectedFiles(tables) {
  const schema = schemaModule(tables);
  const types = await apiTypeFiles({ [SCHEMA_FILE]: schema });
  return { [SCHEMA_FILE]: schema, ...types, [API_DOC]: apiDoc(types), ...await widgetFiles() };
}

async function main() {
  const check = process.argv.includes('--check');
  const files = await expectedFiles(await readTables());
  let stale = 0;
  for (const [file, text] of Object.entries(files)) {
    const current = await readFile(file, 'utf8').catch(() => null);
    if (current === text) continue;
    if (check) {
      console.error(`${path.relative(root, file)} is out of date: run npm run generate`);
      stale += 1;
    } else {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      console.log(`wrote ${path.relative(root, file)}`);
    }
  }
  process.exit(stale ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
