// Running the programs a benchmark row measures: a command that prints one JSON object per line
// (tp_bench natively or under Node, a peer's script), and benchmark pages in headless browsers.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpuByName, threadTimes } from './proc.mjs';

// Runs `cmd args` and resolves with the JSON objects it printed on stdout, one per line; stderr
// goes to ours. `env` is added to this process's environment, `unset` names variables removed.
export function jsonLines(cmd, args, { cwd, env = {}, unset = [] } = {}) {
  const childEnv = { ...process.env, ...env };
  for (const name of unset) delete childEnv[name];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}`));
      resolve(out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)));
    });
  });
}

// One JSON row of kind `bench` from a program (the first such line), or an error naming it.
export async function jsonRow(cmd, args, options = {}, bench = undefined) {
  const rows = await jsonLines(cmd, args, options);
  const row = bench ? rows.find((r) => r.bench === bench) : rows[0];
  if (!row) throw new Error(`${cmd} ${args.join(' ')} printed no ${bench ?? 'JSON'} row`);
  return row;
}

// Headless browser engines kept open for a section (scripts/browsers.mjs launches them): each
// measurement opens a fresh page of `bench/browser/<page>` on a server over the repository root,
// cross-origin isolated so the threaded module can run, and resolves with its window.benchResult.
// An idle engine between measurements costs nothing measurable; relaunching one per row would
// add seconds a row.
export class Browsers {
  constructor(root) {
    this.root = root;
    this.open = new Map();  // engine -> Promise<{ launched, version }>
    this.server = null;
  }

  async available(engine) {
    const { engines } = await import('../../scripts/browsers.mjs');
    return existsSync(engines[engine].executablePath);
  }

  async url() {
    if (!this.server) {
      const { serveStatic } = await import('../../scripts/serve.mjs');
      this.server = serveStatic({ root: this.root, isolated: true });
    }
    return (await this.server).url;
  }

  engine(engine) {
    if (!this.open.has(engine)) {
      this.open.set(engine, (async () => {
        const { launchEngine } = await import('../../scripts/browsers.mjs');
        const launched = await launchEngine(engine);
        return { launched, version: await launched.browser.version() };
      })());
    }
    return this.open.get(engine);
  }

  // `where`: the page and its query, or a function of the server's URL giving them. The result
  // carries `browser_cpu`: the CPU seconds each of the browser's threads (by name) spent while
  // the page ran, and the wall seconds it ran.
  //
  // The page is asked for its result once, by a promise that checks twice a second: waiting with
  // puppeteer's default `waitForFunction` polls on every animation frame, which keeps the page's
  // main thread, compositor and display threads drawing 60 frames a second for the whole run —
  // CPU a page that only waits for its worker does not otherwise spend.
  async page(engine, where) {
    const base = await this.url();
    const { launched, version } = await this.engine(engine);
    const target = typeof where === 'function' ? where(base) : where;
    const page = await launched.context.newPage();
    const pid = launched.browser.process()?.pid;
    try {
      const before = threadTimes(pid), started = Date.now();
      await page.goto(`${base}bench/browser/${target}`);
      const result = await page.evaluate(() => new Promise((resolve) => {
        const check = () => (window.benchResult ? resolve(window.benchResult) : setTimeout(check, 500));
        check();
      }));
      const wall = (Date.now() - started) / 1000;
      if (result.error) throw new Error(`${engine} ${target.split('?')[0]}: ${result.error}`);
      return { ...result, browser: version, browser_cpu: { wall_s: wall, threads: cpuByName(before, threadTimes(pid)) } };
    } finally {
      await page.close().catch(() => {});
    }
  }

  async close() {
    for (const opened of this.open.values()) {
      await opened.then(({ launched }) => launched.close(), () => {}).catch(() => {});
    }
    this.open.clear();
    if (this.server) (await this.server).server.close();
    this.server = null;
  }
}
