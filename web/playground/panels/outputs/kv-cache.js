// outputs/kv-cache.js — what the decoder's KV cache holds as the answer appears: per decoder
// layer, the K and V rows of every position fed (the prompt, then each token but the last), laid
// out as the core lays the cache out (tp.kvLayout: capacity, the ring of a windowed layer, the
// row each position goes to). The rows are a trace of the fed sequence: the rows the cache
// computed, since decoding and the full forward pass share their code. Also the sentence of
// "Measure the KV cache". Pure.
import { attentionOf, parseTraceName, traceName } from '../../../lib/trace-names.js';

// The trace the picture needs: what the decoder was fed, as the session's snapshot() takes it.
// An answer to a source (an encoder-decoder's, or a sequence-to-sequence task's on a
// decoder-only model, which reads "source <SOS> answer") is the trace's target; a continuation
// is the prompt's own text going on. fedText: the fed tokens decoded.
export function kvTraceRequest(config, prompt, fedText, { seq2seq }) {
  const { stack } = attentionOf('dec');
  const names = [`${stack}.`];
  return config.arch === 'encoder-decoder' || seq2seq ? { input: prompt, target: fedText, names } : { input: prompt + fedText, names };
}

// The positions the picture's rows are: the decoder's input (an encoder-decoder's) or the one
// sequence a decoder-only model reads.
export const kvRows = (config, trace) => (config.arch === 'encoder-decoder' ? trace.decoderInput : trace.input);

// The ids fed back into the decoder while generating (every token but the last, no <EOS>).
export function fedIds(result, specials) {
  return result.steps.slice(0, Math.max(0, result.steps.length - 1)).map((s) => s.id).filter((id) => id !== specials?.eos);
}

// trace: the snapshot of the fed sequence; fed: how many answer tokens were fed back; steps: the
// answer's tokens; layout: tp.kvLayout(config, N).
// -> { data (for <tp-kv-cache>), label, uptoAt: [positions in the cache while k tokens show] } | null
export function kvPictureProps({ config, trace, fed, steps, layout }, { t }) {
  const { stack, attn } = attentionOf('dec');
  const rows = kvRows(config, trace);
  const byLayer = new Map(layout.map((l) => [l.layer, l]));
  const layers = [];
  for (const name of trace.names) {
    const n = parseTraceName(name);
    if (n?.pattern !== '{stack}.{layer}.{attn}.k' || n.stack !== stack || n.attn !== attn) continue;
    const k = trace.tensors[name], v = trace.tensors[traceName('{stack}.{layer}.{attn}.v', n)];
    const l = byLayer.get(n.layer);
    if (!l) continue;
    layers.push({ layer: n.layer, local: l.local, capacity: l.capacity, ringStart: l.ringStart, rows: l.rows, kvDim: k.shape[1], k: k.data, v: v.data });
  }
  if (!layers.length) return null;
  const N = rows.tokens.length, prompt = Math.max(1, N - fed);
  return {
    label: t('out.kvLabel', { n: N }),
    data: { layers: layers.sort((a, b) => a.layer - b.layer), tokens: rows.tokens, prompt },
    // While k of the answer's tokens show: the prompt and the k − 1 fed back.
    uptoAt: Array.from({ length: steps + 1 }, (_, k) => prompt + Math.min(fed, Math.max(0, k - 1))),
  };
}

// measure: { on, off (ms per token, medians), same, tokens } | { error } -> the sentence.
export function kvMeasureText(measure, { t }) {
  if (!measure) return '';
  if (measure.error) return measure.error;
  const { on, off, same, tokens } = measure;
  return t('out.kvResult', { on: on.toFixed(3), off: off.toFixed(3), x: (off / Math.max(on, 1e-6)).toFixed(1), same: same ? t('out.same') : t('out.differ') }) +
    (tokens < 16 ? ` ${t('out.kvShort')}` : '');
}
