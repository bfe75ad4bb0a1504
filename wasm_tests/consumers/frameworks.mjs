// Documentation sites that render on a server, built from `npm pack` with their own commands:
//
//   docusaurus/  Docusaurus 3: the widgets entry from a client module, widgets in MDX, a shipped
//                checkpoint by name (model="reverse"), the site's own dark-mode toggle
//   astro/       Astro 5: the widgets entry from a page's <script> (the frontmatter runs on the
//                server only), widgets in .astro pages
//   next/        Next.js 16, app router, static export (Turbopack): a 'use client' component
//                importing the widgets, typed by 'transformer-playground/react'; a server
//                component calling the API at build time
//
// Each app lives in test-output/frameworks/<app>/ and keeps its install there between runs: two
// steps, kept apart —
//   installTools(app)  the app's pinned tools (TOOLS[app]) placed from the machine's tool cache
//                      (tool_cache.mjs, filled by scripts/setup.sh), only when they changed;
//   buildApp(app)      the packed tarball unpacked as node_modules/transformer-playground (the
//                      package has no dependencies, so this is all npm would do), the app's files
//                      copied in, its build run; only when the tarball, the files or the tools
//                      changed (so the node suite and both browser engines share one build).
// frameworkApp(app) does both, under a lock (both browser engines' suites and `npm test`'s
// early build of the apps may ask at once: one builds, the others reuse), and resolves with
// { dir, site (the folder to serve), log }.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from '../../scripts/build.mjs';
import { pack, run } from './fixture.mjs';
import { placeToolSet, toolSetDir, withLock } from './tool_cache.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
// The tools' telemetry off (it could only fail here: no network but the registry).
Object.assign(process.env, { NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' });
const outDir = path.join(root, 'test-output', 'frameworks');

// The tools, pinned (the registry's newest may differ), and how each app is built and served.
export const TOOLS = {
  docusaurus: {
    '@docusaurus/core': '3.10.2', '@docusaurus/preset-classic': '3.10.2', '@mdx-js/react': '3.1.1', clsx: '2.1.1',
    'prism-react-renderer': '2.4.1', react: '19.3.1', 'react-dom': '19.3.1',
  },
  astro: { astro: '5.18.2' },
  next: { next: '16.4.6', react: '19.3.1', 'react-dom': '19.3.1', typescript: '5.9.3', '@types/react': '19.3.0', '@types/node': '20.19.43' },
};
export const TOOL_SETS = Object.fromEntries(Object.entries(TOOLS).map(([app, dependencies]) => [app, { name: app, dependencies }]));
const BUILD = {
  docusaurus: { command: ['docusaurus', 'build'], site: 'build' },
  astro: { command: ['astro', 'build'], site: 'dist' },
  next: { command: ['next', 'build'], site: 'out' },
};

// The app's package.json. Not "type": "module" for Docusaurus: its route registry would then be
// parsed as strict ESM by webpack, which leaves react-loadable's require.resolveWeak() calls
// unrewritten, and the server render fails ("require.resolveWeak is not a function").
const manifest = (app) => `${JSON.stringify({ name: `tp-${app}-site`, private: true, ...(app !== 'docusaurus' && { type: 'module' }), dependencies: TOOLS[app] }, null, 2)}\n`;

const hashOf = (...parts) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest('hex').slice(0, 16);
const filesUnder = (dir) => readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile())
  .map((e) => path.join(e.parentPath ?? e.path, e.name)).sort();

export async function installTools(app) {
  const dir = path.join(outDir, app);
  const stamp = path.join(dir, '.tools.json');
  const tools = JSON.stringify({ set: toolSetDir(TOOL_SETS[app]), tools: TOOLS[app] });
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === tools && existsSync(path.join(dir, 'node_modules'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  await placeToolSet(TOOL_SETS[app], dir);
  writeFileSync(path.join(dir, 'package.json'), manifest(app));
  writeFileSync(stamp, tools);
  return dir;
}

let packed = null;  // one `npm pack` per process
export function buildApp(app) {
  const dir = path.join(outDir, app);
  packed ??= pack(path.join(outDir, '.pack'));
  const source = path.join(here, app);
  const key = hashOf(readFileSync(packed.file), manifest(app), ...filesUnder(source).flatMap((f) => [path.relative(source, f), readFileSync(f)]));
  const readyFile = path.join(dir, '.built.json');
  const site = path.join(dir, BUILD[app].site);
  if (existsSync(readyFile)) {
    const ready = JSON.parse(readFileSync(readyFile, 'utf8'));
    if (ready.key === key) return { dir, site, log: ready.log };
  }
  const target = path.join(dir, 'node_modules', 'transformer-playground');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  // -m: files dated now, not npm pack's fixed 1985 date, which would let the tools' build caches
  // take a changed file for the one they cached; and those caches go anyway.
  run('tar', ['-xzmf', packed.file, '-C', target, '--strip-components=1'], dir);
  for (const cache of ['node_modules/.cache', '.docusaurus', '.next', '.astro']) rmSync(path.join(dir, cache), { recursive: true, force: true });
  cpSync(source, dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), manifest(app));
  // The icon a site serves (so no request 404s), from the package.
  if (app === 'docusaurus') cpSync(path.join(target, 'web', 'favicon.svg'), path.join(dir, 'static', 'img', 'favicon.svg'));
  rmSync(site, { recursive: true, force: true });
  const log = run(path.join(dir, 'node_modules', '.bin', BUILD[app].command[0]), BUILD[app].command.slice(1), dir);
  // A tool stopped by a signal may still exit 0: only a site that is there counts as built.
  if (!existsSync(site) || readdirSync(site).length === 0) throw new Error(`${app}: ${BUILD[app].command.join(' ')} ended without writing ${site}:\n${log}`);
  writeFileSync(readyFile, JSON.stringify({ key, log }));
  return { dir, site, log };
}

export function frameworkApp(app) {
  if (!TOOLS[app]) throw new Error(`unknown app '${app}'; the apps are ${Object.keys(TOOLS).join(', ')}`);
  return withLock(path.join(outDir, '.lock'), async () => {
    await installTools(app);
    return buildApp(app);
  });
}

