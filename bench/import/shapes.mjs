// The model shapes the import benchmark runs, and the one set of random weights every format is
// written from. No real weights can be downloaded here, so each runtime gets the same seeded
// values (uniform, std 0.02; norms 1, biases 0) in its own file format: Hugging Face safetensors
// for ours (F32, and the same values rounded to F16 and BF16), GGUF for wllama (bench/import/
// gguf.mjs) and ONNX with past key-values for onnxruntime-web (bench/import/export_onnx.py).
//
//   gpt2-small   GPT-2's 124 M shape: 12 layers, d 768, 12 heads, vocab 50257, context 1024, tied head
//   stories15M   llama2.c's stories15M shape: 6 layers, d 288, 6 heads, ffn 768, vocab 32000, context 256
//   stories110M  llama2.c's stories110M shape: 12 layers, d 768, 12 heads, ffn 2048, vocab 32000, context 1024
// (the two llama2.c shapes tie the head to the embedding, as llama2.c's exports of them do)

export const SHAPES = {
  'gpt2-small': { family: 'gpt2', layers: 12, d: 768, heads: 12, ffn: 3072, vocab: 50257, context: 1024 },
  stories15M: { family: 'llama', layers: 6, d: 288, heads: 6, kvHeads: 6, ffn: 768, vocab: 32000, context: 256 },
  stories110M: { family: 'llama', layers: 12, d: 768, heads: 12, kvHeads: 12, ffn: 2048, vocab: 32000, context: 1024 },
};

// The Hugging Face config.json of a shape.
export function hfConfig(shape) {
  if (shape.family === 'gpt2') {
    return { model_type: 'gpt2', architectures: ['GPT2LMHeadModel'], vocab_size: shape.vocab,
      n_positions: shape.context, n_embd: shape.d, n_layer: shape.layers, n_head: shape.heads, n_inner: null,
      activation_function: 'gelu_new', layer_norm_epsilon: 1e-5, bos_token_id: shape.vocab - 1, eos_token_id: shape.vocab - 1,
      tie_word_embeddings: true };
  }
  return { model_type: 'llama', architectures: ['LlamaForCausalLM'], vocab_size: shape.vocab,
    hidden_size: shape.d, intermediate_size: shape.ffn, num_hidden_layers: shape.layers,
    num_attention_heads: shape.heads, num_key_value_heads: shape.kvHeads, max_position_embeddings: shape.context,
    rms_norm_eps: 1e-5, rope_theta: 10000.0, hidden_act: 'silu', tie_word_embeddings: true,
    bos_token_id: 1, eos_token_id: 2 };
}

// The tensors of a shape in Hugging Face's names and layouts, in the order they are written
// (and their values drawn): [name, shape, fill] with fill 'random', 'one' or 'zero'.
export function hfTensors(shape) {
  const { d: D, ffn: F, layers: L, vocab: V } = shape;
  const out = [];
  if (shape.family === 'gpt2') {
    out.push(['wte.weight', [V, D], 'random'], ['wpe.weight', [shape.context, D], 'random']);
    for (let l = 0; l < L; l++) {
      const h = `h.${l}.`;  // Conv1D weights are [in, out]; c_attn holds q, k and v side by side
      out.push([`${h}ln_1.weight`, [D], 'one'], [`${h}ln_1.bias`, [D], 'zero'],
        [`${h}attn.c_attn.weight`, [D, 3 * D], 'random'], [`${h}attn.c_attn.bias`, [3 * D], 'zero'],
        [`${h}attn.c_proj.weight`, [D, D], 'random'], [`${h}attn.c_proj.bias`, [D], 'zero'],
        [`${h}ln_2.weight`, [D], 'one'], [`${h}ln_2.bias`, [D], 'zero'],
        [`${h}mlp.c_fc.weight`, [D, F], 'random'], [`${h}mlp.c_fc.bias`, [F], 'zero'],
        [`${h}mlp.c_proj.weight`, [F, D], 'random'], [`${h}mlp.c_proj.bias`, [D], 'zero']);
    }
    out.push(['ln_f.weight', [D], 'one'], ['ln_f.bias', [D], 'zero']);
    return out;
  }
  const KV = shape.kvHeads * (D / shape.heads);
  out.push(['model.embed_tokens.weight', [V, D], 'random']);
  for (let l = 0; l < L; l++) {
    const p = `model.layers.${l}.`;
    out.push([`${p}input_layernorm.weight`, [D], 'one'], [`${p}self_attn.q_proj.weight`, [D, D], 'random'],
      [`${p}self_attn.k_proj.weight`, [KV, D], 'random'], [`${p}self_attn.v_proj.weight`, [KV, D], 'random'],
      [`${p}self_attn.o_proj.weight`, [D, D], 'random'], [`${p}post_attention_layernorm.weight`, [D], 'one'],
      [`${p}mlp.gate_proj.weight`, [F, D], 'random'], [`${p}mlp.up_proj.weight`, [F, D], 'random'],
      [`${p}mlp.down_proj.weight`, [D, F], 'random']);
  }
  out.push(['model.norm.weight', [D], 'one']);
  return out;
}

export const numel = (dims) => dims.reduce((a, b) => a * b, 1);

// The values of every tensor, in order, from one seeded xorshift stream: call next(n) per tensor.
export function weightStream() {
  let x = 2463534242;
  const scale = (0.02 * Math.sqrt(3)) / 2147483648;
  return (dims, fill) => {
    const values = new Float32Array(numel(dims));
    if (fill === 'one') values.fill(1);
    if (fill === 'random') {
      for (let i = 0; i < values.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        values[i] = (x | 0) * scale;
      }
    }
    return values;
  };
}

// f32 -> bfloat16 / IEEE half bits, rounding to nearest even (what PyTorch's .to() does).
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
export function toBf16(values) {
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    f32[0] = values[i];
    const bits = u32[0];
    out[i] = (bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16;
  }
  return out;
}
export function toF16(values) {
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    f32[0] = values[i];
    const bits = u32[0], sign = (bits >>> 16) & 0x8000, abs = bits & 0x7fffffff;
    if (abs >= 0x477ff000) {
      out[i] = sign | 0x7c00;  // (no NaN among these weights)
    } else if (abs < 0x38800000) {
      f32[0] = Math.abs(values[i]) + 0.5;  // the subnormal grid, rounded by the float addition
      out[i] = sign | (u32[0] - 0x3f000000);
    } else {
      out[i] = sign | ((abs + 0xfff + ((abs >>> 13) & 1) - (112 << 23)) >>> 13);
    }
  }
  return out;
}
