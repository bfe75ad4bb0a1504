// Every panel's derive(), by name, as web/playground/panels/index.js lists them (that module also
// defines the elements, which need a DOM; the test reads the list from its source instead, so a
// panel added there and not here fails wasm_tests/playground_panels.test.mjs).
import { readFileSync } from 'node:fs';
import { deriveMasthead } from '../../web/playground/panels/masthead/derive.js';
import { deriveTrainbar } from '../../web/playground/panels/trainbar/derive.js';
import { deriveSetup } from '../../web/playground/panels/setup/derive.js';
import { deriveTraining } from '../../web/playground/panels/training/derive.js';
import { deriveOutputs } from '../../web/playground/panels/outputs/derive.js';
import { deriveAttention } from '../../web/playground/panels/attention/derive.js';
import { deriveTokens } from '../../web/playground/panels/tokens/derive.js';
import { deriveEmbeddings } from '../../web/playground/panels/embeddings/derive.js';
import { deriveWalkthrough } from '../../web/playground/panels/walkthrough/derive.js';
import { deriveFiles } from '../../web/playground/panels/files/derive.js';
import { deriveAbout } from '../../web/playground/panels/about/derive.js';

export const PANELS = {
  masthead: deriveMasthead, trainbar: deriveTrainbar, setup: deriveSetup, training: deriveTraining, outputs: deriveOutputs,
  attention: deriveAttention, tokens: deriveTokens, embeddings: deriveEmbeddings, walkthrough: deriveWalkthrough, files: deriveFiles, about: deriveAbout,
};

const listed = [...readFileSync(new URL('../../web/playground/panels/index.js', import.meta.url), 'utf8').matchAll(/\{ name: '(\w+)'/g)].map((m) => m[1]);
if (listed.join() !== Object.keys(PANELS).join()) throw new Error(`panels/index.js lists ${listed.join(', ')}; this list has ${Object.keys(PANELS).join(', ')}`);
