// Browser: the playground's Embeddings panel draws the model's own numbers and says only what is
// true of the current model. The position rows shown for the input are the trace's
// (`*.embed.positions`), and the full table's first rows equal them bit for bit (both from the
// core); on the seed's model (head size 3) nothing invites RoPE, which needs an even head size,
// and the positions menu does not offer it; on a RoPE model the rotation shown is the core's
// table for this head size, over positions the model has (its maxLen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, openPage, scrollTo, useBrowser } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });

// What the panel shows, read from its elements (inside the playground's shadow root).
function panel(page) {
  return page.evaluate(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    const m = (id) => root.getElementById(id).matrix;
    const positions = m('emb-positions'), table = m('pe-table');
    const plot = root.getElementById('rope-plot');
    const pos = root.getElementById('f-pos');
    return {
      lead: root.getElementById('emb-lead').textContent,
      title: root.getElementById('pe-h').textContent,
      ropeNote: root.getElementById('rope-note').textContent,
      ropeOffered: pos ? !pos.querySelector('option[value=rope]').disabled : null,
      traced: positions && { rows: positions.rows, cols: positions.cols, data: Array.from(positions.data) },
      table: root.getElementById('pe-table').hidden || !table ? null : { rows: table.rows, cols: table.cols, data: Array.from(table.data.subarray(0, positions.rows * table.cols)) },
      marks: root.getElementById('pe-table').marks,
      rope: plot.table && { shape: plot.table.shape, positions: Number(plot.getAttribute('positions')), vector: plot.vector.length },
      scores: m('rope-scores')?.rows,
    };
  });
}

const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

test('the Embeddings panel shows the model\'s own positions, and only hints that fit the model', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#task=qa-toy`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await scrollTo(page, '>>> #embeddings');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('emb-positions').matrix);

  // The seed's model: sinusoidal positions, d_model 6, 2 heads (head size 3), maxLen 8.
  let p = await panel(page);
  assert.equal(p.traced.rows, 3, 'how are you: three positions traced');
  assert.equal(p.table.cols, 6);
  assert.ok(same(p.table.data, p.traced.data), 'the table\'s first rows are the traced position rows, bit for bit');
  assert.deepEqual(p.marks, { rows: [0, 1, 2] }, 'the rows this input used are outlined');
  assert.match(p.lead, /the position adds its own vector/);
  assert.match(p.ropeNote, /needs an even head size; this model's is 3/);
  assert.doesNotMatch(p.ropeNote, /Choose positions = RoPE/);
  assert.equal(p.ropeOffered, false, 'RoPE is not offered for an odd head size');
  assert.deepEqual(p.rope, { shape: [8, 1], positions: 8, vector: 2 }, 'the rotation of the 2 dimensions RoPE could turn, over the model\'s 8 positions');
  assert.equal(p.scores, 8, 'scores only for positions the model has');

  // A RoPE model (head size 4): nothing is added to the embeddings, the rotation is the model's.
  await page.evaluate(() => (location.hash = '#task=qa-toy&m.pos=rope&m.dModel=8'));
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('pe-h').textContent.includes('RoPE'), { timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('rope-plot').table?.shape[1] === 2, { timeout: 30_000 });
  p = await panel(page);
  assert.equal(p.table, null, 'no table of added positions');
  assert.ok(p.traced.data.every((v) => v === 0), 'the traced position rows are zeros');
  assert.match(p.lead, /adds no position vector/);
  assert.match(p.ropeNote, /rotated pair by pair/);
  assert.deepEqual(p.rope, { shape: [8, 2], positions: 8, vector: 4 });
  assert.equal(p.ropeOffered, true);

  // Learned positions: the table is the model's parameter, its first rows the traced ones.
  await page.evaluate(() => (location.hash = '#task=qa-toy&m.pos=learned'));
  await page.waitForFunction(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    const t = root.getElementById('pe-table');
    return root.getElementById('pe-h').textContent.includes('learned') && !t.hidden && t.matrix?.cols === 6 && t.marks;
  }, { timeout: 30_000 });
  p = await panel(page);
  assert.ok(same(p.table.data, p.traced.data), 'the learned table\'s first rows are the traced position rows');
  assert.deepEqual(problems, []);
  await page.close();
});
