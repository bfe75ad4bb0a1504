// docs/WIDGETS.md's VitePress recipe: tell Vue that <tp-*> elements are custom elements. The
// site is built for a sub-path (base), as most project sites are.
export default {
  title: 'Widgets in VitePress',
  base: '/course/',
  head: [['link', { rel: 'icon', href: '/course/favicon.svg' }]],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('tp-') } } },
};
