// A static file server for web/ (and for the browser tests and the benchmark).
//
// Plain by default: no special headers, exactly like the static hosts documentation pages live
// on, so anything that works here works there. `isolated` adds the two headers that make a page
// cross-origin isolated — Cross-Origin-Opener-Policy: same-origin and
// Cross-Origin-Embedder-Policy: require-corp — to every response (worker scripts need them too),
// so training runs on the threaded module: `npm start` serves that way. Tests can add headers
// (a strict CSP) or serve under a sub-path to prove the widgets do not depend on being at the root.
//   node scripts/serve.mjs [--port N] [--root DIR] [--isolated]   (env PORT also sets the port)
import http from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root as repoRoot } from './build.mjs';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.safetensors': 'application/octet-stream',
};

export const ISOLATION_HEADERS = Object.freeze({
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
});

// Starts a server; resolves with { server, url }. `prefix` mounts the folder under a sub-path;
// `isolated` sends ISOLATION_HEADERS with every response.
export function serveStatic({ root = path.join(repoRoot, 'web'), port = 0, host = '127.0.0.1', headers = {}, prefix = '/', isolated = false } = {}) {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    if (isolated) for (const [name, value] of Object.entries(ISOLATION_HEADERS)) res.setHeader(name, value);
    const url = new URL(req.url, 'http://localhost');
    let pathname = decodeURIComponent(url.pathname);
    if (!pathname.startsWith(prefix)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    pathname = pathname.slice(prefix.length - 1);
    let file = path.resolve(base, `.${pathname}`);
    if (!file.startsWith(base)) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('forbidden');
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
      const size = statSync(file).size;
      // One byte range (`Range: bytes=a-b`), as static hosts answer it: the page reads the
      // 28-byte header of a llama2.c model before deciding to load the whole file.
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      const end = range && range[2] !== '' ? Math.min(Number(range[2]), size - 1) : size - 1;
      const partial = range && start <= end;
      res.writeHead(partial ? 206 : 200, {
        'content-type': types[path.extname(file)] ?? 'application/octet-stream',
        'content-length': partial ? end - start + 1 : size,
        'cache-control': 'no-cache',
        'accept-ranges': 'bytes',
        ...(partial ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
        ...headers,
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file, partial ? { start, end } : {}).pipe(res);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://${host}:${actual}${prefix}` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const port = Number(arg('--port') ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve.mjs: port must be an integer 0-65535, got '${arg('--port') ?? process.env.PORT}'`);
    process.exit(2);
  }
  const isolated = process.argv.includes('--isolated');
  serveStatic({ root: arg('--root') ?? path.join(repoRoot, 'web'), port, isolated })
    .then(({ url }) => console.log(`Transformer Playground is being served at ${url}${isolated ? ' (cross-origin isolated)' : ''}  (Ctrl+C stops it)`))
    .catch((e) => {
      console.error(`serve.mjs: cannot listen on port ${port}: ${e.message}`);
      process.exit(1);
    });
}
