// element.js — custom elements that can be imported anywhere, a server render included.
//
// Astro's frontmatter, Next.js server components and Docusaurus's server render import modules in
// Node, where there is no HTMLElement and no customElements: a top-level `class extends
// HTMLElement` would throw there ("HTMLElement is not defined") and fail the site's build. The
// classes extend ElementBase instead (HTMLElement where it exists, a bare class elsewhere) and are
// registered with defineElement(), which registers only where customElements exists (and only
// once). On a server nothing is registered: the browser does it when the page's script runs.
export const ElementBase = globalThis.HTMLElement ?? class {};

// True where elements can be registered (a browser window); false in Node and in workers.
export const canDefine = typeof globalThis.customElements?.define === 'function';

export function defineElement(name, cls) {
  if (canDefine && !customElements.get(name)) customElements.define(name, cls);
}
