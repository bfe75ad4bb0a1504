// model-files.js — another project's model files into the wasm heap, for tp.importModel(),
// tp.importTokenizer() and tp.describeModelFiles().
//
// The files are someone else's, and a URL is someone else's server, so nothing they say is
// believed before it is checked:
// - The config is read first (config.json, at most 1 MB, or a llama2.c .bin's 28-byte header)
//   and described by the core; every other file then has a size limit that config implies
//   (limitOf below). A file or a download larger than its limit is refused before its bytes
//   are allocated, or as soon as they pass it. A Content-Length above the limit is refused at
//   once; one below it is used only to size the buffer, and a body that ends short of it is an
//   error. Without one (or with a Content-Encoding) the body is gathered, up to the limit, before
//   it is allocated in the heap, so the heap only ever grows by bytes that arrived.
// - A download that stops sending for `stallTimeout` ms (default 30 s), before or after its
//   headers, rejects; so does every read once `signal` aborts.
// - Errors say which call and which file: "importModel: 'model.safetensors': …".
// - Only the files the importers read are copied; any other file of a picked folder (a
//   pytorch_model.bin beside model.safetensors, a README) is passed by name with no bytes.
//
// A GPT-2-small checkpoint is about 500 MB. Read whole into an ArrayBuffer and then copied into
// the heap, it would need twice that; instead the module allocates each file's bytes (its
// ImportHandle.add returns the heap address) and the file is copied in 8 MB slices, read one at
// a time from the File/Blob or the fetch stream. The heap may grow between slices, which
// replaces module.HEAPU8, so the view is looked up again for every slice. Addresses above 2 GB
// arrive as positive numbers (the C++ side returns a double), and `>>> 0` keeps any other
// 32-bit address unsigned.
import { call } from './engine.js';
import { isDetached } from './arguments.js';

const SLICE = 8 << 20;
const MB = 1 << 20;
const LLAMA2C_HEADER = 28;          // seven int32: all describe() reads of a llama2.c .bin
export const STALL_TIMEOUT = 30000;  // ms without a byte before a download is given up

// The limits (bytes). config.json: a Hugging Face config is a few KB. Weights: 4 bytes (F32,
// the widest dtype read) per parameter, plus the tensors a file may hold that are not
// parameters (a tied lm_head.weight, GPT-2's causal masks of maxLen² per layer, Llama's inv_freq,
// llama2.c's RoPE tables), plus the safetensors header. Tokenizer files: a fixed allowance plus
// a generous one per token of the config's vocabulary.
const CONFIG_LIMIT = MB;
const HEADER_ALLOWANCE = MB;              // the safetensors header, besides 4 KB per layer
const TOKENIZER_ALLOWANCE = 4 * MB;
const BYTES_PER_TOKEN = 1024;             // per vocabulary entry, in tokenizer.json / tokenizer_config.json / vocab.json / merges.txt / tokenizer.bin
const TOKENIZER_ALONE_LIMIT = 64 * MB;    // a tokenizer.bin imported without its model (no config to say)

