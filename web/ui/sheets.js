// sheets.js — styles for shadow roots without inline <style> elements, which a
// Content-Security-Policy without style-src 'unsafe-inline' blocks (shadow roots included).
// Constructable stylesheets are not inline styles: a CSS text becomes one CSSStyleSheet per
// document, created the first time it is asked for and shared by every element that adopts it.
//
//   adoptStyles(this.shadowRoot, THEME_CSS, BASE_CSS, this.constructor.css);
const cache = new WeakMap();  // Document -> Map<css text, CSSStyleSheet>

const constructable = typeof CSSStyleSheet !== 'undefined' && 'replaceSync' in CSSStyleSheet.prototype
  && typeof ShadowRoot !== 'undefined' && 'adoptedStyleSheets' in ShadowRoot.prototype;

// The shared sheet for `css` in `doc`'s realm (a sheet can only be adopted where it was made).
export function sheet(css, doc = document) {
  let byText = cache.get(doc);
  if (!byText) cache.set(doc, (byText = new Map()));
  let s = byText.get(css);
  if (!s) {
    const Sheet = doc.defaultView?.CSSStyleSheet ?? CSSStyleSheet;
    s = new Sheet();
    s.replaceSync(css);
    byText.set(css, s);
  }
  return s;
}

// Sets root's adopted sheets, one per CSS text (empty texts are skipped). Browsers without
// constructable sheets (Safari before 16.4) get <style> elements instead, which work wherever
// the page's CSP allows inline styles.
export function adoptStyles(root, ...texts) {
  const list = texts.filter(Boolean);
  if (!constructable) {
    root.querySelectorAll('style[data-tp-sheet]').forEach((el) => el.remove());
    root.prepend(...list.map((css) => {
      const el = document.createElement('style');
      el.dataset.tpSheet = '';
      el.textContent = css;
      return el;
    }));
    return;
  }
  root.adoptedStyleSheets = list.map((css) => sheet(css, root.ownerDocument ?? document));
}
