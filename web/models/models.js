// models.js — the checkpoints shipped in this folder (trained by scripts/make_models.mjs), by
// name. Each URL is a literal new URL('./NAME.safetensors', import.meta.url), the form Vite,
// webpack 5 and Rollup see and copy into a build (a name spliced into a template would not be).
// wasm_tests/web_layers.test.mjs checks that this table lists exactly the folder's files.
export const SHIPPED_MODELS = Object.freeze({
  'qa-toy': new URL('./qa-toy.safetensors', import.meta.url),
  reverse: new URL('./reverse.safetensors', import.meta.url),
  translate: new URL('./translate.safetensors', import.meta.url),
  'lm-char': new URL('./lm-char.safetensors', import.meta.url),
  sentiment: new URL('./sentiment.safetensors', import.meta.url),
  'lm-char-llama': new URL('./lm-char-llama.safetensors', import.meta.url),
});
