// The package as its users get it: `npm pack`, then installed from the tarball into a fresh
// project beside Vite, webpack 5 (+ webpack-cli), VitePress and TypeScript from the npm registry,
// and the apps of this folder built there with each tool's own command:
//
//   vite/        a Vite app (index.html from shared/page.html, shared/app.js, main.js)
//   webpack/     a webpack 5 app (the same page and script, a plain webpack.config.js)
//   vitepress/   a VitePress site with widgets in its Markdown pages, built for the sub-path /course/
//   ts/          a TypeScript consumer (checked by wasm_tests/package.test.mjs)
//
// `consumers()` does it once per tarball and fixture: the project lives in
// test-output/consumers/<hash of the tarball, this folder and the tool versions>/ and is reused
// while they are unchanged (the node suite and both browser engines share one install and one
// build). A lock folder keeps two test processes from building it at once.
//
// The tools themselves are installed once per machine, not per project or clone: `npm install`
// of TOOLS into ~/.cache/transformer-playground/consumers/<hash of TOOLS>/ (XDG_CACHE_HOME or
// TP_CONSUMER_CACHE moves it), which scripts/setup.sh does (`node wasm_tests/consumers/fixture.mjs
// --install-tools`) with the other packages. A project gets the package by `npm install` of its
// tarball and the tools as links to that install (each top-level package and .bin); the apps'
// builds stay in the tests.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { root } from '../../scripts/build.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(root, 'test-output', 'consumers');

// The tools, pinned: exact versions keep the builds reproducible (the registry's newest may differ).
export const TOOLS = { vite: '8.3.8', webpack: '5.112.2', 'webpack-cli': '7.3.1', vitepress: '1.6.4', typescript: '7.0.2' };

// Where the tools are installed: one folder per set of TOOLS (a change installs a new set).
export function toolsDir() {
  const base = process.env.TP_CONSUMER_CACHE
    ?? path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'transformer-playground', 'consumers');
  const key = createHash('sha256').update(JSON.stringify(Object.entries(TOOLS).sort())).digest('hex').slice(0, 16);
  return path.join(base, key);
}

function run(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch (error) {
    throw new Error(`${[cmd, ...args].join(' ')} (in ${cwd}) failed:\n${error.stdout}\n${error.stderr}`);
  }
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name)).sort();
}

// `npm pack` of the repository (the wasm module must be built: npm test builds it first).
// Returns { file, files: [paths in the tarball], size }.
export function pack(dest) {
  mkdirSync(dest, { recursive: true });
  const [info] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], root));
  return { file: path.join(dest, info.filename), files: info.files.map((f) => f.path).sort(), size: info.size };
}