// The files each format's importer reads; the llama2.c model is "the one .bin that is not
// tokenizer.bin" (src/import/import.cpp).
// tokenizer_config.json: its add_bos_token / add_eos_token decide the specials around a prompt.
const HF_FILES = new Set(['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'vocab.json', 'merges.txt']);
const isModelBin = (name) => name.endsWith('.bin') && name !== 'tokenizer.bin';
const isWeights = (name) => name === 'model.safetensors' || isModelBin(name);

const human = (n) => (n >= MB ? `${(n / MB).toFixed(n >= 100 * MB ? 0 : 1)} MB` : `${n} bytes`);

// The size each file may have, from describe()'s answer for its config (null: no config).
function limitOf(name, info) {
  if (name === 'config.json') return { bytes: CONFIG_LIMIT, why: 'a config.json is at most 1 MB' };
  if (!info) return { bytes: TOKENIZER_ALONE_LIMIT, why: `a tokenizer imported without its model is at most ${human(TOKENIZER_ALONE_LIMIT)}` };
  const c = info.config, P = info.parameterCount, headDim = c.dModel / c.nHeads;
  const implied = (bytes, what) => ({ bytes, why: `config.json${info.format === 'llama2c' ? ' (here: the .bin header)' : ''} implies at most ${human(bytes)} (${what})` });
  if (name === 'model.safetensors') {
    const extra = c.vocabSize * c.dModel + c.nLayers * (c.maxLen * c.maxLen + 1 + headDim);
    return implied(8 + HEADER_ALLOWANCE + 4096 * c.nLayers + 4 * (P + extra), `${P} parameters as F32 with their header`);
  }
  if (isModelBin(name)) return implied(LLAMA2C_HEADER + 4 * (P + c.maxLen * headDim), `${P} parameters as F32 with the RoPE tables`);
  return implied(TOKENIZER_ALLOWANCE + BYTES_PER_TOKEN * c.vocabSize, `a tokenizer of ${c.vocabSize} tokens`);
}

// ---- the caller's files ------------------------------------------------------------------------

// What a file of the page or the caller can be: a File/Blob (name from .name), { name, bytes }
// with a Uint8Array/ArrayBuffer, or { name, url } / { name, blob }. -> { name, size?, url?, open }
function normalize(file, index, what) {
  if (typeof Blob !== 'undefined' && file instanceof Blob) {
    if (!file.name) throw new Error(`${what}: file ${index} is a Blob without a name; pass { name, blob }`);
    return blobSource(baseName(file.name), file);
  }
  if (file === null || typeof file !== 'object' || typeof file.name !== 'string' || !file.name) {
    throw new Error(`${what}: file ${index} must be a File, or { name, bytes }, { name, blob } or { name, url }`);
  }
  const name = baseName(file.name);
  if (file.blob) return blobSource(name, file.blob);
  if (file.url) return { name, url: String(file.url) };
  const given = file.bytes;
  const isBuffer = given instanceof ArrayBuffer;
  if (!(given instanceof Uint8Array) && !isBuffer) throw new Error(`${what}: '${name}' needs bytes (a Uint8Array or ArrayBuffer), a blob or a url`);
  if (isDetached(isBuffer ? given : given.buffer)) {
    throw new Error(`${what}: '${name}': its bytes are detached: the ArrayBuffer was transferred (to a worker with postMessage, or by ` +
      'structuredClone with transfer) and holds nothing; import before transferring it, or transfer a copy (bytes.slice())');
  }
  const bytes = isBuffer ? new Uint8Array(given) : given;
  return { name, size: bytes.length, slices: (from, to) => byteSlices(bytes, from, to) };
}

function blobSource(name, blob) {
  return { name, size: blob.size, slices: (from, to) => blobSlices(blob, from, to) };
}

// A folder picker names files "folder/config.json"; the importer wants "config.json".
function baseName(path) {
  return path.split(/[\\/]/).pop();
}

async function* blobSlices(blob, from, to) {
  for (let at = from; at < to; at += SLICE) yield new Uint8Array(await blob.slice(at, Math.min(to, at + SLICE)).arrayBuffer());
}

async function* byteSlices(bytes, from, to) {
  for (let at = from; at < to; at += SLICE) yield bytes.subarray(at, Math.min(to, at + SLICE));
}

// ---- downloads -------------------------------------------------------------------------------

class Reading {
  // what: the call ('importModel'); signal: the caller's AbortSignal; stallTimeout: ms.
  constructor(what, signal, stallTimeout) {
    this.what = what;
    this.signal = signal;
    this.stallTimeout = stallTimeout;
  }
  fail(name, message, cause) {
    return new Error(`${this.what}: '${name}': ${message}`, cause === undefined ? undefined : { cause });
  }
  aborted(name) {
    const reason = this.signal?.reason;
    const error = this.fail(name, `aborted${reason?.message ? ` (${reason.message})` : typeof reason === 'string' ? ` (${reason})` : ''}`, reason);
    error.name = 'AbortError';
    return error;
  }
  checkAbort(name) {
    if (this.signal?.aborted) throw this.aborted(name);
  }
  // `promise`, or a rejection once the signal aborts or nothing happens for stallTimeout ms
  // (`onStop` then cancels what was waiting).
  async guard(promise, name, waiting, onStop) {
    let timer, onAbort;
    const stop = new Promise((resolve, reject) => {
      if (Number.isFinite(this.stallTimeout)) {
        timer = setTimeout(() => reject(this.fail(name, `${waiting} for ${this.stallTimeout / 1000} s; the server stopped sending (stallTimeout)`)), this.stallTimeout);
      }
      onAbort = () => reject(this.aborted(name));
      this.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([promise, stop]);
    } catch (error) {
      onStop?.();
      promise.catch(() => {});  // what it was waiting for may still reject, later
      throw error;
    } finally {
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', onAbort);
    }
  }
}

// Fetches file.url: -> { size (announced, or null), chunks(): async iterator, cancel() }.
// `head`: only that many leading bytes are wanted (asked for with a Range request).
async function download(file, reading, limit, head = 0) {
  const controller = new AbortController();
  const request = fetch(file.url, { signal: controller.signal, ...(head ? { headers: { range: `bytes=0-${head - 1}` } } : {}) });
  let response;
  try {
    response = await reading.guard(request, file.name, `${file.url} sent no answer`, () => controller.abort());
  } catch (error) {
    if (error.message?.startsWith(`${reading.what}: `)) throw error;
    throw reading.fail(file.name, `${file.url} could not be fetched: ${reason(error)}`, error);
  }
  if (!response.ok) {
    controller.abort();
    throw reading.fail(file.name, `${file.url} answered ${response.status} ${response.statusText}`.trimEnd());
  }
  const announced = Number(response.headers.get('content-length'));
  const encoded = Boolean(response.headers.get('content-encoding'));
  const size = !encoded && Number.isSafeInteger(announced) && announced >= 0 && response.headers.has('content-length') ? announced : null;
  if (size !== null && size > limit.bytes && !head) {
    controller.abort();
    throw reading.fail(file.name, `${file.url} announces ${human(size)} (Content-Length), more than ${limit.why}; nothing was read`);
  }
  const reader = response.body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => {});
    controller.abort();
  };
  return {
    size: head ? null : size,  // a head is gathered (a server may ignore the Range and send everything)
    partial: response.status === 206,  // the Range was honoured: the body is the head
    cancel,
    async *chunks() {
      for (;;) {
        let next;
        try {
          next = await reading.guard(reader.read(), file.name, `no bytes arrived from ${file.url}`, cancel);
        } catch (error) {
          if (error.message?.startsWith(`${reading.what}: `)) throw error;
          throw reading.fail(file.name, `the download from ${file.url} failed: ${reason(error)}`, error);
        }
        if (next.done) return;
        yield next.value;
      }
    },
  };
}

// undici says only "terminated" or "fetch failed"; its cause says why.
function reason(error) {
  const cause = error?.cause?.message ?? error?.cause?.code;
  return cause && cause !== error.message ? `${error.message} (${cause})` : String(error?.message ?? error);
}

// ---- into the heap -------------------------------------------------------------------------

// Copies `size` bytes from `chunks` to the heap at `address`, refusing more or fewer.
async function copyIn(module, address, size, chunks, reading, name) {
  let at = 0;
  for await (const chunk of chunks) {
    reading.checkAbort(name);
    if (at + chunk.length > size) throw reading.fail(name, `sent more than the ${size} bytes it announced`);
    module.HEAPU8.set(chunk, address + at);  // HEAPU8 again each time: the heap may have grown
    at += chunk.length;
  }
  if (at !== size) throw reading.fail(name, `gave ${at} of its ${size} bytes`);
}

// Adds one file (at most limit.bytes; `head`: only its first bytes) to `handle`.
async function addFile(module, handle, file, limit, reading, head = 0) {
  reading.checkAbort(file.name);
  if (!file.url) {
    const size = head ? Math.min(head, file.size) : file.size;
    if (size > limit.bytes) throw reading.fail(file.name, `has ${human(size)}, more than ${limit.why}`);
    const address = call(module, () => handle.add(file.name, size)) >>> 0;
    await copyIn(module, address, size, file.slices(0, size), reading, file.name);
    return;
  }
  const body = await download(file, reading, limit, head);
  try {
    if (body.size !== null) {
      const address = call(module, () => handle.add(file.name, body.size)) >>> 0;
      await copyIn(module, address, body.size, body.chunks(), reading, file.name);
      return;
    }
    // No size announced (or a Range ignored): gathered here, up to the limit (or the head).
    const parts = [];
    let total = 0;
    const most = head || limit.bytes;
    for await (const chunk of body.chunks()) {
      reading.checkAbort(file.name);
      if (!head && total + chunk.length > most) throw reading.fail(file.name, `${file.url} sent more than ${limit.why}; the download was stopped there`);
      if (total >= most) {  // a partial answer longer than asked for: its head is all that is kept
        body.cancel();
        break;
      }
      parts.push(chunk.subarray(0, Math.min(chunk.length, most - total)));
      total += parts.at(-1).length;
      if (head && total >= head && !body.partial) {
        body.cancel();  // the whole file is coming: the head is all that was wanted
        break;
      }
    }
    const address = call(module, () => handle.add(file.name, total)) >>> 0;
    await copyIn(module, address, total, parts, reading, file.name);
  } catch (error) {
    body.cancel();
    throw error;
  }
}

// The files of one import call, checked: -> { reading, list, hf }.
function prepare(files, what, options) {
  const { signal, stallTimeout = STALL_TIMEOUT } = options;
  let list;
  try {
    list = Array.from(files ?? [], (file, i) => normalize(file, i, what));
  } catch (error) {
    if (error.message.startsWith(`${what}: `)) throw error;
    throw new Error(`${what}(files): files must be an array (or iterable) of files, got ${typeof files}`);
  }
  if (list.length === 0) throw new Error(`${what}: no files; pass the files of one model`);
  const reading = new Reading(what, signal, stallTimeout);
  reading.checkAbort(list[0].name);
  return { reading, list, hf: list.some((f) => f.name === 'config.json') };
}

// Runs `use(handle)` on a new ImportHandle, then frees it.
async function withHandle(module, use) {
  const handle = call(module, (m) => m.createImport());
  try {
    return await use(handle);
  } finally {
    handle.delete();
  }
}

// What describe() says of the files' config: config.json whole (at most 1 MB) or each llama2.c
// .bin's header; null when there is neither (a tokenizer.bin alone).
async function describeConfig(module, list, hf, reading) {
  const configs = hf ? list.filter((f) => f.name === 'config.json') : list.filter((f) => isModelBin(f.name));
  if (!configs.length) return null;
  return withHandle(module, async (handle) => {
    for (const file of configs) await addFile(module, handle, file, limitOf(file.name, null), reading, hf ? 0 : LLAMA2C_HEADER);
    return call(module, () => handle.describe());
  });
}

// tp.describeModelFiles(): only the config is read.
export async function describeFiles(module, files, what, options = {}) {
  const { reading, list, hf } = prepare(files, what, options);
  const info = await describeConfig(module, list, hf, reading);
  if (info) return info;
  // Neither config.json nor a model .bin: the core's message says what the formats need.
  return withHandle(module, async (handle) => {
    for (const file of list) call(module, () => handle.add(file.name, 0));
    return call(module, () => handle.describe());
  });
}

// A new ImportHandle holding the files `use(handle)` reads (the weights too unless
// tokenizerOnly), each within the size its config implies; freed after `use` returns.
export async function withImport(module, files, what, options, use, { tokenizerOnly = false } = {}) {
  const { reading, list, hf } = prepare(files, what, options);
  const info = await describeConfig(module, list, hf, reading);
  return withHandle(module, async (handle) => {
    for (const file of list) {
      const read = (hf ? HF_FILES.has(file.name) : file.name === 'tokenizer.bin' || isModelBin(file.name)) && !(tokenizerOnly && isWeights(file.name));
      if (read) await addFile(module, handle, file, limitOf(file.name, info), reading);
      else call(module, () => handle.add(file.name, 0));  // named (a message may mention it), never read
    }
    reading.checkAbort(list.at(-1).name);
    return use(handle);
  });
}
