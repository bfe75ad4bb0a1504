// A Docusaurus site with the documented recipe: the widgets entry in a client module, widgets in
// MDX, a shipped checkpoint by name, the classic theme's dark-mode toggle; under /course/.
export default {
  title: 'Course notes',
  url: 'http://localhost',
  baseUrl: '/course/',
  favicon: 'img/favicon.svg',
  onBrokenLinks: 'throw',
  presets: [['classic', { docs: { routeBasePath: '/' }, blog: false, pages: false }]],
  clientModules: ['./src/tp-widgets.js'],
  themeConfig: {
    colorMode: { defaultMode: 'light', respectPrefersColorScheme: false },
    navbar: { title: 'Course notes' },
  },
};
