// The widgets as one ES module for plain HTML pages: web/lib/bundle/transformer-playground-widgets.js,
// built with esbuild from the same sources (web/lib/transformer-playground-widgets.js and every
// widget, view and helper it imports, with the single-threaded glue; <tp-playground> apart),
// minified. A page then
// fetches the page, this file and the .wasm — not the 30-odd modules of a chain five levels deep.
//
// Files the code finds at run time stay where they are and are found there: each module's
// import.meta.url is replaced by its own file's URL, computed from the bundle's
// (new URL('../widgets/tp-train.js', import.meta.url)), so `new URL('./wasm/…', import.meta.url)`,
// the training worker (web/lib/worker.js, loaded as modules when a widget first trains), the
// threaded glue, the checkpoints and the playground's stylesheet resolve exactly as unbundled.
// Written by buildWasm() in scripts/build.mjs (`node scripts/build.mjs wasm`, `npm test`, `npm pack`),
// which runs `node scripts/bundle.mjs`.
// esbuild is a devDependency: the one bundler we use, for this file only (docs/ARCHITECTURE.md).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const BUNDLE_DIR = path.join(root, 'web', 'lib', 'bundle');
export const BUNDLE_FILE = path.join(BUNDLE_DIR, 'transformer-playground-widgets.js');

// <tp-playground> (the whole app, most of the weight) stays a module of its own: the bundle
// imports web/widgets/tp-playground.js from where it is, only on a page that has one.
const playgroundApart = {
  name: 'playground-apart',
  setup(build) {
    build.onResolve({ filter: /\/tp-playground\.js$/ }, ({ path: spec, resolveDir }) => {
      const file = path.resolve(resolveDir, spec);
      return { path: path.relative(BUNDLE_DIR, file).split(path.sep).join('/'), external: true };
    });
  },
};

const ownUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, ({ path: file }) => {
      let text = readFileSync(file, 'utf8');
      if (text.includes('import.meta.url')) {
        const rel = path.relative(BUNDLE_DIR, file).split(path.sep).join('/');
        text = `const __tp_file_url = new URL(${JSON.stringify(rel)}, import.meta.url).href;\n${text.replaceAll('import.meta.url', '__tp_file_url')}`;
      }
      return { contents: text, loader: 'js' };
    });
  },
};

export async function bundleWidgets() {
  let esbuild;
  try {
    esbuild = createRequire(import.meta.url)('esbuild');
  } catch {
    throw new Error('the widgets bundle needs esbuild, a devDependency: run npm ci (or bash scripts/setup.sh)');
  }
  await esbuild.build({
    entryPoints: [path.join(root, 'web', 'lib', 'transformer-playground-widgets.js')],
    outfile: BUNDLE_FILE,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    banner: { js: '/* Transformer Playground widgets in one file (MIT), built from web/ by scripts/bundle.mjs: see docs/WIDGETS.md */' },
    plugins: [playgroundApart, ownUrl],
    logLevel: 'warning',
  });
  return BUNDLE_FILE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  bundleWidgets().catch((e) => {
    console.error(`bundle.mjs: ${e.message}`);
    process.exit(1);
  });
}
