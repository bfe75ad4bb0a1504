// panels/import.js — "Load a model": another project's model (a Hugging Face-style GPT-2 or
// Llama folder, or llama2.c's .bin + tokenizer.bin) from files, a folder or a URL. Someone
// else's files are read only in the training worker, never on this thread: first the config
// (session.describeModelFiles), to say what the model needs and whether it can be fine-tuned
// here; then its tokenizer (session.importTokenizer: its saved text, loaded here with
// tp.loadTokenizer for the token views); then the model (the files pass to the worker uncopied
// and are read in slices) and every view shows it. Choosing another task or architecture
// afterwards returns to the built-in models.
const MB = 1 << 20;

// A folder URL -> the files of the model there: config.json, model.safetensors and
// tokenizer.json (or GPT-2's vocab.json + merges.txt); a .bin URL -> it and tokenizer.bin beside
// it. Only asked for here (HEAD: which tokenizer files there are); every file stays a URL, read
// in the worker within the size its config implies.
export async function filesAtUrl(text, base) {
  const url = new URL(text, base);
  if (url.pathname.endsWith('.bin')) {
    return [{ name: url.pathname.split('/').pop(), url: url.href }, { name: 'tokenizer.bin', url: new URL('tokenizer.bin', url).href }];
  }
  const dir = url.href.endsWith('/') ? url.href : `${url.href}/`;
  const at = (name) => ({ name, url: new URL(name, dir).href });
  const exists = async (name) => {
    const response = await fetch(new URL(name, dir), { method: 'HEAD' });
    await response.arrayBuffer();  // (empty) read to its end, so the request completes
    return response.ok;
  };
  if (!(await exists('config.json'))) throw new Error(`${dir}config.json: not found; give the URL of a model folder or of a llama2.c .bin file`);
  const tokenizer = await exists('tokenizer.json');
  return [at('config.json'), at('model.safetensors'), ...(tokenizer ? [at('tokenizer.json')] : [at('vocab.json'), at('merges.txt')])];
}

export function initImport(app) {
  const $ = (id) => app.$(id);
  const status = (text) => ($('import-status').textContent = text);

  async function load(files, name) {
    try {
      status(app.t('import.reading', { name }));
      const info = await app.session.describeModelFiles(files);
      const c = info.config;
      const summary = app.t('import.summary', {
        name, params: info.parameterCount.toLocaleString(app.state.lang), mb: Math.ceil(info.memory.parameters / MB),
        layers: c.nLayers, heads: c.nHeads, d: c.dModel, vocab: c.vocabSize,
      });
      // The training state alone (16 bytes per parameter), as the core's refusal counts it.
      const train = info.trainable ? app.t('import.trainable') : app.t('import.notTrainable', { mb: Math.floor((16 * info.parameterCount) / MB), limit: info.limits.training / MB });
      status(`${summary} ${train} ${app.t('import.loading')}`);
      const tokenizer = app.tp.loadTokenizer(await app.session.importTokenizer(files));
      const result = await app.useImported({ files, name, tokenizer, info });
      if (result) {
        status(`${app.t('import.loaded', { name })} ${summary} ${train}`);
        app.status('status.loaded', { name });
      }
    } catch (error) {
      status(app.t('import.failed', { name, message: error.message }));
    }
  }

  const pick = (input) => async () => {
    const files = [...(input.files ?? [])];
    input.value = '';
    if (!files.length) return;
    const folder = files[0].webkitRelativePath?.split('/')[0];
    await load(files, folder || files.map((f) => f.name).join(', '));
  };
  $('import-files').addEventListener('change', pick($('import-files')));
  $('import-folder').addEventListener('change', pick($('import-folder')));
  $('import-url-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('import-url').value.trim();
    if (!text) return;
    try {
      await load(await filesAtUrl(text, document.baseURI), text);
    } catch (error) {
      status(app.t('import.failed', { name: text, message: error.message }));
    }
  });
  const enable = () => {
    for (const id of ['import-files', 'import-folder', 'import-url', 'import-url-go']) $(id).disabled = !app.tp;
  };
  app.on('ready', enable);
  enable();
  // Leaving the imported model (another task or architecture) is said where it was loaded.
  app.on('imported', (imported) => {
    if (!imported) status(app.t('import.left'));
  });
}
