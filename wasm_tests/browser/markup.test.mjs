// Browser: text from someone else's files never becomes markup. A tokenizer whose pieces and
// specials are HTML and terminal payloads (payloads.mjs: `<img/src=x/onerror=…>`,
// `</mi><script>…`, `\x1b]0;…\x07`, …, each calling window.pwn() if it ever runs) is imported
// by URL into the playground, saved as a checkpoint for <tp-attention>, and put in a seed
// checkpoint for <tp-walkthrough>. (A checkpoint loaded in the playground trains on its task,
// whose tokenizer the views then show.) Every view and widget that shows a token is walked —
// token chips, every tokenizer row, embeddings, the attention grid, lines and heads, generation
// with its probabilities, every step of the walk-through — and after
// each: no element anywhere (in any shadow root) carries an inline handler or a payload's script,
// no handler ran, and the payloads are on the page as text. A view's SVG export holds them as
// escaped text and still parses. No Content-Security-Policy here: it would hide a handler that
// runs, and what is checked is that nothing is inserted at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openPage, reachWidget, scrollTo, screenshot, useBrowser, waitForText, loadModelByUrl, inRoot } from './browser.mjs';
import { root } from '../../scripts/build.mjs';
import { writePayloadModels, IMG, BOLD, UNK, BOS, PAYLOAD_TEXT } from './payloads.mjs';

const suite = useBrowser({ root });
const OUT = path.join(root, 'test-output', 'payloads');
let files;
suite.before(async () => {
  files = await writePayloadModels(OUT);
});

// Counts the payloads that ran.
const ARM = () => {
  window.__pwned = [];
  window.pwn = (n) => window.__pwned.push(n);
};

// Every element of the page, through every open shadow root: those with an inline handler (no
// code of ours writes one), payload scripts, and the text of the page and its shadow roots.
const AUDIT = () => {
  const all = [];
  const texts = [];
  const walk = (node) => {
    for (const el of node.querySelectorAll('*')) {
      all.push(el);
      if (el.shadowRoot) {
        texts.push(el.shadowRoot.textContent ?? [...el.shadowRoot.childNodes].map((c) => c.textContent).join(''));
        walk(el.shadowRoot);
      }
    }
  };
  walk(document);
  texts.push(document.body.textContent);
  const describe = (el) => el.outerHTML.slice(0, 120);
  return {
    handlers: all.filter((el) => [...el.attributes].some((a) => a.name.toLowerCase().startsWith('on'))).map(describe),
    scripts: all.filter((el) => el.localName === 'script' && el.textContent.includes('pwn')).map(describe),
    ran: window.__pwned,
    text: texts.join('\n'),
  };
};

async function audit(page, where, mustShow) {
  const found = await page.evaluate(AUDIT);
  assert.deepEqual(found.handlers, [], `${where}: elements with inline handlers`);
  assert.deepEqual(found.scripts, [], `${where}: payload scripts inserted`);
  assert.deepEqual(found.ran, [], `${where}: payloads that ran`);
  for (const text of mustShow) assert.ok(found.text.includes(text), `${where}: ${JSON.stringify(text)} is not shown as text`);
}

