// attention/sides.js — which tokens an attention kind's rows (queries) and columns (keys) are,
// in a trace of one input: encoder self-attention reads the input, a decoder-only model's
// self-attention too; an encoder-decoder's decoder reads its own input, and its cross-attention
// asks the encoder's. 'in' / 'out' say which side of the page a token belongs to (hover sync).
export function sidesOf(trace, config, kind) {
  const encDec = config.arch === 'encoder-decoder';
  const input = trace.input, decoder = trace.decoderInput ?? { tokens: [], ids: [] };
  const rows = kind === 'enc' || (kind === 'dec' && !encDec) ? input : decoder;
  const cols = kind === 'cross' || kind === 'enc' || !encDec ? input : decoder;
  return { rows, cols, rowSide: rows === input ? 'in' : 'out', colSide: cols === input ? 'in' : 'out' };
}
