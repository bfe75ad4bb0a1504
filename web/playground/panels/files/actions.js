// files/actions.js — what the Model file card's intents ask: the session saves the model; a
// checkpoint's task and configuration are read on the page's thread (no training) before the
// worker loads it; a link is copied; another project's model — someone else's files, read only
// in the training worker, never on this thread — is first described from its config alone
// (session.describeModelFiles: what it needs, whether it can be fine-tuned here), then its
// tokenizer is imported (session.importTokenizer: its saved text, loaded here with
// tp.loadTokenizer for the token views), then the model (the files pass to the worker uncopied
// and are read in slices). Each status is written to page.files, then the card is drawn again.
import { download } from '../../../components/shared/download.js';
import { SHIPPED_MODELS } from '../../../models/models.js';
import { TASKS, prune } from '../../state.js';
import { toHash } from '../../hash.js';
import { filesAtUrl } from '../../../lib/model-urls.js';
import { runFileOf, openRunFile } from '../../run-file.js';

const MB = 1 << 20;

export class FilesActions {
  constructor(app, redraw) {
    this.app = app;
    this.redraw = redraw;
    this.state = {};
  }

  say(patch) {
    this.state = { ...this.state, ...patch };
    this.redraw();
  }
  // A line of the files status: a string key with its values, or an error's own message.
  status(key, vars) {
    this.say({ status: { key, vars } });
  }
  fail(error) {
    this.say({ status: { key: 'files.error', vars: { message: error.message } } });
  }

  async save() {
    const { app } = this;
    try {
      const bytes = await app.session.save();
      const name = `${app.state.task}-step${app.run?.step ?? 0}.safetensors`;
      download(new Blob([bytes], { type: 'application/octet-stream' }), name);
      this.status('files.saved', { name, size: (bytes.length / 1024).toFixed(1) });
    } catch (error) {
      this.fail(error);
    }
  }

  // The recorded runs as a run file (.tphistory, run-file.js).
  saveRun() {
    try {
      const { bytes, runs, name } = runFileOf(this.app);
      download(new Blob([bytes], { type: 'application/octet-stream' }), name);
      this.status('files.runSaved', { name, runs, size: (bytes.length / 1024).toFixed(1) });
    } catch (error) {
      this.fail(error);
    }
  }

  async openRun(file) {
    try {
      const runs = await openRunFile(this.app, file);
      this.status('files.runOpened', { name: file.name, runs });
    } catch (error) {
      this.fail(error);
    }
  }

  // A checkpoint's bytes -> its task and configuration on this thread -> the worker.
  async loadBytes(bytes, name) {
    const { app } = this;
    const model = app.tp.loadModel(bytes);
    const { config, info } = { config: model.config, info: model.info };
    model.dispose();
    const task = TASKS.includes(info.task) || info.task === 'text' || info.task === 'pairs' ? info.task : null;
    if (!task) throw new Error(`unknown task '${info.task}' in ${name}`);
    if ((task === 'text' || task === 'pairs') && task !== app.state.task) throw new Error(app.t('files.needText'));
    const defaults = app.infoFor(task).defaults;
    const overrides = {};
    for (const [k, v] of Object.entries(config)) if (k !== 'vocabSize' && k !== 'nClasses' && k !== 'normEps') overrides[k] = v;
    app.set({ task, model: prune(overrides, defaults), input: '', prompt: '' });
    const result = await app.configure({ checkpoint: bytes });  // with the file, not from the state alone
    if (result) {
      this.status('files.loadedInfo', { name, task: info.task, params: info.parameterCount.toLocaleString(app.state.lang) });
      app.status('status.loaded', { name });
    }
  }

  async loadFile(file) {
    try {
      await this.loadBytes(new Uint8Array(await file.arrayBuffer()), file.name);
    } catch (error) {
      this.fail(error);
    }
  }

  // The checkpoints shipped in web/models (trained by scripts/make_models.mjs).
  async loadShipped(name) {
    try {
      const res = await fetch(SHIPPED_MODELS[name]);
      if (!res.ok) throw new Error(`${name}.safetensors: HTTP ${res.status}`);
      await this.loadBytes(new Uint8Array(await res.arrayBuffer()), `${name}.safetensors`);
    } catch (error) {
      this.fail(error);
    }
  }

  // Standalone: this page's address. Embedded: the full playground page (web/index.html) with
  // the same set-up, so a reader can open what they see here.
  async copyLink() {
    const { app } = this;
    const page = app.standalone ? location.href.split('#')[0] : new URL('../../../index.html', import.meta.url).href;
    const url = `${page}${toHash(app.state)}`;
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Clipboard refused (no permission): the address bar has the same link.
    }
    this.status('app.shared');
    app.status('app.shared');
    return url;
  }

  async importFiles(files, name) {
    const { app } = this;
    const say = (...lines) => this.say({ importStatus: lines });
    try {
      say(['import.reading', { name }]);
      const info = await app.session.describeModelFiles(files);
      const c = info.config;
      const summary = ['import.summary', { name, params: info.parameterCount.toLocaleString(app.state.lang), mb: Math.ceil(info.memory.parameters / MB),
        layers: c.nLayers, heads: c.nHeads, d: c.dModel, vocab: c.vocabSize }];
      // The training state alone (16 bytes per parameter), as the core's refusal counts it.
      const train = info.trainable ? ['import.trainable'] : ['import.notTrainable', { mb: Math.floor((16 * info.parameterCount) / MB), limit: info.limits.training / MB }];
      say(summary, train, ['import.loading']);
      const tokenizer = app.tp.loadTokenizer(await app.session.importTokenizer(files));
      const result = await app.useImported({ files, name, tokenizer, info });
      if (result) {
        // Its parameters fit a trainer, a step with these training options may not: the bar says why.
        say(['import.loaded', { name }], summary, info.trainable && result.notTrainable ? ['import.notTrainableHere'] : train);
        app.status('status.loaded', { name });
      } else if (app.imported?.files === files && app.page.error) {
        // The worker refused it (its weights, or the text under Task): said here, not "Loading…" for good.
        say(['import.failed', { name, message: app.page.error.message }]);
      }
    } catch (error) {
      say(['import.failed', { name, message: error.message }]);
    }
  }

  async importUrl(text) {
    if (!text) return;
    try {
      const session = this.app.session;
      await this.importFiles(await filesAtUrl(text, document.baseURI, (files) => session.describeModelFiles(files)), text);
    } catch (error) {
      this.say({ importStatus: [['import.failed', { name: text, message: error.message }]] });
    }
  }

  // Leaving the imported model (another task or architecture) is said where it was loaded.
  left() {
    this.say({ importStatus: [['import.left']] });
  }
}
