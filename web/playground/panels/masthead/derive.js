// masthead/derive.js — the masthead: the button that switches the page to the other language,
// labelled in that language. Pure: (state) -> props.
import { tr } from '../common.js';

export function deriveMasthead(state) {
  const t = tr(state);
  return { langText: t('app.langButton'), langAttr: state.lang === 'en' ? 'ko' : 'en' };
}
