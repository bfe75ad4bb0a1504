// docs/WIDGETS.md's webpack recipe: a plain webpack 5 configuration, nothing special.
import path from 'node:path';

export default {
  mode: 'production',
  context: import.meta.dirname,
  entry: './main.js',
  output: { path: path.resolve(import.meta.dirname, 'dist'), clean: true },
  performance: { hints: false },  // the .wasm file is 1.4 MB, on purpose
};
