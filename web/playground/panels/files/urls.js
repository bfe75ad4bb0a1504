// files/urls.js — a model's files at a URL: a folder URL -> config.json, model.safetensors and
// tokenizer.json (or GPT-2's vocab.json + merges.txt); a .bin URL -> it and tokenizer.bin beside
// it. The small files are fetched here (which also tells which tokenizer files there are); the
// weights stay URLs, streamed into the heap where they are imported.
export async function filesAtUrl(text, base) {
  const url = new URL(text, base);
  if (url.pathname.endsWith('.bin')) {
    return [{ name: url.pathname.split('/').pop(), url: url.href }, { name: 'tokenizer.bin', url: new URL('tokenizer.bin', url).href }];
  }
  const dir = url.href.endsWith('/') ? url.href : `${url.href}/`;
  const at = (name) => ({ name, url: new URL(name, dir).href });
  const get = async (name) => {
    const response = await fetch(new URL(name, dir));
    return response.ok ? { name, bytes: new Uint8Array(await response.arrayBuffer()) } : null;
  };
  const config = await get('config.json');
  if (!config) throw new Error(`${dir}config.json: not found; give the URL of a model folder or of a llama2.c .bin file`);
  const tokenizer = await get('tokenizer.json');
  return [config, at('model.safetensors'), ...(tokenizer ? [tokenizer] : [at('vocab.json'), at('merges.txt')])];
}
