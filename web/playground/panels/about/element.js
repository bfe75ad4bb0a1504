// <tp-about-panel> — the About card: the kernels' self-check, the browser tables and what the
// colours mean; where the standalone page was isolated by the service worker, the undo. It draws
// about/derive.js's props. Intent: unisolate.
import { h } from '../../../ui/dom.js';
import { panel, definePanel, setText } from '../../panel.js';

const MARKUP = `
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
</section>`;

const CSS = `
table.browsers { table-layout: fixed; }
table.browsers th, table.browsers td { overflow-wrap: anywhere; padding: 5px 6px; }
table.browsers :is(th, td):first-child { width: 40%; }`;

const table = (d) => h('table', { class: 'compare browsers' },
  h('caption', { text: d.caption }),
  h('thead', {}, h('tr', {}, ...d.head.map((text) => h('th', { scope: 'col', text })))),
  h('tbody', {},
    ...d.rows.map((r) => h('tr', { 'data-feature': r.id }, h('td', { text: r.name }), ...r.cells.map((text) => h('td', { class: 'n', text })))),
    h('tr', { class: 'min', 'data-min': d.minimum.parts }, h('th', { scope: 'row', text: d.minimum.label }),
      ...d.minimum.cells.map((c) => h('td', { class: 'n' }, c.version, h('span', { class: 'why', text: c.why }))))));

export class TpAboutPanel extends panel(MARKUP, CSS) {
  build() {
    this.clicks({ unisolate: 'unisolate' });
  }

  render(props) {
    this.$('isolation-undo').hidden = !props.isolationNote;
    setText(this.$('isolation-undo-note'), props.isolationNote ?? '');
    const [page, threads] = props.tables;
    this.$('browsers').replaceChildren(
      h('div', { class: 'table-wrap' }, table(page)),
      h('p', { class: 'hint', text: props.apiOnly }),
      h('div', { class: 'table-wrap' }, table(threads)));
  }
}

definePanel('tp-about-panel', TpAboutPanel);
