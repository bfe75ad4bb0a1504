// A TypeScript consumer of the installed package: the API by package name, the widgets entry,
// one widget module, the widget element types from HTMLElementTagNameMap, `using` on every
// disposable. Compiled with --strict under module resolution node16 and bundler
// (wasm_tests/package.test.mjs); nothing here is run.
import { load, createTrainingSession, type GenerateOptions, type TokenIds } from 'transformer-playground';
import { define, defineAll, WIDGET_NAMES, type TpTrainAttributes, type WidgetName } from 'transformer-playground/widgets';
import { TpTokenizer } from 'transformer-playground/widgets/tp-tokenizer';

export async function api(): Promise<string> {
  const tp = await load();
  using task = tp.task('qa-toy');
  using model = tp.model({ ...task.defaults, seed: 1 });
  using trainer = tp.trainer(model, task, { seed: 1 });
  trainer.step(600);
  const options: GenerateOptions = { maxNewTokens: 8, topKProbs: 3 };
  const ids: TokenIds = new Uint32Array([5, 8, 9]);
  using tokenizer = tp.tokenizer({ kind: 'char', text: 'abc' });
  tokenizer.decode(new Uint32Array([3]));
  return `${model.generate(ids, options).text} ${model.generate('how are you').text}`;
}

export async function session(): Promise<string> {
  using session = await createTrainingSession({ startTimeout: 10_000 });
  await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1 } });
  session.addEventListener('progress', (e) => console.log(e.detail.loss.toFixed(3)));
  await session.step(600);
  return (await session.generate(new Int32Array([5, 8, 9]))).text;
}

export async function widgets(): Promise<void> {
  const names: readonly WidgetName[] = WIDGET_NAMES;
  await defineAll();
  const Train = await define('tp-train');
  const made = new Train();
  made.setAttribute('task', 'reverse');
  const train = document.querySelector('tp-train');
  train?.addEventListener('tp-progress', (e) => console.log(e.detail.step, e.detail.totalSteps, e.detail.loss));
  train?.addEventListener('tp-error', (e) => console.log(e.detail.message));
  const attention = document.createElement('tp-attention');
  attention.addEventListener('tp-trace', (e) => console.log(e.detail.step ?? 'checkpoint'));
  const tokenizer: HTMLElementTagNameMap['tp-tokenizer'] = new TpTokenizer();
  tokenizer.addEventListener('tp-tokens', (e) => console.log(e.detail.ids.length, e.detail.tokens.join(' ')));
  const props: TpTrainAttributes = { task: 'qa-toy', steps: 600, pos: 'rope', autoplay: true };
  console.log(names.length, props);
}
