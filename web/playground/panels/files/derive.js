// files/derive.js — the Model file card: save the model, load one back, the pre-trained
// checkpoints, copy a link; and "Load a model" from another project (files, a folder or a URL).
// What happened last is said in each part's status line (page.files, written by actions.js).
// Pure: (state, run, shown, info, page) -> props.
import { SHIPPED_MODELS } from '../../../models/models.js';
import { tr, configOf } from '../common.js';
import { TASKS } from '../../state.js';

export function deriveFiles(state, run, shown, info, page) {
  const t = tr(state);
  const files = page.files ?? {};
  return {
    saveDisabled: !configOf(run, page),
    saveRunDisabled: !configOf(run, page),
    // A shipped checkpoint is named by its task, or by its own words when it is another model of one.
    pretrained: Object.keys(SHIPPED_MODELS).map((name) => ({ name, text: t(TASKS.includes(name) ? `task.${name}` : `shipped.${name}`), disabled: !page.tp })),
    importDisabled: !page.tp,
    status: files.status ? t(files.status.key, files.status.vars) : null,
    importStatus: files.importStatus ? files.importStatus.map(([key, vars]) => t(key, vars)).join(' ') : null,
  };
}
