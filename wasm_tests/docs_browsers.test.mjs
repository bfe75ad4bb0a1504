// docs/API.md states the browser versions of web/lib/browser-support.js — the table the
// playground's About panel draws — row for row, with the same minimums (so the two cannot drift).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { BROWSER_FEATURES, featureVersion, minimumVersions } from '../web/lib/browser-support.js';
import { STRINGS, COMMON } from '../web/playground/strings/index.js';

const label = (id) => STRINGS.en[`about.feature.${id}`] ?? COMMON[`about.feature.${id}`];
const both = (get) => [...new Set([get('chrome'), get('edge')])].join(' / ');

// The Markdown table docs/API.md must contain for these parts.
function expectedTable(parts, minimumLabel) {
  const min = minimumVersions(parts);
  const rows = BROWSER_FEATURES.filter((f) => parts.includes(f.part)).map((f) =>
    `| ${label(f.id)} | ${f.part} | ${both((b) => featureVersion(f, b))} | ${f.firefox} | ${f.safari} |`);
  const cell = (bs) => `**${[...new Set(bs.map((b) => min[b].version))].join(' / ')}** (${label(min[bs[0]].feature)})`;
  return ['| feature | needed by | Chrome / Edge | Firefox | Safari |', '| --- | --- | --- | --- | --- |', ...rows,
    `| **${minimumLabel}** | | ${cell(['chrome', 'edge'])} | ${cell(['firefox'])} | ${cell(['safari'])} |`].join('\n');
}

test('docs/API.md lists the browser versions the code needs, as web/lib/browser-support.js has them', () => {
  const doc = readFileSync(path.join(root, 'docs', 'API.md'), 'utf8');
  for (const [parts, name] of [[['api', 'page'], 'needs at least'], [['threads'], 'threads need at least']]) {
    const want = expectedTable(parts, name);
    assert.ok(doc.includes(want), `docs/API.md should contain this table (from web/lib/browser-support.js):\n${want}`);
  }
});

// Where each listed feature is used: if the code stops using one, the table (and the minimum it
// may set) must change with it.
const USES = {
  wasmSimd: ['CMakeLists.txt', /-msimd128/],
  moduleWorker: ['web/lib/training-session.js', /new Worker\([^)]*type: 'module'/],
  privateMethods: ['web/lib/training-session.js', /^\s+#\w+\(/m],
  finalizationRegistry: ['web/lib/api.js', /new FinalizationRegistry\(/],
  arrayAt: ['web/components/tp-line-chart.js', /\.at\(-1\)/],
  containerQueries: ['web/styles/playground-css.js', /@container /],
  has: ['web/styles/playground-css.js', /:has\(/],
  mathml: ['web/ui/mathml.js', /createElementNS\(MATHML/],
  constructableSheets: ['web/ui/sheets.js', /adoptedStyleSheets/],
  colorMix: ['web/styles/playground-css.js', /color-mix\(/],
};

test('every feature the table lists for the module and the page is one the code uses', () => {
  for (const f of BROWSER_FEATURES.filter((x) => x.part !== 'threads')) {
    assert.ok(USES[f.id], `no known use of ${f.id}: say where the code uses it`);
    const [file, pattern] = USES[f.id];
    assert.match(readFileSync(path.join(root, file), 'utf8'), pattern, `${f.id}: ${file} no longer uses it`);
  }
});
