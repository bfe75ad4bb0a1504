// model-urls.js — a model's files at a URL, as importModel takes them (the playground's "Load a
// model", <tp-walkthrough model="…/">): a folder URL -> config.json, model.safetensors, its
// tokenizer (tokenizer.json, or GPT-2's vocab.json + merges.txt) and tokenizer_config.json when
// there is one; a .bin URL -> it and tokenizer.bin beside it. A server cannot list a folder, so
// this asks (HEAD) whether each file is there, and only for the files a folder of its family
// has: GPT-2's own vocab.json + merges.txt, which every GPT-2 folder keeps, before tokenizer.json
// (a Llama folder's only tokenizer file), so a real folder logs no 404. The family comes from
// `describe` (the caller's describeModelFiles: the playground's runs in its worker, so nothing
// is downloaded on the page's thread); without it tokenizer.json is asked for first. Every file
// stays a URL, read by importModel within the size its config implies.
export async function filesAtUrl(text, base, describe = null) {
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
  // Of the families imported, only GPT-2 has learned positions. A config describe refuses gives
  // no hint: importModel says why.
  const gpt2 = describe ? (await describe([at('config.json')]).catch(() => null))?.config?.pos === 'learned' : false;
  const original = [at('vocab.json'), at('merges.txt')];
  let tokenizer;
  if (gpt2 && (await exists('vocab.json'))) tokenizer = original;
  else if (await exists('tokenizer.json')) tokenizer = [at('tokenizer.json')];
  else tokenizer = original;  // importModel names what is missing
  // tokenizer_config.json (optional) says whether a prompt gets <s> / </s>, over tokenizer.json's post_processor.
  const extras = (await exists('tokenizer_config.json')) ? [at('tokenizer_config.json')] : [];
  return [at('config.json'), at('model.safetensors'), ...tokenizer, ...extras];
}
