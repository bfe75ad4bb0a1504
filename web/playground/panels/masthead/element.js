// <tp-masthead-panel> — the masthead: the skip link, the logo and title, the section menu, and
// the Copy link and language buttons. It draws masthead/derive.js's props.
// Intents: copy-link, set { lang }.
import { panel, definePanel, setText } from '../../panel.js';

// The logo is the page's icon (one drawing for both).
const LOGO = new URL('../../../favicon.svg', import.meta.url).href;
const SECTIONS = ['training', 'outputs', 'attention', 'tokens', 'embeddings', 'walkthrough', 'files', 'about'];

const MARKUP = `
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
    ${SECTIONS.map((s) => `<a href="#${s}" data-i18n="nav.${s}"></a>`).join('\n    ')}
  </nav>
  <div class="tools">
    <button type="button" id="share" class="ghost" data-i18n="app.share"></button>
    <button type="button" id="lang" class="ghost lang" data-testid="lang" aria-describedby="lang-hint"></button>
    <span id="lang-hint" class="sr-only" data-i18n="app.langHint"></span>
  </div>
</header>`;

const CSS = `
.masthead { display: flex; flex-wrap: wrap; align-items: center; gap: 12px 24px; padding: 14px 24px; background: var(--_bg); border-bottom: 1px solid var(--_rule); }
.brand { display: flex; align-items: center; gap: 12px; min-width: 0; }
.logo { width: 36px; height: 36px; flex: none; }
h1 { font-size: 19px; font-weight: 700; letter-spacing: -.01em; }
.tagline { margin: 0; color: var(--_muted); font-size: 13px; }
.jump { display: flex; flex-wrap: wrap; gap: 2px 4px; flex: 1; justify-content: center; }
.jump a { color: var(--_muted); text-decoration: none; font-size: 13px; padding: 4px 8px; border-radius: 6px; }
.jump a:hover { color: var(--_fg); background: var(--_panel); }
.tools { display: flex; gap: 8px; margin-left: auto; }
button.lang { min-width: 76px; justify-content: center; }
@container app (max-width: 1100px) { .jump { order: 3; flex-basis: 100%; justify-content: flex-start; } }
@container app (max-width: 640px) {
  .masthead { padding: 10px 12px; }
  .tagline { display: none; }
  .jump { display: none; }
}`;

export class TpMastheadPanel extends panel(MARKUP, CSS) {
  build() {
    this.clicks({ share: 'copy-link' });
    this.$('lang').addEventListener('click', () => this.emit('set', { lang: this.$('lang').getAttribute('lang') }));
  }

  render(props) {
    const lang = this.$('lang');
    setText(lang, props.langText);
    lang.setAttribute('lang', props.langAttr);
  }
}

definePanel('tp-masthead-panel', TpMastheadPanel);
