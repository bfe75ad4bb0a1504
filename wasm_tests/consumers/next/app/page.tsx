// A server component: the API runs at build time (Node, through Turbopack's bundle), and the
// widgets come from a client component.
import { load } from 'transformer-playground';
import Widgets from './widgets';

export default async function Page() {
  const tp = await load();
  const tokenizer = tp.tokenizer({ kind: 'word', text: 'how are you' });
  const ids = Array.from(tokenizer.encode('how are you').ids).join(' ');
  tokenizer.dispose();
  return (
    <main>
      <h1>Transformer Playground {tp.version}</h1>
      <p id="server">ids at build time: {ids}</p>
      <Widgets />
    </main>
  );
}
