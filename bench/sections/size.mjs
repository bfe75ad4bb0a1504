// The `size` section: what a one-widget documentation page downloads, served with brotli
// (bench/size.mjs, which also writes the page-weight tables of docs/WIDGETS.md and
// docs/PERFORMANCE.md). Bytes, not times: nothing to interleave.
export async function run(ctx) {
  return (await import('../size.mjs')).runSize(ctx);
}
