// The `size` section of `npm run bench`: what a documentation page downloads before it shows a
// widget, served as a host that compresses serves it (brotli).
//
// A static server over web/ answers each request with `Content-Encoding: br` for the types hosts
// compress and for the .wasm (its precompressed .wasm.br when there is one, else compressed here
// at the same level), and logs each request in order. Headless Chromium opens each page of PAGES
// and waits until its widget has rendered. Per page: the files fetched, their raw, brotli and
// gzip bytes, and how many requests went out before the .wasm's (the page's icon not counted). The same rows are written into
// docs/WIDGETS.md ("What a page loads") and docs/PERFORMANCE.md ("Page weight") between markers,
// and wasm_tests/browser/size.test.mjs measures them again and checks the documents say what the
// built files weigh.
import http from 'node:http';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');

export const PAGES = [
  { path: 'docs/embed-tokenizer.html', label: 'one `<tp-tokenizer>`, modules (`web/docs/embed-tokenizer.html`)' },
  { path: 'docs/embed-tokenizer-bundle.html', label: 'one `<tp-tokenizer>`, the single-file bundle (`web/docs/embed-tokenizer-bundle.html`)' },
];
export const DOCS = { widgets: path.join(root, 'docs', 'WIDGETS.md'), performance: path.join(root, 'docs', 'PERFORMANCE.md') };

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.wasm': 'application/wasm',
  '.json': 'application/json', '.safetensors': 'application/octet-stream' };
const COMPRESSED = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.wasm']);

const brotli = (bytes) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
const cache = new Map();  // file -> { raw, br, gz } byte counts and the brotli bytes
export function weigh(file) {
  const mtime = statSync(file).mtimeMs;
  const hit = cache.get(file);
  if (hit?.mtime === mtime) return hit;
  const bytes = readFileSync(file);
  const compressible = COMPRESSED.has(path.extname(file));
  const pre = `${file}.br`;
  const brBytes = !compressible ? bytes : existsSync(pre) && statSync(pre).mtimeMs >= mtime ? readFileSync(pre) : brotli(bytes);
  const entry = { mtime, raw: bytes.length, br: brBytes.length, gz: compressible ? gzipSync(bytes, { level: 9 }).length : bytes.length, body: brBytes, encoded: compressible };
  cache.set(file, entry);
  return entry;
}

// A server over web/ that sends brotli and logs [{ path, raw, br, gz }] in request order.
export function compressingServer() {
  const log = [];
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '');
    const file = path.resolve(web, rel || 'index.html');
    if (!file.startsWith(web) || !existsSync(file) || statSync(file).isDirectory()) {
      log.push({ path: rel, missing: true });
      res.writeHead(404).end();
      return;
    }
    const w = weigh(file);
    log.push({ path: rel, raw: w.raw, br: w.br, gz: w.gz });
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store',
      ...(w.encoded ? { 'content-encoding': 'br', vary: 'accept-encoding' } : {}), 'content-length': w.body.length });
    res.end(w.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, log, url: `http://127.0.0.1:${server.address().port}/` })));
}

// Opens each page in `browser` (puppeteer) and resolves with its row: { page, files, raw, br, gz,
// beforeWasm (requests before the .wasm's), list }.
export async function measurePages(browser) {
  const { server, log, url } = await compressingServer();
  const rows = [];
  try {
    for (const p of PAGES) {
      log.length = 0;
      const page = await browser.newPage();
      await page.goto(`${url}${p.path}`);
      await page.waitForSelector('tp-tokenizer[data-ready=true]', { timeout: 120_000 });
      await page.close();
      // The page's icon is left out: each engine asks for it at its own moment (or not at all).
      const icon = log.findIndex((r) => r.path.endsWith('favicon.svg'));
      if (icon >= 0) log.splice(icon, 1);
      const missing = log.filter((r) => r.missing);
      if (missing.length) throw new Error(`${p.path}: not found: ${missing.map((r) => r.path).join(', ')}`);
      const sum = (k) => log.reduce((s, r) => s + r[k], 0);
      rows.push({ page: p.path, label: p.label, files: log.length, raw: sum('raw'), br: sum('br'), gz: sum('gz'),
        beforeWasm: log.findIndex((r) => r.path.endsWith('.wasm')), list: log.map((r) => r.path) });
    }
  } finally {
    server.close();
  }
  return rows;
}

const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;

// The table the documents show.
export function sizeTable(rows) {
  return ['| page | files | raw | brotli | gzip -9 | requests before the `.wasm` |', '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.label} | ${r.files} | ${mb(r.raw)} | ${mb(r.br)} | ${mb(r.gz)} | ${r.beforeWasm} |`)].join('\n');
}

const BEGIN = '<!-- page weight: generated by npm run bench -- --only size -->';
const END = '<!-- end of generated part -->';
export function docRegion(text) {
  const a = text.indexOf(BEGIN), b = text.indexOf(END, a);
  if (a < 0 || b < 0) throw new Error(`no ${BEGIN} … ${END} region`);
  return text.slice(a + BEGIN.length, b).trim();
}
function writeRegion(file, table) {
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(BEGIN), b = text.indexOf(END, a);
  if (a < 0 || b < 0) throw new Error(`${path.relative(root, file)}: no ${BEGIN} … ${END} region`);
  writeFileSync(file, `${text.slice(0, a)}${BEGIN}\n${table}\n${text.slice(b)}`);
}

// The bench section: measure, print, write the documents; returns the rows for latest.json.
export async function runSize({ printTable }) {
  const { launchEngine } = await import('../scripts/browsers.mjs');
  if (!existsSync(path.join(web, 'lib', 'bundle', 'transformer-playground-widgets.js'))) {
    const { spawnSync } = await import('node:child_process');
    if (spawnSync(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')], { stdio: 'inherit' }).status !== 0) throw new Error('scripts/bundle.mjs failed');
  }
  const launched = await launchEngine('chromium');
  let rows;
  try {
    rows = await measurePages({ newPage: () => launched.context.newPage() });
  } finally {
    await launched.close();
  }
  const wasm = weigh(path.join(web, 'lib', 'wasm', 'transformer_playground.wasm'));
  printTable('page weight: one widget, served with brotli (Chromium; each file counted once)', ['page', 'files', 'raw', 'brotli', 'gzip -9', 'before .wasm'],
    rows.map((r) => [r.page, String(r.files), mb(r.raw), mb(r.br), mb(r.gz), String(r.beforeWasm)]));
  console.log(`of which transformer_playground.wasm: ${mb(wasm.raw)} raw, ${mb(wasm.br)} brotli, ${mb(wasm.gz)} gzip -9`);
  const table = sizeTable(rows);
  for (const file of Object.values(DOCS)) writeRegion(file, table);
  console.log('wrote the page-weight tables of docs/WIDGETS.md and docs/PERFORMANCE.md');
  return { pages: rows.map(({ label, ...r }) => r), wasm: { raw: wasm.raw, br: wasm.br, gz: wasm.gz } };
}
