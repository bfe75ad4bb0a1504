// model-urls.js — a model's files at a URL, as importModel takes them (the playground's "Load a
// model", <tp-walkthrough model="…/">): a folder URL -> config.json, model.safetensors, its
// tokenizer (tokenizer.json, or GPT-2's vocab.json + merges.txt) and tokenizer_config.json when
// there is one; a .bin URL -> it and tokenizer.bin beside it. A server cannot list a folder, so
// this asks (HEAD) for the files a folder of its family has, in the order that family keeps them
// — a GPT-2 folder is asked for vocab.json before tokenizer.json, a Llama folder for
// tokenizer.json only — and so asks for no file a real folder lacks (each 404 is a console error
// in the page). Every file stays a URL, read in the training worker within the size its config
// implies; config.json is read here only as far as its model_type, a hint the importer checks.
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
  const type = await modelType(new URL('config.json', dir), dir);
  let tokenizer;
  if (type === 'gpt2' && (await exists('vocab.json'))) tokenizer = [at('vocab.json'), at('merges.txt')];
  else if (await exists('tokenizer.json')) tokenizer = [at('tokenizer.json')];
  else tokenizer = [at('vocab.json'), at('merges.txt')];  // the importer says what is missing
  // tokenizer_config.json (optional) says whether a prompt gets <s> / </s>, over tokenizer.json's post_processor.
  const extras = (await exists('tokenizer_config.json')) ? [at('tokenizer_config.json')] : [];
  return [at('config.json'), at('model.safetensors'), ...tokenizer, ...extras];
}

// A config.json's first HINT_BYTES are plenty for a real one's model_type (a few kilobytes in
// all); a longer or unreadable file gives no hint, and the importer refuses it with its reason.
const HINT_BYTES = 64 * 1024;

// config.json's model_type ('gpt2', 'llama', …), or '' when it has none or cannot be read.
async function modelType(configUrl, dir) {
  const response = await fetch(configUrl);
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${dir}config.json: not found; give the URL of a model folder or of a llama2.c .bin file`);
  }
  const reader = response.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.length;
    if (size > HINT_BYTES) {
      await reader.cancel();
      return '';
    }
  }
  try {
    const type = JSON.parse(new TextDecoder().decode(concat(parts, size)))?.model_type;
    return typeof type === 'string' ? type : '';
  } catch {
    return '';
  }
}

function concat(parts, size) {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
