// panels/files.js — save the model as a safetensors file, load one back (the configuration and
// task come from its metadata), and copy a link whose hash reproduces the whole set-up.
import { download } from '../../components/shared/download.js';
import { TASKS, prune, toHash } from '../state.js';
import { h } from '../../ui/dom.js';
import { SHIPPED_MODELS } from '../../models/models.js';

const PRETRAINED = Object.keys(SHIPPED_MODELS);

export function initFiles(app) {
  const $ = (id) => app.$(id);
  const status = (text) => ($('files-status').textContent = text);

  $('save').addEventListener('click', async () => {
    try {
      const bytes = await app.session.save();
      const name = `${app.state.task}-step${app.run?.step ?? 0}.safetensors`;
      download(new Blob([bytes], { type: 'application/octet-stream' }), name);
      status(app.t('files.saved', { name, size: (bytes.length / 1024).toFixed(1) }));
    } catch (error) {
      status(error.message);
    }
  });

  // A checkpoint's bytes -> its task and configuration on this thread (no training) -> the worker.
  async function loadBytes(bytes, name) {
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
    clearTimeout(app._configureTimer);  // configure with the file, not from the state alone
    const result = await app.configure({ checkpoint: bytes });
    if (result) {
      status(app.t('files.loadedInfo', { name, task: info.task, params: info.parameterCount.toLocaleString(app.state.lang) }));
      app.status('status.loaded', { name });
    }
  }

  $('load-file').addEventListener('change', async (e) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    try {
      await loadBytes(new Uint8Array(await file.arrayBuffer()), file.name);
    } catch (error) {
      status(error.message);
    }
  });

  // The checkpoints shipped in web/models (trained by scripts/make_models.mjs).
  function renderPretrained() {
    $('pretrained').replaceChildren(...PRETRAINED.map((name) => h('button', { type: 'button', class: 'small', text: app.t(`task.${name}`),
      disabled: !app.tp, onclick: async () => {
        try {
          const res = await fetch(SHIPPED_MODELS[name]);
          if (!res.ok) throw new Error(`${name}.safetensors: HTTP ${res.status}`);
          await loadBytes(new Uint8Array(await res.arrayBuffer()), `${name}.safetensors`);
        } catch (error) {
          status(error.message);
        }
      } })));
  }

  async function copyLink() {
    // Standalone: this page's address. Embedded: the full playground page (web/index.html) with
    // the same set-up, so a reader can open what they see here.
    const page = app.standalone ? location.href.split('#')[0] : new URL('../../index.html', import.meta.url).href;
    const url = `${page}${toHash(app.state)}`;
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Clipboard refused (no permission): the address bar has the same link.
    }
    app.lastLink = url;
    status(app.t('app.shared'));
    app.status('app.shared');
    return url;
  }
  $('copy-link').addEventListener('click', copyLink);
  $('share').addEventListener('click', copyLink);

  const enable = () => ($('save').disabled = !app.config);
  app.on('configured', enable);
  app.on('busy', enable);
  app.on('ready', renderPretrained);
  app.on('lang', renderPretrained);
  renderPretrained();
}
