// task-infos.js — what the page knows of a task on its own thread: its name, kind, metric,
// defaults, training options, sample inputs, class names, tokenizer and vocabulary (the first
// 1,024 tokens), built once per task set-up through the page's engine and kept for the last few;
// an imported model's tokenizer stands in for the task's while that model is in use.
import { sessionRequest } from './state.js';

const KEEP = 12;

export class TaskInfos {
  // tp(): the page's engine API; state(): the playground's state; imported(): the imported model
  // ({ name, tokenizer }) or null.
  constructor({ tp, state, imported }) {
    this.tp = tp;
    this.state = state;
    this.imported = imported;
    this.infos = new Map();
  }

  // What tp.task() takes for task `name` in the current state.
  spec(name = this.state().task) {
    const state = this.state(), imported = this.imported();
    // An imported model trains on the text through its own tokenizer.
    if (imported && name === state.task) return { text: state.text, tokenizer: imported.tokenizer };
    if (name === 'text') return { text: state.text, tokenizer: state.textTokenizer };
    if (name === 'pairs') return { pairs: sessionRequest(state).task.pairs };
    return name;
  }

  // { name, kind, metric, defaults, train, sampleInputs, classNames, tokenizer, vocab } of task
  // `name` (default: the state's); tp.task()'s Error when the set-up is refused.
  get(name = this.state().task) {
    const spec = this.spec(name), imported = this.imported();
    const key = imported && spec.tokenizer === imported.tokenizer ? `imported ${imported.name} ${spec.text}` : JSON.stringify(spec);
    let info = this.infos.get(key);
    if (info) return info;
    const task = this.tp().task(spec);
    try {
      const tokenizer = task.tokenizer();
      info = { name: task.name, kind: task.kind, metric: task.metric, defaults: task.defaults, train: task.train, sampleInputs: task.sampleInputs,
        classNames: task.classNames, tokenizer, vocab: tokenizer.vocabulary(Math.min(tokenizer.vocabSize, 1024)) };
    } finally {
      task.dispose();
    }
    if (this.infos.size > KEEP) {
      const [oldKey, old] = this.infos.entries().next().value;
      old.tokenizer.dispose();
      this.infos.delete(oldKey);
    }
    this.infos.set(key, info);
    return info;
  }

  // Forgets what was built for an imported model (it is being left).
  dropImported() {
    for (const [key, info] of this.infos) {
      if (!key.startsWith('imported ')) continue;
      info.tokenizer.dispose();
      this.infos.delete(key);
    }
  }

  dispose() {
    for (const info of this.infos.values()) info.tokenizer.dispose();
    this.infos.clear();
  }
}
