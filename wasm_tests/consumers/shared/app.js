// The consumer apps' page script (copied into the Vite and the webpack app): the API, the
// widgets entry, one widget imported on its own, and a training session, all by package name.
import { load, createTrainingSession } from 'transformer-playground';
import { WIDGET_NAMES } from 'transformer-playground/widgets';
import 'transformer-playground/widgets/tp-tokenizer';

export async function run(reverseModel) {
  // A shipped checkpoint, its URL from the bundler (the recipe of docs/WIDGETS.md).
  document.querySelector('tp-attention').setAttribute('model', String(reverseModel));
  document.querySelector('#widgets').textContent = WIDGET_NAMES.join(' ');
  const tp = await load();
  document.querySelector('#version').textContent = tp.version;
  const session = await createTrainingSession();
  await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1 } });
  session.addEventListener('state', async (e) => {
    if (e.detail.reason !== 'finished') return;
    document.querySelector('#answer').textContent = (await session.generate('how are you')).text;
    session.dispose();
  });
  await session.start();
}
