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

/* ---- masthead ---- */
.masthead { display: flex; flex-wrap: wrap; align-items: center; gap: 12px 24px; padding: 14px 24px; background: var(--_bg); border-bottom: 1px solid var(--_rule); }
.brand { display: flex; align-items: center; gap: 12px; min-width: 0; }
.logo { width: 36px; height: 36px; flex: none; }
h1 { font-size: 19px; font-weight: 700; letter-spacing: -.01em; }
.tagline { margin: 0; color: var(--_muted); font-size: 13px; }
.jump { display: flex; flex-wrap: wrap; gap: 2px 4px; flex: 1; justify-content: center; }
.jump a { color: var(--_muted); text-decoration: none; font-size: 13px; padding: 4px 8px; border-radius: 6px; }
.jump a:hover { color: var(--_fg); background: var(--_panel); }
.tools { display: flex; gap: 8px; margin-left: auto; }

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
button.lang { min-width: 76px; justify-content: center; }
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
.samples { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
.samples button { font-size: 12.5px; padding: 3px 10px; min-height: 28px; border-radius: 999px; background: var(--_panel); font-weight: 500; }

/* ---- training bar ---- */
.trainbar { position: sticky; top: var(--tp-sticky-top, 0); z-index: 20; display: flex; flex-wrap: wrap; align-items: center; gap: 10px 22px; padding: 10px 24px;
  background: var(--_bg); border-bottom: 1px solid var(--_rule); box-shadow: 0 2px 10px color-mix(in srgb, var(--_shadow) 4%, transparent); }
.trainbar .buttons { display: flex; gap: 6px; flex-wrap: wrap; }
.progress-wrap { flex: 1 1 200px; min-width: 160px; }
.progress-text { display: flex; justify-content: space-between; gap: 8px; font-size: 12.5px; color: var(--_muted); font-variant-numeric: tabular-nums; }
#status { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.progress { height: 6px; background: var(--_rule); border-radius: 3px; overflow: hidden; margin-top: 4px; }
#progress-bar { height: 100%; width: 0; background: var(--_accent); transition: width .15s linear; }
.stats { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 0; }
.stats div { min-width: 64px; }
.stats dt { font-size: 11px; color: var(--_muted); text-transform: uppercase; letter-spacing: .04em; }
.stats dd { margin: 0; font: 600 14px/1.3 var(--_mono); font-variant-numeric: tabular-nums; }
.stats dd.big { font-size: 17px; color: var(--_accent); }
.timeline { flex: 1 1 100%; display: flex; align-items: center; gap: 8px 12px; flex-wrap: wrap; }
.timeline input[type=range] { flex: 1 1 240px; min-width: 140px; accent-color: var(--_accent); margin: 0; }
.timeline output { font: 12.5px/1.3 var(--_mono); color: var(--_muted); font-variant-numeric: tabular-nums; min-width: 14ch; }
.timeline .speed { display: inline-flex; align-items: center; gap: 6px; font-size: 12.5px; color: var(--_muted); }
.icon-button { min-width: 34px; min-height: 32px; padding: 4px 8px; justify-content: center; }
.runs { margin: 0 0 8px; }
.runs-head { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; }
.run-list { list-style: none; margin: 6px 0 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.run-list:empty { display: none; }
.run-list li { display: flex; align-items: center; gap: 8px; font-size: 13px; min-width: 0; }
.run-list .swatch { flex: none; width: 14px; height: 4px; border-radius: 2px; background: currentColor; }
.run-list .name { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
.run-list .loss { font: 12px/1.3 var(--_mono); color: var(--_muted); white-space: nowrap; }
.run-list button { min-height: 26px; padding: 2px 8px; font-size: 12px; }
.train-error { flex: 1 1 100%; margin: 0; color: var(--_danger); font-size: 13px; white-space: normal; overflow-wrap: anywhere; }
.train-error[hidden] { display: none; }

/* ---- layout ---- */
.layout { display: grid; grid-template-columns: 372px minmax(0, 1fr); gap: 20px; padding: 20px 24px 48px; max-width: 1760px; margin: 0 auto; }
.setup { position: sticky; top: 84px; align-self: start; max-height: calc(100vh - 100px); overflow-y: auto; background: var(--_bg); border: 1px solid var(--_rule);
  border-radius: var(--radius); padding: 16px 16px 20px; scrollbar-width: thin; }
.setup select#task { width: 100%; }
#main { display: flex; flex-direction: column; gap: 20px; min-width: 0; }
.duo { display: grid; grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); gap: 20px; align-items: start; }
.duo:has(> [hidden]) { grid-template-columns: minmax(0, 1fr); }
.tp-app.no-setup .layout { grid-template-columns: minmax(0, 1fr); }
.widget-error { margin: 12px 24px 0; }
.probe-row { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 10px; align-items: center; margin-bottom: 10px; }
.probe-row .field-label { margin: 0; }
.probe-row input { font-size: 15px; }
.card { background: var(--_bg); border: 1px solid var(--_rule); border-radius: var(--radius); padding: 18px 20px 20px; min-width: 0; }
.card-head { margin-bottom: 12px; }
.lead { margin: 4px 0 0; color: var(--_muted); max-width: 80ch; }
.grid2 { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 18px; align-items: start; }
.grid3 { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 18px; align-items: start; }
.attn-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 20px; align-items: start; margin: 10px 0 18px; }
.stack { display: flex; flex-direction: column; gap: 22px; min-width: 0; }
.controls-row { display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: center; margin-bottom: 6px; }
label.inline { display: inline-flex; align-items: center; gap: 6px; font-size: 13px; color: var(--_muted); }
.row { margin-bottom: 8px; }
.input-row input { width: 100%; font-size: 16px; }
tp-token-chips { margin: 10px 0; }
.table-wrap { overflow-x: auto; }
table.compare { border-collapse: collapse; font-size: 13px; margin-top: 8px; width: 100%; }
table.compare th, table.compare td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--_rule); vertical-align: top; }
table.compare td.toks { font-family: var(--_mono); font-size: 12px; color: var(--_muted); word-break: break-all; }
table.compare tr[aria-current="true"] { background: var(--_panel); }
table.compare td.n { font-variant-numeric: tabular-nums; font-weight: 600; }
table.compare caption { text-align: left; color: var(--tp-muted); font-size: 12.5px; padding-bottom: 4px; }
table.compare tr.min th, table.compare tr.min td { border-top: 2px solid var(--tp-rule); font-weight: 700; }
table.browsers { table-layout: fixed; }
table.browsers th, table.browsers td { overflow-wrap: anywhere; padding: 5px 6px; }
table.browsers :is(th, td):first-child { width: 40%; }
table.compare tr.min .why { display: block; font-weight: 400; font-size: 12px; color: var(--tp-muted); }

