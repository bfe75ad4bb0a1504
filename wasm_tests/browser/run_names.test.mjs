// Browser: comparisons named as the teacher named them — runs kept from presets are named by
// their presets and a labelled run by its label, in the chart's legend and the runs list; the
// legends stay whole inside the card (wrapped between words, never past the edge) and the
// "Beside it, the kept run" menu stays out of the heatmap, at a phone's and a desktop's width; a
// copied link with kept runs, opened in a browser that never trained them, trains them all with
// one click, one after the other; a run file's runs are kept under the file's labels, and a file
// the page cannot read is said to be so in the page's language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STRICT_CSP, launchBrowser, openPage, scrollTo, sleep, useBrowser, waitForModel, waitForText } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });
const PRESET_BUTTON = { seed: 1, gpt: 2, bert: 3, t5: 4, modern: 5 };  // state.js PRESETS, in order
const LONG_LABEL = 'the seed example again with every setting left as it was for the class';

const keptCount = (page) => page.evaluate(() => document.querySelector('tp-playground').app.kept.entries.length);

async function ready(page) {
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await waitForModel(page);
}

// One step of the current set-up, then "Keep this run".
async function stepAndKeep(page) {
  const before = await keptCount(page);
  await page.waitForSelector('>>> [data-testid=step]:not([disabled])', { timeout: 30_000 });
  await page.click('>>> [data-testid=step]');
  await scrollTo(page, '>>> [data-testid=pin-run]');  // the Training card draws a run's progress once in view
  await page.waitForSelector('>>> [data-testid=pin-run]:not([disabled])', { timeout: 30_000 });
  await page.click('>>> [data-testid=pin-run]');
  await page.waitForFunction((n) => document.querySelector('tp-playground').app.kept.entries.length === n, {}, before + 1);
}

// Every legend entry of the loss chart inside the chart and the card, whole, apart from the
// others and above the plot.
async function checkLegend(page, width) {
  await scrollTo(page, '>>> [data-testid=loss-chart]');
  await sleep(300);
  const got = await page.evaluate(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    const chart = root.querySelector('[data-testid=loss-chart]');
    chart.render();
    const canvas = chart.shadowRoot.querySelector('canvas').getBoundingClientRect();
    const card = root.querySelector('#training').getBoundingClientRect();
    return { legend: chart.legendBoxes(), canvas: { left: canvas.left, right: canvas.right, width: canvas.width }, card: { left: card.left, right: card.right },
      names: chart.series.map((s) => s.name), doc: document.documentElement.scrollWidth, viewport: innerWidth };
  });
  const where = `${width} px`;
  assert.ok(got.doc <= got.viewport, `${where}: the page does not scroll sideways (${got.doc} > ${got.viewport})`);
  assert.ok(got.canvas.left >= got.card.left && got.canvas.right <= got.card.right + 0.5, `${where}: the chart stays in its card`);
  assert.deepEqual(got.legend.entries.map((e) => e.name), got.names, `${where}: one legend entry per series`);
  got.legend.entries.forEach((e, i) => {
    assert.equal(e.lines.join(' '), e.name, `${where}: "${e.name}" is whole, broken only between words`);
    assert.ok(e.left >= 0 && e.right <= got.legend.width, `${where}: "${e.name}" (${e.left}–${e.right}) stays inside the chart (${got.legend.width})`);
    e.widths.forEach((w, j) => assert.ok(e.left + 21 + w <= got.legend.width, `${where}: line ${j} of "${e.name}" fits`));
    assert.ok(e.bottom <= got.legend.plotTop, `${where}: "${e.name}" is above the plot`);
    for (const f of got.legend.entries.slice(i + 1)) {
      const apart = e.right <= f.left || f.right <= e.left || e.bottom <= f.top || f.bottom <= e.top;
      assert.ok(apart, `${where}: "${e.name}" and "${f.name}" overlap`);
    }
  });
  return got.legend;
}

