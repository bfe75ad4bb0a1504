// model-files.js — another project's model files into the wasm heap, for tp.importModel().
//
// A GPT-2-small checkpoint is about 500 MB. Read whole into an ArrayBuffer and then copied into
// the heap, it would need twice that; instead the module allocates each file's bytes (its
// ImportHandle.add returns the heap address) and the file is copied in 8 MB slices, read one at
// a time from the File/Blob or the fetch stream. The heap may grow between slices, which
// replaces module.HEAPU8, so the view is looked up again for every slice. Addresses above 2 GB
// arrive as positive numbers (the C++ side returns a double), and `>>> 0` keeps any other
// 32-bit address unsigned.
import { call } from './engine.js';

const SLICE = 8 << 20;
const LLAMA2C_HEADER = 28;  // seven int32: all describe() reads of a llama2.c .bin

// What a file of the page or the caller can be: a File/Blob (name from .name), { name, bytes }
// with a Uint8Array/ArrayBuffer, or { name, url } / { name, blob }.
function normalize(file, index) {
  if (typeof Blob !== 'undefined' && file instanceof Blob) {
    if (!file.name) throw new Error(`importModel: file ${index} is a Blob without a name; pass { name, blob }`);
    return { name: baseName(file.name), size: file.size, slices: (from, to) => blobSlices(file, from, to) };
  }
  if (file === null || typeof file !== 'object' || typeof file.name !== 'string' || !file.name) {
    throw new Error(`importModel: file ${index} must be a File, or { name, bytes }, { name, blob } or { name, url }`);
  }
  const name = baseName(file.name);
  if (file.blob) return { name, size: file.blob.size, slices: (from, to) => blobSlices(file.blob, from, to) };
  if (file.url) return { name, url: file.url };
  const bytes = file.bytes instanceof ArrayBuffer ? new Uint8Array(file.bytes) : file.bytes;
  if (!(bytes instanceof Uint8Array)) throw new Error(`importModel: file '${name}' needs bytes (a Uint8Array or ArrayBuffer), a blob or a url`);
  return { name, size: bytes.length, slices: (from, to) => byteSlices(bytes, from, to) };
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

// A URL is fetched once; with a Content-Length its body streams into the heap. `head`: only
// that many leading bytes are wanted (asked for with a Range request; a server that ignores it
// has its stream cancelled once they have arrived).
async function resolveUrl(file, head) {
  const response = await fetch(file.url, head ? { headers: { range: `bytes=0-${head - 1}` } } : undefined);
  if (!response.ok) throw new Error(`importModel: ${file.url} answered ${response.status} ${response.statusText}`);
  const length = Number(response.headers.get('content-length'));
  if (!Number.isFinite(length) || length <= 0 || response.headers.get('content-encoding')) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { name: file.name, size: bytes.length, slices: (from, to) => byteSlices(bytes, from, to) };
  }
  const reader = response.body.getReader();
  return {
    name: file.name,
    size: length,
    // Cancelled only when a server ignored the Range and is sending the whole file.
    stop: head && response.status !== 206 ? () => reader.cancel() : undefined,
    async *slices() {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    },
  };
}

// The files that hold weights, which a tokenizer does not need.
const isWeights = (name) => name === 'model.safetensors' || (name.endsWith('.bin') && name !== 'tokenizer.bin');

// Copies the files into a new ImportHandle. configOnly: only what describe() reads
// (config.json whole, a llama2.c .bin's 28-byte header), so the page can say what fits before
// it reads any weights; tokenizerOnly: everything but the weights.
export async function fillImport(module, files, { configOnly = false, tokenizerOnly = false } = {}) {
  const list = Array.from(files ?? [], normalize);
  if (list.length === 0) throw new Error('importModel: no files; pass the files of one model');
  const handle = call(module, (m) => m.createImport());
  try {
    for (let file of list) {
      const header = file.name.endsWith('.bin') && file.name !== 'tokenizer.bin';
      if (configOnly && file.name !== 'config.json' && !header) continue;
      if (tokenizerOnly && isWeights(file.name)) continue;
      const headOnly = configOnly && header ? LLAMA2C_HEADER : 0;
      if (file.url) file = await resolveUrl(file, headOnly);
      const size = headOnly ? Math.min(headOnly, file.size) : file.size;
      const address = call(module, () => handle.add(file.name, size)) >>> 0;
      let at = 0;
      for await (const slice of file.slices(0, size)) {
        const part = slice.subarray(0, Math.min(slice.length, size - at));
        module.HEAPU8.set(part, address + at);  // HEAPU8 again each time: the heap may have grown
        at += part.length;
        if (headOnly && at >= size && file.stop) {  // a stream of which only the head was wanted
          await file.stop();
          break;
        }
      }
      if (at !== size) throw new Error(`importModel: '${file.name}' gave ${at} of its ${size} bytes`);
    }
    return handle;
  } catch (error) {
    handle.delete();
    throw error;
  }
}
