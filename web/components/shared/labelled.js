// labelled.js — the `labels` property every view has: the words it draws, given by the page
// (e.g. viewLabels('ko') from web/ui/strings.js), else the English defaults of the class's
// `static labels`. Setting a new object calls the view's relabel(); the same object again is
// ignored, so a page may hand every view its labels as often as it likes.
import { fill } from '../../ui/i18n.js';

export const Labelled = (Base) => class extends Base {
  get labels() {
    return this._labels ?? null;
  }
  set labels(labels) {
    if (labels === this._labels) return;
    this._labels = labels;
    this.relabel();
  }

  // A label in the page's words: t('heatmap.row') -> 'row' (or '행').
  t(key, vars) {
    return fill(this._labels?.[key] ?? this.constructor.labels?.[key] ?? key, vars);
  }
};