// The kept run's menu beside the attention grid: inside its column, apart from the heatmap.
async function checkCompareMenu(page, width) {
  await scrollTo(page, '>>> #attn-compare');
  await sleep(300);
  const box = await page.evaluate(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    const r = (el) => { const b = el.getBoundingClientRect(); return { left: b.left, right: b.right, top: b.top, bottom: b.bottom }; };
    return { menu: r(root.querySelector('[data-testid=compare-run]')), column: r(root.querySelector('#attn-compare')), heatmap: r(root.querySelector('#attn-main')),
      card: r(root.querySelector('#attention')), hidden: root.querySelector('#attn-compare').hidden };
  });
  assert.equal(box.hidden, false, `${width} px: the comparison is shown`);
  assert.ok(box.menu.right <= box.column.right + 0.5 && box.menu.left >= box.column.left - 0.5, `${width} px: the menu stays in its column`);
  assert.ok(box.menu.right <= box.card.right, `${width} px: the menu stays in the card`);
  const apart = box.menu.right <= box.heatmap.left || box.heatmap.right <= box.menu.left || box.menu.bottom <= box.heatmap.top || box.heatmap.bottom <= box.menu.top;
  assert.ok(apart, `${width} px: the menu does not cover the heatmap`);
}

test('three runs kept from presets are named by their presets and a labelled one by its label; legends and the run menu stay in their boxes at 375 and 1440 px', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0`, { viewport: { width: 1440, height: 1000 } });
  await ready(page);
  await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
  for (const preset of ['gpt', 'modern', 't5']) {
    await page.click(`>>> #presets button:nth-child(${PRESET_BUTTON[preset]})`);
    await waitForModel(page);
    await stepAndKeep(page);
  }
  await page.click(`>>> #presets button:nth-child(${PRESET_BUTTON.seed})`);
  await waitForModel(page);
  await page.locator('>>> [data-testid=run-label]').fill(LONG_LABEL);
  await page.waitForFunction((l) => document.querySelector('tp-playground').app.state.label === l, {}, LONG_LABEL);
  // The label rides in the link.
  assert.equal(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('l'), LONG_LABEL);
  await stepAndKeep(page);
  const expected = ['GPT-like', 'Modern', 'Encoder-decoder + ALiBi', LONG_LABEL];
  await page.waitForFunction((n) => document.querySelector('tp-playground').shadowRoot.querySelectorAll('[data-testid=run-list] > li[data-kept=true]').length === n, {}, 4);
  assert.deepEqual(await page.$eval('>>> [data-testid=loss-chart]', (el) => el.series.map((s) => s.name)), expected);
  assert.deepEqual(await page.$$eval('>>> [data-testid=run-list] > li .name', (els) => els.map((e) => e.textContent)), expected);
  assert.equal(await page.$eval('>>> [data-testid=runs-holds]', (el) => el.textContent), 'kept: 4');
  // Every kept run's label in the link's run entries.
  const runs = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).getAll('run');
  assert.deepEqual(runs.map((r) => new URLSearchParams(r).get('l')), [null, null, null, LONG_LABEL]);

  const wide = await checkLegend(page, 1440);
  assert.ok(wide.entries.every((e) => e.lines.length === 1), 'at 1440 px every name is one line');
  await checkCompareMenu(page, 1440);
  await page.setViewport({ width: 375, height: 800 });
  await sleep(500);
  const narrow = await checkLegend(page, 375);
  assert.ok(narrow.entries.find((e) => e.name === LONG_LABEL).lines.length > 1, 'at 375 px the long label wraps');
  await checkCompareMenu(page, 375);

  // Saved in a run file, forgotten, and opened again: each run keeps the name the file gives it.
  const { body } = await suite.browser.download(() => page.click('>>> [data-testid=save-run]'));
  const dir = mkdtempSync(path.join(tmpdir(), 'tp-run-names-'));
  try {
    writeFileSync(path.join(dir, 'lesson.tphistory'), body);
    writeFileSync(path.join(dir, 'broken.tphistory'), Buffer.concat([Buffer.from('TPHISTRY'), Buffer.from([1, 0, 0, 0, 0xff, 0xff, 0, 0]), Buffer.from('{')]));
    await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
    await page.waitForFunction(() => document.querySelector('tp-playground').app.kept.entries.length === 0);
    const input = await page.$('>>> [data-testid=open-run]');
    await input.uploadFile(path.join(dir, 'lesson.tphistory'));
    await waitForText(page, '>>> #files-status', /^Opened lesson\.tphistory: 4 runs/);
    const opened = await page.evaluate(() => document.querySelector('tp-playground').app.kept.entries.map((e) => e.setup.label));
    assert.deepEqual(opened.slice(0, 4), expected, 'the opened runs are named by the file\'s labels');
    // A file the page cannot read, in the page's language.
    await page.click('>>> [data-testid=lang]');
    await page.waitForSelector('html[lang=ko]');
    const again = await page.$('>>> [data-testid=open-run]');
    await again.uploadFile(path.join(dir, 'broken.tphistory'));
    await waitForText(page, '>>> #files-status', /broken\.tphistory은\(는\) 실행 파일로 열 수 없습니다: header length 항목이 맞지 않습니다/);
    await page.click('>>> [data-testid=lang]');
    await page.waitForSelector('html[lang=en]');
    await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const preset of ['gpt', 'modern', 't5']) {
    await page.click(`>>> #presets button:nth-child(${PRESET_BUTTON[preset]})`);
    await waitForModel(page);
    await stepAndKeep(page);
  }

  // Korean names the presets in Korean.
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=loss-chart]').series[0]?.name === 'GPT 스타일');
  assert.deepEqual(await page.$eval('>>> [data-testid=loss-chart]', (el) => el.series.map((s) => s.name)), ['GPT 스타일', '최신', '인코더-디코더 + ALiBi']);
  await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
  assert.deepEqual(problems, []);
  await page.close();
});

