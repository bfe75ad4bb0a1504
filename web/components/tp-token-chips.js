// <tp-token-chips> — tokens as coloured chips, each with its id underneath, wrapped to the
// container's width. Hovering (or arrow keys) shows the token's text span and id and emits
// tp-hover { side, index }; a highlight from another view outlines that chip.
//
//   el.tokens = [{ text, id, span: [begin, end] (UTF-16 offsets into source) }, ...];  el.source = text;
// Attributes: side ('enc' | 'dec', for hover sync), label, compact (smaller chips), no-ids.
// Tokens that share one character of the source (byte pieces of 한) share its colour.
import { VizElement } from './shared/viz-element.js';
import { chipColor } from './shared/colormap.js';
import { measureText } from './shared/scene.js';
import { defineElement } from '../ui/element.js';

export class TpTokenChips extends VizElement {
  static observedAttributes = ['label', 'side', 'compact', 'no-ids'];
  static labels = { ...VizElement.labels, 'chips.none': '(no tokens)', 'chips.token': 'token', 'chips.describe': '{n} tokens: {list}' };

  constructor() {
    super();
    this._tokens = [];
    this.source = '';
    this.cursor = -1;
  }

  get tokens() {
    return this._tokens;
  }
  set tokens(list) {
    this._tokens = list ?? [];
    this.cursor = -1;
    this.dataChanged();
  }

  // Colour index per token: a new colour whenever the span starts a new stretch of text.
  _colours() {
    const out = [];
    let k = -1, lastBegin = null;
    for (const tok of this._tokens) {
      const begin = tok.span ? tok.span[0] : null;
      if (begin === null || begin !== lastBegin) ++k;
      lastBegin = begin;
      out.push(k);
    }
    return out;
  }

  layout(width) {
    const th = this.theme();
    const dark = th.dark;
    const compact = this.hasAttribute('compact'), ids = !this.hasAttribute('no-ids');
    const size = compact ? 12 : 14, idSize = 10, padX = compact ? 6 : 8, gap = 4;
    const chipH = (compact ? 20 : 26) + (ids ? 13 : 0);
    const items = [];
    const colours = this._colours();
    const hl = this._highlight, side = this.getAttribute('side');
    let x = 0, y = 0;
    this._boxes = [];
    if (!this._tokens.length) {
      items.push({ type: 'text', x: 0, y: 12, text: this.t('chips.none'), fill: th.muted, size: 12 });
      return { width, height: 24, items, font: th.font, monoFont: th.mono };
    }
    this._tokens.forEach((tok, i) => {
      const text = tok.text === '' ? '∅' : tok.text;
      const w = Math.max(measureText(text, size, { family: th.font }), ids ? measureText(String(tok.id), idSize, { family: th.mono }) : 0) + 2 * padX;
      if (x > 0 && x + w > width) {
        x = 0;
        y += chipH + gap;
      }
      const special = /^<[A-Z]+>$/.test(tok.text);
      const on = (hl && hl.side === side && hl.index === i) || this.hover?.token?.index === i || this.cursor === i;
      items.push({ type: 'rect', x: x + 0.5, y: y + 0.5, w: w - 1, h: chipH - 1, r: 5, fill: special ? th.hatch : chipColor(colours[i], dark), stroke: on ? th.fg : special ? th.hatchLine : null, lw: on ? 2 : 1 });
      items.push({ type: 'text', x: x + w / 2, y: y + (compact ? 10.5 : 13.5), text, fill: th.fg, size, anchor: 'middle', weight: special ? 600 : 500 });
      if (ids) items.push({ type: 'text', x: x + w / 2, y: y + chipH - 8, text: String(tok.id), fill: th.muted, size: idSize, anchor: 'middle', mono: true });
      this._boxes.push({ x, y, w, h: chipH, i });
      x += w + gap;
    });
    return { width, height: y + chipH + 1, items, font: th.font, monoFont: th.mono };
  }

  _hitIndex(i) {
    const tok = this._tokens[i];
    if (!tok) return null;
    const b = this._boxes[i];
    const span = tok.span && this.source ? `\n"${this.source.slice(tok.span[0], tok.span[1])}"  [${tok.span[0]}, ${tok.span[1]})` : '';
    const side = this.getAttribute('side');
    return { key: i, tip: `${this.t('chips.token')} ${i}: ${tok.text}\nid ${tok.id}${span}`, token: side ? { side, index: i } : { side: null, index: i }, x: b.x + b.w - 10, y: b.y + b.h - 6 };
  }

  hitTest(x, y) {
    const b = this._boxes?.find((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h);
    return b ? this._hitIndex(b.i) : null;
  }

  onKey(e) {
    const n = this._tokens.length;
    if (!n) return;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') this.cursor = Math.min(n - 1, this.cursor + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') this.cursor = Math.max(0, this.cursor - 1);
    else if (e.key === 'Escape') this.cursor = -1;
    else return;
    e.preventDefault();
    this.setHover(this.cursor >= 0 ? this._hitIndex(this.cursor) : null);
  }

  describe() {
    return this.t('chips.describe', { n: this._tokens.length, list: this._tokens.slice(0, 40).map((t) => `${t.text} (${t.id})`).join(', ') });
  }

  tableData() {
    return { head: ['#', this.t('chips.token'), 'id'], rows: this._tokens.slice(0, 200).map((t, i) => [String(i), t.text, String(t.id)]) };
  }
}

defineElement('tp-token-chips', TpTokenChips);
