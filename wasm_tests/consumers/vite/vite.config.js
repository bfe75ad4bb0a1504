// docs/WIDGETS.md's Vite recipe: nothing is needed but, for a strict Content-Security-Policy
// without img-src data:, assets kept as files (Vite inlines small ones as data: URLs).
export default {
  build: { assetsInlineLimit: 0 },
};
