// <tp-files-panel> — the Model file card: save, load, run files (a run's recorded history), the
// pre-trained checkpoints, copy a link, and "Load a model" from another project (files, a
// folder, a URL). It draws files/derive.js's props. Intents: save, load-file { file }, load-shipped { name }, copy-link, save-run,
// open-run { file }, import-files { files, name }, import-url { text }.
import { h } from '../../../ui/dom.js';
import { panel, definePanel, setText } from '../../panel.js';

const MARKUP = `
<section id="files" class="card" aria-labelledby="files-h">
  <div class="card-head"><h2 id="files-h" data-i18n="files.title"></h2><p class="lead" data-i18n="files.lead"></p></div>
  <div class="buttons-row">
    <button type="button" id="save" disabled data-i18n="files.save"></button>
    <label class="button" for="load-file"><span data-i18n="files.load"></span></label>
    <input type="file" id="load-file" accept=".safetensors,application/octet-stream" class="sr-only">
    <button type="button" id="copy-link" data-i18n="files.copyLink"></button>
  </div>
  <h3 data-i18n="files.runs"></h3>
  <p class="hint" data-i18n="files.runsHint"></p>
  <div class="buttons-row">
    <button type="button" id="save-run" data-testid="save-run" disabled data-i18n="files.saveRun"></button>
    <label class="button" for="open-run"><span data-i18n="files.openRun"></span></label>
    <input type="file" id="open-run" data-testid="open-run" accept=".tphistory,application/octet-stream" class="sr-only">
  </div>
  <h3 data-i18n="files.pretrained"></h3>
  <p class="hint" data-i18n="files.pretrainedHint"></p>
  <div class="buttons-row" id="pretrained"></div>
  <p class="hint" id="files-status" role="status" aria-live="polite"></p>
  <h3 data-i18n="import.title"></h3>
  <p class="hint" data-i18n="import.hint"></p>
  <div class="buttons-row">
    <label class="button" for="import-files"><span data-i18n="import.files"></span></label>
    <input type="file" id="import-files" multiple disabled class="sr-only">
    <label class="button" for="import-folder"><span data-i18n="import.folder"></span></label>
    <input type="file" id="import-folder" webkitdirectory multiple disabled class="sr-only">
  </div>
  <form class="buttons-row" id="import-url-form">
    <label class="inline"><span data-i18n="import.url"></span> <input type="text" id="import-url" inputmode="url" spellcheck="false" disabled></label>
    <button type="submit" id="import-url-go" disabled data-i18n="import.urlGo"></button>
  </form>
  <p class="hint" id="import-status" role="status" aria-live="polite"></p>
</section>`;

const CSS = `
.buttons-row { display: flex; flex-wrap: wrap; gap: 8px; }
.buttons-row > button { max-width: 100%; text-align: start; white-space: normal; }
label.button:focus-within { outline: 2px solid var(--_accent); outline-offset: 2px; }`;

export class TpFilesPanel extends panel(MARKUP, CSS) {
  build() {
    this.clicks({ save: 'save', 'copy-link': 'copy-link', 'save-run': 'save-run' });
    this.$('open-run').addEventListener('change', (e) => {
      const file = e.target.files?.[0];
      e.target.value = '';
      if (file) this.emit('open-run', { file });
    });
    this.$('load-file').addEventListener('change', (e) => {
      const file = e.target.files?.[0];
      e.target.value = '';
      if (file) this.emit('load-file', { file });
    });
    const pick = (input) => () => {
      const files = [...(input.files ?? [])];
      input.value = '';
      if (!files.length) return;
      const folder = files[0].webkitRelativePath?.split('/')[0];
      this.emit('import-files', { files, name: folder || files.map((f) => f.name).join(', ') });
    };
    for (const id of ['import-files', 'import-folder']) this.$(id).addEventListener('change', pick(this.$(id)));
    this.$('import-url-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.emit('import-url', { text: this.$('import-url').value.trim() });
    });
  }

  render(props) {
    this.$('save').disabled = props.saveDisabled;
    this.$('save-run').disabled = props.saveRunDisabled;
    const sig = JSON.stringify(props.pretrained);
    if (sig !== this._pretrained) {
      this._pretrained = sig;
      this.$('pretrained').replaceChildren(...props.pretrained.map((p) => h('button', { type: 'button', class: 'small', text: p.text, disabled: p.disabled,
        onclick: () => this.emit('load-shipped', { name: p.name }) })));
    }
    for (const id of ['import-files', 'import-folder', 'import-url', 'import-url-go']) this.$(id).disabled = props.importDisabled;
    if (props.status !== null) setText(this.$('files-status'), props.status);
    if (props.importStatus !== null) setText(this.$('import-status'), props.importStatus);
  }
}

definePanel('tp-files-panel', TpFilesPanel);
