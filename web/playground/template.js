// template.js — the playground's markup, one copy for the page (web/index.html) and the
// <tp-playground> element: mountPlayground() writes it into the element's shadow root. Every
// [data-i18n] text and [data-i18n-aria] label is filled from strings.js; ids are local to the
// shadow root, so several playgrounds can share a page. The panels are the page's <main> only
// when the playground is the page (standalone); embedded in a documentation page, whose own
// <main> holds it, they are a plain container.
// The logo is the page's icon (one drawing for both).
const LOGO = new URL('../favicon.svg', import.meta.url).href;

export const template = ({ standalone }) => `
<div class="tp-app" part="app">
  <p class="error widget-error" id="widget-error" role="alert" hidden></p>
  <p class="error widget-error" id="link-error" data-testid="link-error" role="alert" hidden></p>
  <header class="masthead" id="masthead">
    <button type="button" class="skip" data-skip-to="main" data-i18n="nav.skip"></button>
    <div class="brand">
      <img class="logo" src="${LOGO}" alt="">
      <div>
        <h1 data-i18n="app.title"></h1>
        <p class="tagline" data-i18n="app.tagline"></p>
      </div>
    </div>
    <nav class="jump" aria-label="sections" data-i18n-aria="nav.sections">
      <a href="#training" data-i18n="nav.training"></a>
      <a href="#outputs" data-i18n="nav.outputs"></a>
      <a href="#attention" data-i18n="nav.attention"></a>
      <a href="#tokens" data-i18n="nav.tokens"></a>
      <a href="#embeddings" data-i18n="nav.embeddings"></a>
      <a href="#walkthrough" data-i18n="nav.walkthrough"></a>
      <a href="#files" data-i18n="nav.files"></a>
      <a href="#about" data-i18n="nav.about"></a>
    </nav>
    <div class="tools">
      <button type="button" id="share" class="ghost" data-i18n="app.share"></button>
      <button type="button" id="lang" class="ghost lang" data-testid="lang" aria-describedby="lang-hint"></button>
      <span id="lang-hint" class="sr-only" data-i18n="app.langHint"></span>
    </div>
  </header>

  <div class="trainbar" id="trainbar" role="region" data-i18n-aria="train.region">
    <div class="buttons">
      <button type="button" id="train" class="primary" data-testid="train" disabled><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2.5v11l9-5.5z" fill="currentColor"/></svg> <span data-i18n="train.start"></span></button>
      <button type="button" id="pause" data-testid="pause" disabled><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><rect x="3.5" y="2.5" width="3" height="11" rx="1" fill="currentColor"/><rect x="9.5" y="2.5" width="3" height="11" rx="1" fill="currentColor"/></svg> <span data-i18n="train.pause"></span></button>
      <button type="button" id="step" data-testid="step" disabled><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M3 2.5v11l7-5.5z" fill="currentColor"/><rect x="11" y="2.5" width="2.5" height="11" rx="1" fill="currentColor"/></svg> <span data-i18n="train.step"></span></button>
      <button type="button" id="reset" data-testid="reset" disabled><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M3.2 8a4.8 4.8 0 1 0 1.6-3.6" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/><path d="M2.5 1.8v3.6h3.6" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/></svg> <span data-i18n="train.reset"></span></button>
    </div>
    <div class="progress-wrap">
      <div class="progress-text"><span id="step-text"></span><span id="status" role="status" aria-live="polite"></span></div>
      <div class="progress" aria-hidden="true"><div id="progress-bar"></div></div>
    </div>
    <dl class="stats">
      <div><dt data-i18n="train.loss"></dt><dd class="big" data-testid="loss" id="loss">–</dd></div>
      <div><dt data-i18n="train.valLoss"></dt><dd id="val-loss">–</dd></div>
      <div><dt id="metric-name" data-i18n="train.metric"></dt><dd id="metric">–</dd></div>
      <div class="wide-only"><dt data-i18n="train.tokensPerSec"></dt><dd id="tps">–</dd></div>
      <div class="wide-only"><dt data-i18n="train.threads"></dt><dd id="threads" data-testid="threads">–</dd></div>
      <div class="wide-only"><dt data-i18n="train.lr"></dt><dd id="lr">–</dd></div>
      <div class="wide-only"><dt data-i18n="train.gradNorm"></dt><dd id="grad-norm">–</dd></div>
    </dl>
    <div class="timeline" id="timeline-row">
      <button type="button" id="play" class="icon-button" data-testid="play" data-i18n-aria="time.play"><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path id="play-icon" d="M4 2.5v11l9-5.5z" fill="currentColor"/></svg></button>
      <label class="sr-only" for="timeline" data-i18n="time.label"></label>
      <input type="range" id="timeline" data-testid="timeline" min="0" max="0" value="0" step="1" data-step="0">
      <output id="timeline-step" for="timeline" aria-live="off"></output>
      <label class="speed"><span data-i18n="time.speed"></span> <select id="speed" data-testid="speed"></select></label>
    </div>
    <p class="train-error" id="train-error" role="alert" hidden></p>
  </div>

  <div class="layout">
    <aside class="setup" id="setup" aria-labelledby="setup-h">
      <h2 id="setup-h" data-i18n="setup.title"></h2>
      <label class="field-label" for="task" data-i18n="setup.task"></label>
      <select id="task" data-testid="task"></select>
      <p class="hint" id="task-desc"></p>
      <div id="custom" hidden>
        <div id="custom-text" hidden>
          <label class="field-label" for="custom-text-input" data-i18n="setup.yourText"></label>
          <textarea id="custom-text-input" rows="5" spellcheck="false"></textarea>
          <label class="field-label" for="custom-tokenizer" data-i18n="setup.tokenizer"></label>
          <select id="custom-tokenizer"></select>
        </div>
        <div id="custom-pairs" hidden>
          <label class="field-label" for="custom-pairs-input" data-i18n="setup.yourPairs"></label>
          <textarea id="custom-pairs-input" rows="5" spellcheck="false"></textarea>
          <p class="hint" data-i18n="setup.pairsHint"></p>
        </div>
        <p class="hint" id="custom-note" data-testid="custom-note"></p>
        <p class="error" id="custom-error" data-testid="custom-error" role="alert" hidden></p>
        <button type="button" id="custom-apply" class="small" data-i18n="setup.apply"></button>
      </div>

      <h3 data-i18n="setup.presets"></h3>
      <div class="presets" id="presets"></div>

      <div class="group-head">
        <h3 data-i18n="setup.architecture"></h3>
        <button type="button" id="reset-arch" class="link" data-i18n="setup.resetAll"></button>
      </div>
      <p class="hint" id="arch-summary"></p>
      <div class="fields" id="arch-fields"></div>

      <div class="group-head">
        <h3 data-i18n="setup.training"></h3>
        <button type="button" id="reset-train" class="link" data-i18n="setup.resetAll"></button>
      </div>
      <div class="fields" id="train-fields"></div>
      <div class="fields" id="seed-fields"></div>
      <p class="error" id="config-error" role="alert" hidden></p>
    </aside>

    <${standalone ? 'main' : 'div'} id="main">
      <div class="duo">
        <section id="training" class="card" aria-labelledby="training-h">
        <div class="card-head"><h2 id="training-h" data-i18n="training.title"></h2><p class="lead" data-i18n="training.lead"></p></div>
        <div class="runs">
          <div class="runs-head">
            <button type="button" id="pin-run" class="small" data-testid="pin-run" data-i18n="runs.keep" disabled></button>
            <button type="button" id="forget-runs" class="link" data-testid="forget-runs" data-i18n="runs.forget" hidden></button>
          </div>
          <ul class="run-list" id="run-list" data-testid="run-list" data-i18n-aria="runs.list"></ul>
        </div>
        <tp-line-chart id="loss-chart" data-testid="loss-chart" height="230" log-y></tp-line-chart>
        <tp-line-chart id="metric-chart" height="150"></tp-line-chart>
        <p class="hint" id="training-note"></p>
        <p class="error" id="diverged" data-testid="diverged" role="status" hidden></p>
        <p class="hint" id="threads-note" data-testid="threads-note"></p>
        <button type="button" id="isolate" data-testid="isolate" data-i18n="threads.isolate" hidden></button>
      </section>
        <section id="outputs" class="card" aria-labelledby="out-h">
        <div class="card-head"><h2 id="out-h" data-i18n="out.title"></h2><p class="lead" data-i18n="out.lead"></p></div>
        <form id="gen-form" class="prompt-row">
          <label class="sr-only" for="prompt" data-i18n="out.prompt"></label>
          <input id="prompt" data-testid="prompt" type="text" spellcheck="false" autocomplete="off">
          <button type="submit" id="generate" class="primary" data-testid="generate" disabled></button>
        </form>
        <div class="samples" id="prompt-samples"></div>
        <div class="fields gen-fields" id="gen-fields"></div>
        <div class="output-box">
          <div class="output-label" data-i18n="out.output"></div>
          <output id="output" data-testid="output" for="prompt" aria-live="polite"></output>
          <p class="hint" id="gen-meta"></p>
        </div>
        <p class="hint" id="out-at-step" data-testid="out-at-step"></p>
        <div class="gen-steps" id="gen-steps" role="listbox" data-i18n-aria="out.steps"></div>
        <tp-prob-bars id="prob-bars"></tp-prob-bars>
        <div class="kv">
          <button type="button" id="kv-compare" class="small" data-i18n="out.kvCompare" disabled></button>
          <p class="hint" id="kv-result" aria-live="polite"></p>
        </div>
        <div class="kv-picture" id="kv-picture" hidden>
          <h3 data-i18n="out.kvTitle"></h3>
          <p class="hint" data-i18n="out.kvLead"></p>
          <tp-kv-cache id="kv-cache" data-testid="kv-cache"></tp-kv-cache>
          <p class="hint" id="kv-work" data-testid="kv-work"></p>
        </div>
      </section>
      </div>
      <section id="attention" class="card" aria-labelledby="attn-h">
        <div class="card-head"><h2 id="attn-h" data-i18n="attn.title"></h2><p class="lead" data-i18n="attn.lead"></p></div>
        <div class="probe-row">
          <label class="field-label" for="attn-input" data-i18n="attn.input"></label>
          <input id="attn-input" type="text" spellcheck="false" autocomplete="off">
        </div>
        <div class="controls-row">
          <div class="segmented" id="attn-kinds" role="radiogroup" data-i18n-aria="attn.kind"></div>
          <label class="inline"><span data-i18n="attn.stage"></span> <select id="attn-stage"></select></label>
          <label class="inline"><span data-i18n="attn.layerPick"></span> <select id="attn-layer"></select></label>
          <label class="inline"><span data-i18n="attn.headPick"></span> <select id="attn-head"></select></label>
        </div>
        <p class="hint" id="attn-note"></p>
        <div class="attn-grid">
          <div class="stack">
            <tp-attention-grid id="attn-grid"></tp-attention-grid>
            <div class="compare" id="attn-compare" hidden>
              <label class="inline"><span data-i18n="attn.compare"></span> <select id="attn-compare-run" data-testid="compare-run"></select></label>
              <tp-attention-grid id="attn-grid-b" data-testid="attn-grid-b"></tp-attention-grid>
              <p class="hint" id="attn-compare-note"></p>
            </div>
            <tp-head-view id="head-view"></tp-head-view>
          </div>
          <div class="stack">
            <tp-heatmap id="attn-main" min="0" max="1" colormap="sequential" max-cell="64" values></tp-heatmap>
            <tp-score-explain id="score-explain" data-testid="score-explain"></tp-score-explain>
            <div>
              <tp-heatmap id="attn-mask" colormap="sequential" min="0" max="0" max-cell="22" no-legend></tp-heatmap>
              <p class="hint" id="mask-note"></p>
            </div>
          </div>
        </div>
      </section>
      <section id="tokens" class="card" aria-labelledby="tokens-h">
        <div class="card-head"><h2 id="tokens-h" data-i18n="tokens.title"></h2><p class="lead" data-i18n="tokens.lead"></p></div>
        <div class="row">
          <label class="field-label" for="input" data-i18n="tokens.input"></label>
          <div class="input-row">
            <input id="input" type="text" spellcheck="false" autocomplete="off">
            <div class="samples" id="samples"></div>
          </div>
        </div>
        <div class="segmented" id="tok-kinds" role="radiogroup" data-i18n-aria="tokens.kind"></div>
        <p class="hint" id="tok-note"></p>
        <tp-token-chips id="chips" side="in"></tp-token-chips>
        <div class="table-wrap"><table class="compare" id="tok-compare"></table></div>
      </section>
      <section id="embeddings" class="card" aria-labelledby="emb-h">
        <div class="card-head"><h2 id="emb-h" data-i18n="emb.title"></h2><p class="lead" id="emb-lead"></p></div>
        <div class="grid3">
          <tp-heatmap id="emb-tokens" row-side="in" colormap="diverging"></tp-heatmap>
          <tp-heatmap id="emb-positions" row-side="in" colormap="diverging"></tp-heatmap>
          <tp-heatmap id="emb-sum" row-side="in" colormap="diverging"></tp-heatmap>
        </div>
        <h3 id="pe-h" data-i18n="emb.peTitle"></h3>
        <p class="hint" id="pe-note"></p>
        <tp-heatmap id="pe-table" colormap="diverging" max-cell="18"></tp-heatmap>
        <div id="rope-box">
          <h3 data-i18n="rope.title"></h3>
          <p class="hint" id="rope-note"></p>
          <div class="grid2">
            <tp-rope-plot id="rope-plot" positions="8"></tp-rope-plot>
            <tp-line-chart id="rope-distance" height="230"></tp-line-chart>
          </div>
          <tp-heatmap id="rope-scores" colormap="diverging" max-cell="22"></tp-heatmap>
        </div>
        <h3 data-i18n="emb.onehotTitle"></h3>
        <p class="hint" id="onehot-note"></p>
        <div class="grid2">
          <tp-heatmap id="onehot" row-side="in" colormap="sequential" min="0" max="1" max-cell="26"></tp-heatmap>
          <tp-heatmap id="cosine" row-side="in" col-side="in" colormap="diverging" min="-1" max="1" max-cell="34"></tp-heatmap>
        </div>
      </section>
      <section id="walkthrough" class="card" aria-labelledby="wt-h">
        <div class="card-head"><h2 id="wt-h" data-i18n="wt.title"></h2><p class="lead" data-i18n="wt.lead"></p></div>
        <div class="controls-row">
          <div class="segmented" id="wt-source" role="radiogroup" data-i18n-aria="wt.source"></div>
        </div>
        <p class="hint" id="wt-note"></p>
        <tp-walkthrough-view id="wt"></tp-walkthrough-view>
      </section>
      <section id="files" class="card" aria-labelledby="files-h">
        <div class="card-head"><h2 id="files-h" data-i18n="files.title"></h2><p class="lead" data-i18n="files.lead"></p></div>
        <div class="buttons-row">
          <button type="button" id="save" disabled data-i18n="files.save"></button>
          <label class="button" for="load-file"><span data-i18n="files.load"></span></label>
          <input type="file" id="load-file" accept=".safetensors,application/octet-stream" class="sr-only">
          <button type="button" id="copy-link" data-i18n="files.copyLink"></button>
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
      </section>
      <section id="about" class="card" aria-labelledby="about-h">
        <div class="card-head"><h2 id="about-h" data-i18n="about.title"></h2><p class="lead" data-i18n="about.lead"></p></div>
        <tp-self-check></tp-self-check>
        <h3 data-i18n="about.browsers"></h3>
        <p class="hint" data-i18n="about.browsersHint"></p>
        <div id="browsers"></div>
        <p class="hint" id="about-colors" data-i18n="about.colors"></p>
        <div id="isolation-undo" hidden>
          <h3 data-i18n="about.isolation"></h3>
          <p class="hint" id="isolation-undo-note"></p>
          <button type="button" class="small" id="unisolate" data-testid="unisolate" data-i18n="about.unisolate"></button>
        </div>
      </section>
    </${standalone ? 'main' : 'div'}>
  </div>
</div>`;