/* ---- set-up fields ---- */
.group-head { display: flex; align-items: baseline; justify-content: space-between; gap: 8px; }
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
.presets { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; }
.presets button:last-child { grid-column: 1 / -1; }
.presets button { font-size: 12.5px; padding: 6px 8px; white-space: normal; text-align: left; line-height: 1.25; min-height: 40px; }
.presets button.active { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); }
.gen-fields { grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); margin: 10px 0; column-gap: 10px; }
.gen-fields .field { grid-template-columns: minmax(0, 1fr) 72px 22px; }
.gen-fields .field > label .name { overflow: visible; }
#metric-chart { margin-top: 8px; }

/* ---- outputs ---- */
.prompt-row { display: flex; gap: 8px; }
.prompt-row input { flex: 1; min-width: 0; font-size: 16px; }
.output-box { border: 1px solid var(--_rule); border-radius: 10px; padding: 10px 14px; margin: 10px 0; background: var(--_panel); }
.output-label { font-size: 11px; text-transform: uppercase; letter-spacing: .05em; color: var(--_muted); }
output .echo { color: var(--_muted); font-weight: 400; }
output { display: block; font: 600 20px/1.4 var(--_font); min-height: 28px; word-break: break-word; }
.gen-steps { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0 10px; }
.gen-steps button { font: 500 13px var(--_font); padding: 4px 9px; min-height: 30px; border-radius: 7px; background: var(--_bg); }
.gen-steps button[aria-selected="true"] { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); }
.gen-steps button .p { font: 10px var(--_mono); color: var(--_muted); }
.gen-steps button.fresh { animation: pop .25s ease-out; }
@keyframes pop { from { transform: scale(.85); opacity: .2; } to { transform: none; opacity: 1; } }
.kv { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-top: 10px; }
.kv-picture[hidden] { display: none; }
.buttons-row { display: flex; flex-wrap: wrap; gap: 8px; }
.buttons-row > button { max-width: 100%; text-align: start; white-space: normal; }
label.button:focus-within { outline: 2px solid var(--_accent); outline-offset: 2px; }

/* ---- responsive ---- */
@container app (max-width: 1100px) {
  .layout { grid-template-columns: minmax(0, 1fr); padding: 14px 12px 40px; }
  .setup { position: static; max-height: none; }
  .jump { order: 3; flex-basis: 100%; justify-content: flex-start; }
}
@container app (max-width: 1360px) { .duo { grid-template-columns: minmax(0, 1fr); } }
@container app (max-width: 900px) {
  .probe-row { grid-template-columns: minmax(0, 1fr); gap: 4px; }
  .grid3 { grid-template-columns: minmax(0, 1fr); }
  .grid2, .attn-grid { grid-template-columns: minmax(0, 1fr); }
}
@container app (max-width: 640px) {
  .masthead { padding: 10px 12px; }
  .tagline { display: none; }
  .jump { display: none; }
  .trainbar { padding: 8px 12px; gap: 6px 10px; }
  .trainbar .buttons { gap: 4px; }
  .trainbar .buttons button { padding: 6px 10px; min-height: 34px; }
  .trainbar .buttons button [data-i18n] { display: none; }
  .trainbar .stats { order: 2; gap: 2px 12px; }
  .trainbar .stats dd.big { font-size: 15px; }
  .progress-wrap { order: 3; flex-basis: 100%; }
  .progress-text { font-size: 11.5px; }
  .wide-only, .trainbar .stats div:nth-child(2) { display: none; }
  .card { padding: 14px 12px; }
  .field { grid-template-columns: minmax(0, 1fr) 120px 22px; }
}
@media (prefers-reduced-motion: reduce) { * { animation: none !important; transition: none !important; } }
`;
