// positional.js — the position math of docs/MODEL.md in plain JS (no DOM, no wasm), for the
// views that explain it: the sinusoidal table, RoPE rotations and ALiBi biases.

// P[t, 2i] = sin(t / 10000^(2i/D)), P[t, 2i+1] = cos(...): Float32Array(T*D).
export function sinusoidalTable(T, D) {
  const out = new Float32Array(T * D);
  for (let t = 0; t < T; ++t) {
    for (let j = 0; j < D; ++j) {
      const i2 = j - (j % 2);
      const angle = t / 10000 ** (i2 / D);
      out[t * D + j] = j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);  // odd D: the last column is a sine
    }
  }
  return out;
}

// theta_i = base^(-2i/dh) for each pair i < dh/2.
export function ropeThetas(dh, base = 10000) {
  return Array.from({ length: Math.floor(dh / 2) }, (_, i) => base ** ((-2 * i) / dh));
}

// A head vector rotated pairwise (2i, 2i+1) by pos * theta_i.
export function ropeRotate(vec, pos, base = 10000) {
  const out = Float32Array.from(vec);
  ropeThetas(vec.length, base).forEach((th, i) => {
    const c = Math.cos(pos * th), s = Math.sin(pos * th);
    const a = vec[2 * i], b = vec[2 * i + 1];
    out[2 * i] = a * c - b * s;
    out[2 * i + 1] = a * s + b * c;
  });
  return out;
}

// The inverse rotation: recovers the un-rotated vector from a traced (rotated) one.
export function ropeUnrotate(vec, pos, base = 10000) {
  return ropeRotate(vec, -pos, base);
}

// score[m, n] = rot(q, m) · rot(k, n) / sqrt(dh) for m, n < P: Float32Array(P*P).
export function ropeScores(q, k, P, base = 10000) {
  const dh = q.length, out = new Float32Array(P * P);
  const qs = Array.from({ length: P }, (_, m) => ropeRotate(q, m, base));
  const ks = Array.from({ length: P }, (_, n) => ropeRotate(k, n, base));
  for (let m = 0; m < P; ++m) {
    for (let n = 0; n < P; ++n) {
      let s = 0;
      for (let j = 0; j < dh; ++j) s += qs[m][j] * ks[n][j];
      out[m * P + n] = s / Math.sqrt(dh);
    }
  }
  return out;
}

// ALiBi: slope m_h = 2^(-8(h+1)/H); bias[t, u] = -m_h |t - u|.
export function alibiSlopes(H) {
  return Array.from({ length: H }, (_, h) => 2 ** ((-8 * (h + 1)) / H));
}
export function alibiBias(slope, T) {
  const out = new Float32Array(T * T);
  for (let t = 0; t < T; ++t) for (let u = 0; u < T; ++u) out[t * T + u] = -slope * Math.abs(t - u);
  return out;
}

export function cosineMatrix(vectors) {
  const n = vectors.length, out = new Float32Array(n * n);
  const norms = vectors.map((v) => Math.hypot(...v) || 1);
  for (let a = 0; a < n; ++a) {
    for (let b = 0; b < n; ++b) {
      let s = 0;
      for (let j = 0; j < vectors[a].length; ++j) s += vectors[a][j] * vectors[b][j];
      out[a * n + b] = s / (norms[a] * norms[b]);
    }
  }
  return out;
}
