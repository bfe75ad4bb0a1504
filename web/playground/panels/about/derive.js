// about/derive.js — the About card's browser tables: which browser versions the playground
// needs and the feature that sets each minimum, from web/lib/browser-support.js (the one table
// of those facts), then what multi-threaded training needs besides; and, while the isolation
// service worker is registered for the page (page.isolationScopes), what undoing it does.
// Pure: (state, run, shown, info, page) -> props.
import { BROWSER_FEATURES, featureVersion, minimumVersions } from '../../../lib/browser-support.js';
import { tr } from '../common.js';

const COLUMNS = [['chrome', 'edge'], ['firefox'], ['safari']];
const joined = (values) => [...new Set(values)].join(' / ');

function table(parts, label, caption, t) {
  const min = minimumVersions(parts);
  return {
    caption,
    head: [t('about.feature'), ...COLUMNS.map((bs) => bs.map((b) => t(`about.browser.${b}`)).join(' / '))],
    rows: BROWSER_FEATURES.filter((f) => parts.includes(f.part)).map((f) => ({ id: f.id, name: t(`about.feature.${f.id}`), cells: COLUMNS.map((bs) => joined(bs.map((b) => featureVersion(f, b)))) })),
    minimum: { parts: parts.join('+'), label, cells: COLUMNS.map((bs) => ({ version: joined(bs.map((b) => min[b].version)), why: t(`about.feature.${min[bs[0]].feature}`) })) },
  };
}

export function deriveAbout(state, run, shown, info, page = {}) {
  const t = tr(state);
  // "The API alone (web/lib) runs from …": the minimum of the 'api' rows.
  const api = minimumVersions(['api']);
  return {
    tables: [table(['api', 'page'], t('about.minimum'), t('about.browsersCaption'), t), table(['threads'], t('about.threadsMinimum'), t('about.threadsCaption'), t)],
    apiOnly: t('about.apiOnly', { chrome: api.chrome.version, firefox: api.firefox.version, safari: api.safari.version }),
    isolationNote: page.isolationScopes?.length ? t('about.isolationNote', { scope: page.isolationScopes.join(', ') }) : null,
  };
}