async function locked(fn, dir = outDir) {
  const lock = path.join(dir, '.lock');
  mkdirSync(dir, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test process is building; a lock older than 20 minutes is left over from a crash.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 20 * 60_000) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

// Installs TOOLS into toolsDir() unless they are there; resolves with the folder. The install
// goes to a scratch folder first and is moved in whole, so a broken one is never used.
export function installTools() {
  const dir = toolsDir();
  const ready = path.join(dir, 'ready.json');
  if (existsSync(ready)) return Promise.resolve(dir);
  const parent = path.dirname(dir);
  return locked(async () => {
    if (existsSync(ready)) return dir;
    const scratch = `${dir}.installing`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    writeFileSync(path.join(scratch, 'package.json'), `${JSON.stringify({ name: 'tp-consumer-tools', private: true, dependencies: TOOLS }, null, 2)}\n`);
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], scratch);
    writeFileSync(path.join(scratch, 'ready.json'), `${JSON.stringify({ tools: TOOLS }, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
    return dir;
  }, parent);
}

// Links every top-level package of the tools' install (and its .bin) into a project's
// node_modules, beside what the project installed itself.
function linkTools(tools, project) {
  const from = path.join(tools, 'node_modules'), into = path.join(project, 'node_modules');
  mkdirSync(into, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry.startsWith('.') && entry !== '.bin') continue;
    const target = path.join(into, entry);
    if (existsSync(target)) continue;
    symlinkSync(path.join(from, entry), target, 'dir');
  }
}

// Builds what is missing and resolves with { dir, tarball: { file, files, size }, vite, webpack,
// vitepress (the folders to serve), logs: { vite, webpack, vitepress } (each build's output) }.
export async function consumers() {
  const tools = await installTools();
  return locked(async () => {
    const staging = path.join(outDir, 'pack');
    rmSync(staging, { recursive: true, force: true });
    const tarball = pack(staging);
    const hash = createHash('sha256').update(readFileSync(tarball.file)).update(JSON.stringify(TOOLS));
    for (const f of filesUnder(here)) hash.update(path.relative(here, f)).update(readFileSync(f));
    const key = hash.digest('hex').slice(0, 16);
    const dir = path.join(outDir, key);
    const result = {
      dir, tarball: { ...tarball, file: path.join(dir, path.basename(tarball.file)) },
      vite: path.join(dir, 'vite', 'dist'), webpack: path.join(dir, 'webpack'), vitepress: path.join(dir, 'vitepress', '.vitepress', 'dist'),
    };
    const readyFile = path.join(dir, 'ready.json');
    if (existsSync(readyFile)) return { ...result, logs: JSON.parse(readFileSync(readyFile, 'utf8')) };

    // A fresh project (older ones go: one per run is enough).
    for (const old of readdirSync(outDir)) if (old !== 'pack' && old !== '.lock') rmSync(path.join(outDir, old), { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(tarball.file, result.tarball.file);
    for (const app of ['vite', 'webpack', 'vitepress', 'ts']) cpSync(path.join(here, app), path.join(dir, app), { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({
      name: 'tp-consumers', private: true, type: 'module',
      dependencies: { 'transformer-playground': `file:./${path.basename(tarball.file)}` },
    }, null, 2)}\n`);
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], dir);
    linkTools(tools, dir);

    // The apps' pages and script; the icon each site serves (so no request 404s).
    const page = readFileSync(path.join(here, 'shared', 'page.html'), 'utf8');
    const icon = path.join(dir, 'node_modules', 'transformer-playground', 'web', 'favicon.svg');
    writeFileSync(path.join(dir, 'vite', 'index.html'), page.replace('<!-- script -->', '<script type="module" src="./main.js"></script>'));
    writeFileSync(path.join(dir, 'webpack', 'index.html'), page.replace('<!-- script -->', '<script defer src="dist/main.js"></script>'));
    for (const app of ['vite', 'webpack']) cpSync(path.join(here, 'shared', 'app.js'), path.join(dir, app, 'app.js'));
    cpSync(icon, path.join(dir, 'vite', 'public', 'favicon.svg'));
    cpSync(icon, path.join(dir, 'webpack', 'favicon.svg'));
    cpSync(icon, path.join(dir, 'vitepress', 'public', 'favicon.svg'));
    // The VitePress recipe's one copy: a checkpoint a page names goes into public/.
    cpSync(path.join(dir, 'node_modules', 'transformer-playground', 'web', 'models', 'qa-toy.safetensors'),
      path.join(dir, 'vitepress', 'public', 'models', 'qa-toy.safetensors'));

    const bin = (name) => path.join(dir, 'node_modules', '.bin', name);
    const logs = {
      vite: run(bin('vite'), ['build'], path.join(dir, 'vite')),
      webpack: run(bin('webpack'), ['--config', 'webpack.config.js'], path.join(dir, 'webpack')),
      vitepress: run(bin('vitepress'), ['build', 'vitepress'], dir),
    };
    writeFileSync(readyFile, JSON.stringify(logs));
    return { ...result, logs };
  });
}

// `node wasm_tests/consumers/fixture.mjs --install-tools`: scripts/setup.sh's step.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--install-tools')) {
  const dir = toolsDir();
  const had = existsSync(path.join(dir, 'ready.json'));
  installTools().then(
    () => console.log(had ? 'setup: consumer fixtures\' tools present' : `setup: consumer fixtures' tools installed in ${dir}`),
    (e) => {
      console.error(`setup: installing the consumer fixtures' tools failed: ${e.message}`);
      process.exit(1);
    },
  );
}
