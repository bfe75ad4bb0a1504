// panels/about.js — the About panel's browser table: which browser versions the playground needs
// and the feature that sets each minimum, drawn from web/lib/browser-support.js (the one table of
// those facts), then what the multi-threaded build will add; and, where the standalone page was
// isolated by the service worker (lib/isolation.js), the undo.
import { BROWSER_FEATURES, featureVersion, minimumVersions } from '../../lib/browser-support.js';
import { isolatingWorker, unisolatePage } from '../../lib/isolation.js';
import { h } from '../../ui/dom.js';

const COLUMNS = [['chrome', 'edge'], ['firefox'], ['safari']];

export function initAbout(app) {
  const cell = (f, browsers) => [...new Set(browsers.map((b) => featureVersion(f, b)))].join(' / ');
  const row = (f) => h('tr', { 'data-feature': f.id },
    h('td', { text: app.t(`about.feature.${f.id}`) }),
    ...COLUMNS.map((bs) => h('td', { class: 'n', text: cell(f, bs) })));
  const minimum = (parts, label) => {
    const min = minimumVersions(parts);
    return h('tr', { class: 'min', 'data-min': parts.join('+') },
      h('th', { scope: 'row', text: label }),
      ...COLUMNS.map((bs) => h('td', { class: 'n' }, [...new Set(bs.map((b) => min[b].version))].join(' / '),
        h('span', { class: 'why', text: app.t(`about.feature.${min[bs[0]].feature}`) }))));
  };
  const table = (parts, label, caption) => h('table', { class: 'compare browsers' },
    h('caption', { text: caption }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: app.t('about.feature') }),
      ...COLUMNS.map((bs) => h('th', { scope: 'col', text: bs.map((b) => app.t(`about.browser.${b}`)).join(' / ') })))),
    h('tbody', {}, ...BROWSER_FEATURES.filter((f) => parts.includes(f.part)).map(row), minimum(parts, label)));

  function render() {
    app.$('browsers').replaceChildren(
      h('div', { class: 'table-wrap' }, table(['api', 'page'], app.t('about.minimum'), app.t('about.browsersCaption'))),
      h('p', { class: 'hint', text: app.t('about.apiOnly', apiOnly()) }),
      h('div', { class: 'table-wrap' }, table(['threads'], app.t('about.threadsMinimum'), app.t('about.threadsCaption'))));
  }
  // "The API alone (web/lib) runs from …": the minimum of the 'api' rows.
  function apiOnly() {
    const min = minimumVersions(['api']);
    return { chrome: min.chrome.version, firefox: min.firefox.version, safari: min.safari.version };
  }
  render();
  app.on('lang', render);

  // The isolation service worker's undo: shown while one is registered on this origin.
  let scopes = [];
  const undo = () => {
    app.$('isolation-undo').hidden = !scopes.length;
    app.$('isolation-undo-note').textContent = scopes.length ? app.t('about.isolationNote', { scope: scopes.join(', ') }) : '';
  };
  if (app.standalone) {
    isolatingWorker().then((found) => {
      scopes = found.map((r) => r.scope);
      undo();
    }, () => {});
    app.$('unisolate').addEventListener('click', () => unisolatePage());
    app.on('lang', undo);
  }
}
