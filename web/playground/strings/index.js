// strings/index.js — the playground's strings in English and Korean, and t(lang, key, vars),
// which looks a key up in the page's language, then in English, then in the table of what every
// language writes alike (common.js), then in the strings the widgets show too (web/ui/strings.js);
// a key found nowhere shows as itself. Each language is one folder, split by part of the page.
import { translator } from '../../ui/i18n.js';
import { SHARED } from '../../ui/strings.js';
import common from './common.js';
import enSetup from './en/setup.js';
import enPanels from './en/panels.js';
import koSetup from './ko/setup.js';
import koPanels from './ko/panels.js';

export const STRINGS = Object.freeze({
  en: Object.freeze({ ...enSetup, ...enPanels }),
  ko: Object.freeze({ ...koSetup, ...koPanels }),
});
export const COMMON = common;

export const t = translator(STRINGS, { en: COMMON }, SHARED);
