// panels/index.js — the playground's panels: each a custom element that owns its markup and
// styles (./<name>/element.js) and a pure derive(state, run, shown, info, page) -> props
// (./<name>/derive.js), and the playground events after which it is drawn again. `lazy` events
// draw only while the panel is on screen (or once it scrolls into view), at most every `every`
// ms. A new panel is a folder here and one line below; app.js places it and draws it.
import './masthead/element.js';
import './trainbar/element.js';
import './setup/element.js';
import './training/element.js';
import './outputs/element.js';
import './attention/element.js';
import './tokens/element.js';
import './embeddings/element.js';
import './walkthrough/element.js';
import './files/element.js';
import './about/element.js';
import { deriveMasthead } from './masthead/derive.js';
import { deriveTrainbar } from './trainbar/derive.js';
import { deriveSetup } from './setup/derive.js';
import { deriveTraining } from './training/derive.js';
import { deriveOutputs } from './outputs/derive.js';
import { deriveAttention } from './attention/derive.js';
import { deriveTokens } from './tokens/derive.js';
import { deriveEmbeddings } from './embeddings/derive.js';
import { deriveWalkthrough } from './walkthrough/derive.js';
import { deriveFiles } from './files/derive.js';
import { deriveAbout } from './about/derive.js';

const ALWAYS = ['lang', 'ready', 'configured'];

export const PANELS = [
  { name: 'masthead', tag: 'tp-masthead-panel', derive: deriveMasthead, on: ['lang'] },
  { name: 'trainbar', tag: 'tp-trainbar-panel', derive: deriveTrainbar, on: [...ALWAYS, 'state', 'busy', 'progress', 'run', 'invalid', 'error', 'status', 'snapshot', 'history'] },
  { name: 'setup', tag: 'tp-setup-panel', derive: deriveSetup, on: [...ALWAYS, 'state', 'error', 'imported'] },
  { name: 'training', tag: 'tp-training-panel', derive: deriveTraining, on: [...ALWAYS, 'state', 'busy', 'progress', 'run', 'kept', 'error', 'imported'], lazy: ['progress'] },
  { name: 'outputs', tag: 'tp-outputs-panel', derive: deriveOutputs, on: [...ALWAYS, 'state', 'busy', 'snapshot', 'outputs'], lazy: ['snapshot'] },
  { name: 'attention', tag: 'tp-attention-panel', derive: deriveAttention, on: [...ALWAYS, 'state', 'kept', 'snapshot', 'compare'], lazy: ['snapshot'] },
  { name: 'tokens', tag: 'tp-tokens-panel', derive: deriveTokens, on: [...ALWAYS, 'state'] },
  { name: 'embeddings', tag: 'tp-embeddings-panel', derive: deriveEmbeddings, on: ['lang', 'snapshot'], lazy: ['snapshot'], every: 100 },
  { name: 'walkthrough', tag: 'tp-walkthrough-panel', derive: deriveWalkthrough, on: [...ALWAYS, 'state', 'snapshot', 'walkthrough'], lazy: ['snapshot'], every: 250 },
  { name: 'files', tag: 'tp-files-panel', derive: deriveFiles, on: [...ALWAYS, 'busy', 'files'] },
  { name: 'about', tag: 'tp-about-panel', derive: deriveAbout, on: ['lang'] },
];
