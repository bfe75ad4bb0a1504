// legend.js — where a chart's legend entries go: in rows of the chart's width, a long name
// broken between its words, so no entry runs past the edge and none is cut mid-word (a reader
// comparing runs reads their whole names). Pure: the text measure comes in.
//
// The legend's entries placed in rows of `width` px: an entry goes on the row if it fits, else
// starts the next; a name wider than a whole row is broken into lines between its words (a
// single word wider than a row, at its characters). Never cut: every line fits. `measure(text)`
// gives a text's width. -> [{ s, x, y, lines: [text], width }] (x from 0, y of the first line's middle).
export function legendLayout(series, width, measure) {
  const SWATCH = 21, GAP = 14, ROW = 16;
  const room = Math.max(20, width - SWATCH);
  const out = [];
  let lx = 0, ly = 9;
  for (const s of series) {
    const lines = wrapWords(String(s.name ?? ''), room, measure);
    const w = SWATCH + Math.max(...lines.map(measure));
    if (lx > 0 && (lines.length > 1 || lx + w > width)) {
      lx = 0;
      ly = (out.at(-1)?.y ?? 9) + ROW * (out.at(-1)?.lines.length ?? 1);
    }
    out.push({ s, x: lx, y: ly, lines, width: w });
    lx += w + GAP;
    // An entry of several lines has its rows to itself.
    if (lines.length > 1) lx = Infinity;
  }
  return out;
}

// `text` in lines of at most `room` px, broken between words (inside a word only when the word
// alone is wider than a line).
function wrapWords(text, room, measure) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (measure(next) <= room) {
      line = next;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (measure(line) > room && line.length > 1) {
      let n = line.length - 1;
      while (n > 1 && measure(line.slice(0, n)) > room) n -= 1;
      lines.push(line.slice(0, n));
      line = line.slice(n);
    }
  }
  lines.push(line);
  return lines;
}
