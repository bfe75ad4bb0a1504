// The consumer fixtures' tools, installed once per machine and shared by every clone: each set of
// pinned packages (Vite, webpack, VitePress and TypeScript for wasm_tests/consumers/fixture.mjs;
// Docusaurus, Astro and Next.js for frameworks.mjs) is `npm install`ed into
//
//   ~/.cache/transformer-playground/tools/<set>-<key>/   (XDG_CACHE_HOME or TP_TOOL_CACHE moves it)
//
// where <key> is a hash of the set's package list with its versions, the Node major version and
// the platform (the packages with native parts differ by them). A changed list installs a new set
// beside the old one. scripts/setup.sh fills the cache (`node wasm_tests/consumers/install_tools.mjs`), so the tests only place it: a project gets the set's node_modules as hard links
// (`cp -al`, a copy where links cannot be made), its own folder that its tools may write into,
// and then adds the package itself. The apps' builds stay in the tests.
//
// An install goes to a scratch folder and is renamed into place whole, under a lock, so a broken
// or half-written set is never used and two processes never install the same set at once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export function cacheRoot() {
  return process.env.TP_TOOL_CACHE
    ?? path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'transformer-playground');
}

// The folder of one set: { name, dependencies: { package: version } }.
export function toolSetDir({ name, dependencies }) {
  const key = createHash('sha256').update(JSON.stringify({
    dependencies: Object.entries(dependencies).sort(), node: process.versions.node.split('.')[0], platform: process.platform, arch: process.arch,
  })).digest('hex').slice(0, 16);
  return path.join(cacheRoot(), 'tools', `${name}-${key}`);
}

export function npm(args, cwd) {
  try {
    return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch (error) {
    throw new Error(`npm ${args.join(' ')} (in ${cwd}) failed:\n${error.stdout}\n${error.stderr}`);
  }
}

// Runs fn while holding the lock folder `lock`; a lock older than 20 minutes is left over from a
// crash and is taken over.
export async function withLock(lock, fn) {
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
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

export const isReady = (dir) => existsSync(path.join(dir, 'ready.json'));

// Installs the set unless it is in the cache; resolves with its folder.
export async function installToolSet(set) {
  const dir = toolSetDir(set);
  if (isReady(dir)) return dir;
  return withLock(`${dir}.lock`, async () => {
    if (isReady(dir)) return dir;
    const scratch = `${dir}.installing`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    writeFileSync(path.join(scratch, 'package.json'), `${JSON.stringify({ name: `tp-tools-${set.name}`, private: true, dependencies: set.dependencies }, null, 2)}\n`);
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], scratch);
    writeFileSync(path.join(scratch, 'ready.json'), `${JSON.stringify({ dependencies: set.dependencies, node: process.version }, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
    return dir;
  });
}

// Gives `project` the set's node_modules (installing the set first if it is missing): hard links
// to the cached files in folders of the project's own. The project's node_modules must not exist.
export async function placeToolSet(set, project) {
  const dir = await installToolSet(set);
  const from = path.join(dir, 'node_modules'), into = path.join(project, 'node_modules');
  if (existsSync(into)) throw new Error(`placeToolSet: ${into} already exists`);
  mkdirSync(project, { recursive: true });
  try {
    execFileSync('cp', ['-al', from, into], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch {
    // Another file system than the cache's: a copy.
    rmSync(into, { recursive: true, force: true });
    execFileSync('cp', ['-a', from, into], { stdio: ['ignore', 'ignore', 'pipe'] });
  }
  return into;
}
