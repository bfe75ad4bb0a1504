// rope.js — what RoPE does to vectors, from a rotation table the core made
// (tp.positionalTable({ kind: 'rope', maxLen, dim }): cos and sin of t·θᵢ, shape [maxLen, dim/2]).
// No angle is computed here: the views rotate with the model's own numbers.
const f32 = Math.fround;

// vec rotated to position pos, pair by pair (2i, 2i+1) for i < the table's pairs, as the core
// rotates Q and K; dimensions past the pairs stay as they are.
export function rotate(vec, table, pos) {
  const half = table.shape[1];
  const out = Float32Array.from(vec);
  const c = table.cos.subarray(pos * half, (pos + 1) * half), s = table.sin.subarray(pos * half, (pos + 1) * half);
  for (let i = 0; i < half && 2 * i + 1 < vec.length; ++i) {
    const a = vec[2 * i], b = vec[2 * i + 1];
    out[2 * i] = f32(f32(a * c[i]) - f32(b * s[i]));  // float operations, as the core's
    out[2 * i + 1] = f32(f32(a * s[i]) + f32(b * c[i]));
  }
  return out;
}

// The angle pair i turns by per position (θᵢ), read from position 1 of the table.
export function angleStep(table, i) {
  const half = table.shape[1];
  return table.shape[0] > 1 ? Math.atan2(table.sin[half + i], table.cos[half + i]) : 0;
}

// score[m, n] = rot(q, m) · rot(k, n) / √dk for m, n < P (P ≤ the table's positions): Float32Array(P·P).
export function ropeScores(q, k, table, P, dk = q.length) {
  const qs = Array.from({ length: P }, (_, m) => rotate(q, table, m));
  const ks = Array.from({ length: P }, (_, n) => rotate(k, table, n));
  const out = new Float32Array(P * P), scale = 1 / Math.sqrt(dk);
  for (let m = 0; m < P; ++m) {
    for (let n = 0; n < P; ++n) {
      let s = 0;
      for (let j = 0; j < q.length; ++j) s += qs[m][j] * ks[n][j];
      out[m * P + n] = s * scale;
    }
  }
  return out;
}
