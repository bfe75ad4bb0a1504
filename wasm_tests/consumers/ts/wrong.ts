// Misuses of the package's types, each of which must fail to compile on its own marked line
// (wasm_tests/package.test.mjs): element types that were `any` would let them all through.
import { load, createTrainingSession } from 'transformer-playground';
import { define, type TpTrainAttributes } from 'transformer-playground/widgets';

export async function wrong(): Promise<void> {
  const tp = await load();
  using model = tp.model({ dModel: 8 });
  model.generate(new Float32Array([1]));  // error: not token ids
  const session = await createTrainingSession({ startTimeout: '10s' });  // error: a number of ms
  session.dispose();
  await define('tp-nope');  // error: not a widget
  const train = document.querySelector('tp-train');
  train?.addEventListener('tp-progress', (e) => console.log(e.detail.accuracy));  // error: no such detail
  const props: TpTrainAttributes = { pos: 'rotary' };  // error: not a positional encoding
  console.log(props);
}
