// docs/WIDGETS.md's VitePress recipe: the default theme, plus the widgets entry (it only registers
// elements in a browser, so the server-side render is unaffected).
import DefaultTheme from 'vitepress/theme';
import 'transformer-playground/widgets';

export default DefaultTheme;
