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
// The tools are installed once per machine, not per project or clone (tool_cache.mjs: the set
// TOOL_SET in ~/.cache/transformer-playground/, which scripts/setup.sh fills); a project starts
// from the set's node_modules and `npm install`s the tarball into it, offline, as a project that
// has its tools adds a package. The apps' builds stay in the tests.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from '../../scripts/build.mjs';
import { placeToolSet, withLock } from './tool_cache.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(root, 'test-output', 'consumers');

// The tools, pinned: exact versions keep the builds reproducible (the registry's newest may differ).
export const TOOLS = { vite: '8.3.8', webpack: '5.112.2', 'webpack-cli': '7.3.1', vitepress: '1.6.4', typescript: '7.0.2' };
export const TOOL_SET = { name: 'bundlers', dependencies: TOOLS };

export function run(cmd, args, cwd) {
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

export function locked(fn) {
  return withLock(path.join(outDir, '.lock'), fn);
}

// Builds what is missing and resolves with { dir, tarball: { file, files, size }, vite, webpack,
// vitepress (the folders to serve), logs: { vite, webpack, vitepress } (each build's output) }.
export function consumers() {
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
    await placeToolSet(TOOL_SET, dir);
    cpSync(tarball.file, result.tarball.file);
    for (const app of ['vite', 'webpack', 'vitepress', 'ts']) cpSync(path.join(here, app), path.join(dir, app), { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({
      name: 'tp-consumers', private: true, type: 'module',
      dependencies: { 'transformer-playground': `file:./${path.basename(tarball.file)}`, ...TOOLS },
    }, null, 2)}\n`);
    // The tools are in node_modules already (with npm's record of them): this adds the package.
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], dir);

    // The apps' pages and script; the icon each site serves (so no request 404s).
    const page = readFileSync(path.join(here, 'shared', 'page.html'), 'utf8');
    const icon = path.join(dir, 'node_modules', 'transformer-playground', 'web', 'favicon.svg');
    writeFileSync(path.join(dir, 'vite', 'index.html'), page.replace('<!-- script -->', '<script type="module" src="./main.js"></script>'));
    writeFileSync(path.join(dir, 'webpack', 'index.html'), page.replace('<!-- script -->', '<script defer src="dist/main.js"></script>'));
    for (const app of ['vite', 'webpack']) cpSync(path.join(here, 'shared', 'app.js'), path.join(dir, app, 'app.js'));
    cpSync(icon, path.join(dir, 'vite', 'public', 'favicon.svg'));
    cpSync(icon, path.join(dir, 'webpack', 'favicon.svg'));
    cpSync(icon, path.join(dir, 'vitepress', 'public', 'favicon.svg'));
    // A run file a page names is a static file beside it, as the apps' <tp-replay> has it.
    const lesson = path.join(dir, 'node_modules', 'transformer-playground', 'web', 'docs', 'qa-toy.tphistory');
    cpSync(lesson, path.join(dir, 'vite', 'public', 'qa-toy.tphistory'));
    cpSync(lesson, path.join(dir, 'webpack', 'qa-toy.tphistory'));
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
