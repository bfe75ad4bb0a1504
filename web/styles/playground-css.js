// playground-css.js — the playground's own look, inside <tp-playground>'s shadow root (the page
// web/index.html is one such element): the two-column layout
// (set-up beside the panels, one column when the element is narrower than 1100 px: container
// queries, so an embedded playground adapts to its column, not to the window), the sticky
// training bar, form controls with visible focus. Colours and fonts are the theme's --_* values
// (web/ui/theme.js, adopted by the same shadow root before this file).
//
// Theming from outside: set any --tp-* property on the element (tp-playground { --tp-accent: … });
// the theme's defaults apply where the page sets nothing.
//
// A constructable stylesheet's text (ui/sheets.js), not a .css file: bundlers with CSS rules —
// Docusaurus's webpack, for one — take a `new URL('….css', import.meta.url)` into the site's own
// global stylesheet and leave a stub where the file was, so a linked stylesheet could not be.
export const PLAYGROUND_CSS = `
:host { display: block; min-width: 0; }
:host([hidden]) { display: none; }
/* The page that is the playground (web/index.html): the app covers the viewport. */
:host([standalone]) .tp-app { min-height: 100vh; }
.tp-app {
  --radius: 12px;
  container: app / inline-size;
  color-scheme: var(--_scheme, light dark);
  font: 15px/1.55 var(--_font); color: var(--_fg); background: var(--_page); -webkit-text-size-adjust: 100%;
  border-radius: var(--tp-radius, 0);
}
* { box-sizing: border-box; }
h1, h2, h3 { line-height: 1.25; margin: 0; }
h2 { font-size: 20px; font-weight: 650; }
h3 { font-size: 14.5px; font-weight: 650; margin: 20px 0 6px; }
a { color: var(--_accent); }
.sr-only { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.skip { position: absolute; left: -999px; top: 8px; background: var(--_bg); color: var(--_fg); font: inherit; border: 1px solid var(--_rule); padding: 8px 12px; z-index: 50; border-radius: 8px; cursor: pointer; }
.skip:focus { left: 8px; }
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
[hidden] { display: none !important; }


/* ---- buttons and fields ---- */
button, .button, select, input, textarea { font: inherit; color: inherit; }
button, .button { display: inline-flex; align-items: center; gap: 6px; font-size: 14px; font-weight: 550; padding: 8px 14px; border-radius: 9px;
  border: 1px solid var(--_rule); background: var(--_bg); cursor: pointer; white-space: nowrap; min-height: 36px; }
button:hover:not(:disabled), .button:hover { border-color: var(--_muted); }
button:disabled { opacity: .45; cursor: default; }
svg.icon { width: 14px; height: 14px; flex: none; }
button.primary { background: var(--_accent); color: var(--_accent-fg); border-color: var(--_accent); }
button.primary:hover:not(:disabled) { filter: brightness(1.08); }
button.ghost { background: transparent; }
button.small, .small { font-size: 13px; padding: 5px 10px; min-height: 30px; }
button.link { border: 0; background: none; color: var(--_accent); padding: 2px 4px; min-height: 0; font-size: 12.5px; font-weight: 500; }
select, input[type=text], input[type=number], textarea { background: var(--_bg); border: 1px solid var(--_rule); border-radius: 8px; padding: 6px 9px; min-height: 34px; max-width: 100%; }
textarea { width: 100%; font: 13px/1.45 var(--_mono); resize: vertical; }
input[type=checkbox] { width: 18px; height: 18px; accent-color: var(--_accent); margin: 0; }
.field-label { display: block; font-size: 12.5px; font-weight: 600; color: var(--_muted); margin: 10px 0 4px; }
.hint { color: var(--_muted); font-size: 13px; margin: 6px 0; }
.error { color: var(--_danger); font-size: 13.5px; background: color-mix(in srgb, var(--_danger) 10%, transparent); border-radius: 8px; padding: 8px 10px; }
.segmented { display: inline-flex; flex-wrap: wrap; gap: 1px; border: 1px solid var(--_rule); border-radius: 9px; overflow: hidden; background: var(--_rule); max-width: 100%; }
.segmented button { border: 0; border-radius: 0; min-height: 32px; padding: 6px 12px; font-size: 13px; background: var(--_bg); flex: 1 1 auto; justify-content: center; }
.segmented button:focus-visible { outline-offset: -3px; }
.segmented button[aria-checked="true"] { background: var(--_accent); color: var(--_accent-fg); }
.segmented button:disabled { opacity: .35; }
#wt-source button { white-space: normal; }
.samples { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
.samples button { font-size: 12.5px; padding: 3px 10px; min-height: 28px; border-radius: 999px; background: var(--_panel); font-weight: 500; }


/* ---- layout ---- */
.layout { display: grid; grid-template-columns: 372px minmax(0, 1fr); gap: 20px; padding: 20px 24px 48px; max-width: 1760px; margin: 0 auto; }
#main { display: flex; flex-direction: column; gap: 20px; min-width: 0; }
.duo { display: grid; grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); gap: 20px; align-items: start; }
.duo:has(> * > [hidden]) { grid-template-columns: minmax(0, 1fr); }
.tp-app.no-setup .layout { grid-template-columns: minmax(0, 1fr); }
.widget-error { margin: 12px 24px 0; }
.card { background: var(--_bg); border: 1px solid var(--_rule); border-radius: var(--radius); padding: 18px 20px 20px; min-width: 0; }
.card-head { margin-bottom: 12px; }
.lead { margin: 4px 0 0; color: var(--_muted); max-width: 80ch; }
.grid2 { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 18px; align-items: start; }
.controls-row { display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: center; margin-bottom: 6px; }
label.inline { display: inline-flex; align-items: center; gap: 6px; font-size: 13px; color: var(--_muted); }
.table-wrap { overflow-x: auto; }
table.compare { border-collapse: collapse; font-size: 13px; margin-top: 8px; width: 100%; }
table.compare th, table.compare td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--_rule); vertical-align: top; }
table.compare td.toks { font-family: var(--_mono); font-size: 12px; color: var(--_muted); word-break: break-all; }
table.compare tr[aria-current="true"] { background: var(--_panel); }
table.compare td.n { font-variant-numeric: tabular-nums; font-weight: 600; }
table.compare caption { text-align: left; color: var(--tp-muted); font-size: 12.5px; padding-bottom: 4px; }
table.compare tr.min th, table.compare tr.min td { border-top: 2px solid var(--tp-rule); font-weight: 700; }
table.compare tr.min .why { display: block; font-weight: 400; font-size: 12px; color: var(--tp-muted); }

/* ---- set-up fields ---- */
.fields { display: grid; grid-template-columns: 1fr; gap: 2px; }
.field { display: grid; grid-template-columns: minmax(0, 1fr) 150px 22px; align-items: center; gap: 6px; padding: 3px 6px; border-radius: 8px; }
.field:hover { background: var(--_panel); }
.field > label { font-size: 13px; display: flex; align-items: center; gap: 6px; min-width: 0; }
.field > label .name { overflow: hidden; text-overflow: ellipsis; }
.field > label .code { font: 11px var(--_mono); color: var(--_muted); }
.field select, .field input[type=text], .field input[type=number] { width: 100%; min-height: 30px; padding: 3px 6px; font-size: 13px; }
.field .ctl { display: flex; align-items: center; }
.field.changed > label::before { content: ""; width: 7px; height: 7px; border-radius: 50%; background: var(--_changed); flex: none; }
.field .reset { border: 0; background: none; min-height: 0; padding: 2px; color: var(--_muted); font-size: 15px; visibility: hidden; }
.field.changed .reset { visibility: visible; }
.field.invalid input, .field.invalid select { border-color: var(--_danger); }
.field .default { grid-column: 1 / -1; font-size: 11.5px; color: var(--_muted); margin: -2px 0 2px 13px; }
.field:not(.changed) .default { display: none; }
.field .why { grid-column: 1 / -1; font-size: 12px; color: var(--_danger); margin: -2px 0 2px 13px; }
.field .why[hidden] { display: none; }
.field .slider { grid-column: 1 / -1; display: flex; padding: 0 2px 0 13px; }
.field .slider input[type=range] { width: 100%; margin: 0; accent-color: var(--_accent); }


/* ---- responsive ---- */
@container app (max-width: 1100px) { .layout { grid-template-columns: minmax(0, 1fr); padding: 14px 12px 40px; } }
@container app (max-width: 1360px) { .duo { grid-template-columns: minmax(0, 1fr); } }
@container app (max-width: 900px) { .grid2 { grid-template-columns: minmax(0, 1fr); } }
@container app (max-width: 640px) {
  .card { padding: 14px 12px; }
  .field { grid-template-columns: minmax(0, 1fr) 120px 22px; }
}
@media (prefers-reduced-motion: reduce) { * { animation: none !important; transition: none !important; } }
`;
