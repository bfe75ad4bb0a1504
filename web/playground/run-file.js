// run-file.js — the playground's side of run files (.tphistory, web/lib/history-file.js): "Save
// run file" writes the runs the comparison views draw (the kept runs and the current one, each
// named as the page names it, with its set-up and its whole recorded history), the file a
// <tp-replay> replays; "Open run file" reads one (ours or a script's) and keeps each of its runs,
// named by the file's label, so the training chart and the attention comparison show them beside
// the current run.
import { writeHistory, readHistory, HISTORY_LIMITS } from '../lib/history-file.js';
import { runFileError, runFileTooLarge } from '../components/shared/run-file-words.js';
import { RunRecord } from '../lib/run-record.js';
import { TASKS, cleanLabel } from './state.js';
import { labelled } from './hash.js';

// The views a replay of a playground run shows.
const PANELS = ['loss', 'attention', 'tokens', 'outputs'];

// The file's bytes and a name for it, from the runs `app.compared()` lists (at most the file's limit).
export function runFileOf(app) {
  const runs = app.compared().filter((r) => r.record?.snapshots.length).slice(-HISTORY_LIMITS.runs);
  if (!runs.length) throw new Error(app.t('files.runNone'));
  const current = runs.find((r) => r.current) ?? runs.at(-1);
  const bytes = writeHistory(runs.map((r) => ({ record: r.record, label: r.label, setup: r.setup })), { panels: PANELS });
  return { bytes, runs: runs.length, name: `${app.state.task}-step${current.record.step}.tphistory` };
}

// Reads a run file and keeps its runs; resolves with how many.
export async function openRunFile(app, file) {
  const size = file.size ?? file.byteLength;
  const tooLarge = runFileTooLarge((k, v) => app.t(k, v), file.name, size);
  if (tooLarge) throw tooLarge;
  const { runs } = readOrSay(app, new Uint8Array(await file.arrayBuffer()), file.name);
  for (const run of runs) {
    const setup = run.setup ?? setupFromRecord(run.record);
    if (!setup) throw new Error(app.t('files.runNoSetup', { name: file.name, label: run.label }));
    const record = RunRecord.from(run.record);
    // The run keeps the name the file gives it (a line of plain text, cut to a label's length).
    app.kept.keep(labelled(setup, cleanLabel(run.label || setup.label)), record);
    app.kept.freeze(record);
  }
  return runs.length;
}

// The file's runs, or what is wrong with it in the page's language.
function readOrSay(app, bytes, name) {
  try {
    return readHistory(bytes, { name });
  } catch (error) {
    throw runFileError((k, v) => app.t(k, v), error);
  }
}

// A set-up (hash.js setupOf's shape) from what configure() was asked, for a file without one.
function setupFromRecord(record) {
  const task = record.task?.name;
  if (!TASKS.includes(task)) return null;
  const { seed = 1, ...model } = record.request?.model ?? {};
  const { seed: _trainingSeed, ...train } = record.request?.training ?? {};
  return { task, seed, model, train };
}
