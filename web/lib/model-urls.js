// model-urls.js — a model's files at a URL, as importModel takes them (the playground's "Load a
// model", <tp-walkthrough model="…/">): a folder URL -> config.json, model.safetensors and
// tokenizer.json with tokenizer_config.json when there is one (or GPT-2's vocab.json +
// merges.txt); a .bin URL -> it and tokenizer.bin beside it. Only asked for here (HEAD: which tokenizer files there are); every file stays a URL, read
// in the training worker within the size its config implies.
export async function filesAtUrl(text, base) {
  const url = new URL(text, base);
  if (url.pathname.endsWith('.bin')) {
    return [{ name: url.pathname.split('/').pop(), url: url.href }, { name: 'tokenizer.bin', url: new URL('tokenizer.bin', url).href }];
  }
  const dir = url.href.endsWith('/') ? url.href : `${url.href}/`;
  const at = (name) => ({ name, url: new URL(name, dir).href });
  const exists = async (name) => {
    const response = await fetch(new URL(name, dir), { method: 'HEAD' });
    await response.arrayBuffer();  // (empty) read to its end, so the request completes
    return response.ok;
  };
  if (!(await exists('config.json'))) throw new Error(`${dir}config.json: not found; give the URL of a model folder or of a llama2.c .bin file`);
  const tokenizer = await exists('tokenizer.json');
  // tokenizer_config.json (optional) says whether a prompt gets <s> / </s>, over tokenizer.json's post_processor.
  const extras = tokenizer && (await exists('tokenizer_config.json')) ? [at('tokenizer_config.json')] : [];
  return [at('config.json'), at('model.safetensors'), ...(tokenizer ? [at('tokenizer.json'), ...extras] : [at('vocab.json'), at('merges.txt')])];
}
