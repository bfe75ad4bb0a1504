// node:test — a chart's legend (web/components/shared/legend.js): entries fill rows of the
// chart's width, a long name goes on lines of its own broken between its words, and no line runs
// past the edge, at a phone's width and a desktop's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legendLayout } from '../web/components/shared/legend.js';

const measure = (text) => 6 * text.length;  // a monospaced measure: 6 px a character
const SWATCH = 21;
const series = (...names) => names.map((name) => ({ name }));

function check(layout, width, joiner = ' ') {
  for (const e of layout) {
    for (const line of e.lines) assert.ok(e.x + SWATCH + measure(line) <= width, `"${line}" at ${e.x} runs past ${width}`);
    assert.equal(e.lines.join(joiner), e.s.name, 'the lines are the whole name, split between words');
  }
  // No two entries overlap.
  const boxes = layout.map((e) => ({ l: e.x, r: e.x + e.width, t: e.y, b: e.y + 16 * (e.lines.length - 1) }));
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => assert.ok(a.r <= b.l || b.r <= a.l || a.b < b.t || b.b < a.t, `entries ${i} and ${boxes.indexOf(b)} overlap`)));
}

test('short names share a row and wrap to the next when the row is full', () => {
  const layout = legendLayout(series('GPT-like', 'Modern', 'BERT-like'), 120, measure);
  check(layout, 120);
  assert.deepEqual(layout.map((e) => [e.x, e.y, e.lines.length]), [[0, 9, 1], [0, 25, 1], [0, 41, 1]]);
  const wide = legendLayout(series('GPT-like', 'Modern', 'BERT-like'), 1400, measure);
  assert.deepEqual(wide.map((e) => e.y), [9, 9, 9]);
  check(wide, 1400);
});

test('a name wider than the chart is broken between its words, never inside one, on rows of its own', () => {
  const long = 'architecture: encoder-decoder, positions: sinusoidal, feed-forward: ReLU and 7 more';
  for (const width of [343, 1100]) {
    const layout = legendLayout(series('a', long, 'b'), width, measure);
    check(layout, width);
    const entry = layout[1];
    if (SWATCH + measure(long) > width) {
      assert.ok(entry.lines.length > 1, `${width} px: the long name takes several lines`);
      for (const line of entry.lines) assert.ok(long.split(' ').join('|').includes(line.split(' ').join('|')), `"${line}" is whole words`);
      assert.equal(entry.x, 0);
      assert.equal(layout[2].y, entry.y + 16 * entry.lines.length, 'the next entry starts below all its lines');
    } else {
      assert.equal(entry.lines.length, 1);
    }
  }
});

test('a single word wider than the chart is the one thing broken inside, and still fits', () => {
  const layout = legendLayout(series('x'.repeat(100)), 200, measure);
  check(layout, 200, '');
  assert.ok(layout[0].lines.length > 1);
});