test('a copied link with kept runs, opened where they were never trained, trains them all with one click', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0&t.totalSteps=30`, { viewport: { width: 1280, height: 900 } });
  await ready(page);
  await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
  for (const [preset, label] of [['gpt', 'first'], ['modern', 'second']]) {
    await page.click(`>>> #presets button:nth-child(${PRESET_BUTTON[preset]})`);
    await waitForModel(page);
    await page.locator('>>> [data-testid=run-label]').fill(label);
    await page.waitForFunction((l) => document.querySelector('tp-playground').app.state.label === l, {}, label);
    await page.click('>>> [data-testid=train]');
    await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 60_000 });
    await page.click('>>> [data-testid=pin-run]');
    await page.waitForFunction((n) => document.querySelector('tp-playground').app.kept.entries.length === n, {}, label === 'first' ? 1 : 2);
  }
  const hash = await page.evaluate(() => location.hash);
  assert.equal(new URLSearchParams(hash.slice(1)).getAll('run').length, 2);
  await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
  await page.close();

  // Another browser (a fresh profile: nothing stored) opens the link.
  const other = await launchBrowser();
  try {
    const opened = await openPage(other, `${suite.url}${hash}`, { viewport: { width: 1280, height: 900 } });
    const p2 = opened.page;
    await ready(p2);
    const names = () => p2.$$eval('>>> [data-testid=run-list] > li[data-kept=true] .name', (els) => els.map((e) => e.textContent));
    await p2.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelectorAll('[data-testid=run-list] > li[data-kept=true]').length === 2);
    assert.deepEqual(await names(), ['first — not trained in this browser: set it up and train it', 'second — not trained in this browser: set it up and train it']);
    assert.equal(await p2.$eval('>>> [data-testid=train-kept]', (el) => [el.hidden, el.textContent].join(' ')), 'false Train every kept run (2)');
    // How far it has got, as it trains them one after the other.
    const seen = [];
    await p2.exposeFunction('__progress', (text) => seen.push(text));
    await p2.evaluate(() => {
      const el = document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=train-kept-progress]');
      new MutationObserver(() => window.__progress(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
    });
    await p2.click('>>> [data-testid=train-kept]');
    await waitForText(p2, '>>> [data-testid=train-kept-progress]', /^Trained 2 kept runs\.$/, { timeout: 120_000 });
    assert.ok(seen.includes('Training kept run 1 of 2: first') && seen.includes('Training kept run 2 of 2: second'), seen.join(' | '));
    const kept = await p2.evaluate(() => document.querySelector('tp-playground').app.kept.entries.map((e) => ({ label: e.setup.label, step: e.record?.report?.step ?? null })));
    assert.deepEqual(kept, [{ label: 'first', step: 30 }, { label: 'second', step: 30 }]);
    assert.deepEqual(await names(), ['first', 'second']);
    assert.equal(await p2.$eval('>>> [data-testid=train-kept]', (el) => el.hidden), true, 'nothing is left to train');
    await p2.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=loss-chart]').dataset.series === '2');
    assert.deepEqual(await p2.$eval('>>> [data-testid=loss-chart]', (el) => el.series.map((s) => s.name)), ['first', 'second']);
    assert.deepEqual([...problems, ...opened.problems], []);
    await p2.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
    await p2.close();
  } finally {
    await other.close();
  }
});