test('the widgets show a hostile checkpoint\'s tokens as text: attention (grid, lines, heads) and every walk-through step', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}wasm_tests/browser/pages/markup.html`, { beforeLoad: (p) => p.evaluateOnNewDocument(ARM) });
  await page.evaluate((text) => {
    for (const id of ['grid', 'lines', 'heads']) document.getElementById(id).setAttribute('text', text);
  }, PAYLOAD_TEXT);
  for (const id of ['grid', 'lines', 'heads']) {
    assert.equal(await reachWidget(await page.$(`#${id}`)), 'ready', id);
    await audit(page, `<tp-attention view=${id}>`, []);
  }
  // The grid's SVG export: the tokens as escaped text, and a document that still parses.
  const svg = await page.$eval('#grid', (el) => {
    const views = [];
    const walk = (node) => node.querySelectorAll('*').forEach((e) => {
      if (typeof e.toSvg === 'function') views.push(e);
      if (e.shadowRoot) walk(e.shadowRoot);
    });
    walk(el.shadowRoot);
    const text = views[0].toSvg();
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return { parsed: !doc.querySelector('parsererror'), text: doc.documentElement.textContent, tags: [...doc.querySelectorAll('*')].map((e) => e.localName) };
  });
  assert.ok(svg.parsed, 'the SVG export parses');
  assert.ok(svg.text.includes(IMG.slice(0, 12)), `the SVG export holds the token as text (its labels cut short): ${svg.text.slice(0, 300)}`);
  assert.ok(!svg.tags.includes('img') && !svg.tags.includes('b'), `the SVG export has no payload element: ${svg.tags}`);
  await screenshot(page, 'markup-attention', '#grid');

  const walk = await page.$('#walk');
  assert.equal(await reachWidget(walk), 'ready');
  const steps = await page.$eval('#walk', (el) => el.shadowRoot.querySelector('tp-walkthrough-view').steps.length);
  assert.ok(steps >= 20, `${steps} steps`);
  for (let i = 0; i < steps; ++i) {
    await page.$eval('#walk', (el, step) => {
      el.shadowRoot.querySelector('tp-walkthrough-view').step = step;
    }, i);
    await audit(page, `<tp-walkthrough> step ${i + 1}`, i === 0 ? [UNK, BOS] : []);
  }
  // The first step's formula: the encoder's and the decoder's tokens, inside MathML text.
  const math = await page.$eval('#walk', (el) => {
    const view = el.shadowRoot.querySelector('tp-walkthrough-view');
    view.step = 0;
    const m = view.shadowRoot.querySelector('.math math');
    return { text: m.textContent, tags: [...m.querySelectorAll('*')].map((e) => e.localName) };
  });
  assert.ok(math.text.includes(`"▁how ▁ ${UNK} ${UNK} ${UNK}"`), math.text);
  assert.ok(math.text.includes(BOS), math.text);
  assert.deepEqual([...new Set(math.tags)].filter((t) => !['mtext', 'mo', 'mrow', 'mn', 'mspace'].includes(t)), []);
  await screenshot(page, 'markup-walkthrough', '#walk');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the playground shows an imported tokenizer\'s payload pieces as text in every view', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}web/index.html`, { beforeLoad: (p) => p.evaluateOnNewDocument(ARM) });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  // Files → Load a model, by URL.
  await loadModelByUrl(page, `${suite.url}test-output/payloads/${files.folder}`);
  await waitForText(page, '>>> #import-status', /^Loaded /, { timeout: 60_000 });
  await audit(page, 'after the import', []);

  // The probe input is the payload text: the token chips (every tokenizer row), the attention
  // views and the embeddings show its tokens.
  await scrollTo(page, '>>> #input');
  await page.evaluate(inRoot((r, text) => {
    const input = r.getElementById('input');
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, PAYLOAD_TEXT));
  await page.waitForFunction((img) => document.querySelector('tp-playground').shadowRoot.getElementById('tokens').textContent.includes(img), { timeout: 30_000 }, IMG);
  for (const section of ['tokens', 'attention', 'embeddings']) {
    await scrollTo(page, `>>> #${section}`);
    await audit(page, `the ${section} panel`, [IMG, BOLD]);
  }
  await screenshot(page, 'markup-tokens', '>>> #tokens');

  // Generation from the payload prompt: the steps and their probabilities name tokens.
  await scrollTo(page, '>>> #outputs');
  await page.evaluate(inRoot((r, text) => {
    r.getElementById('prompt').value = text;
  }, PAYLOAD_TEXT));
  await page.click('>>> #generate');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('gen-steps').children.length > 0, { timeout: 30_000 });
  await audit(page, 'the outputs panel', [IMG]);

  assert.deepEqual(problems, []);
  await page.close();
});
