// similarity.js — cosine similarity of every pair of vectors (the embeddings panel's "one-hot
// versus dense" view): out[a·n + b] = va · vb / (|va| |vb|).
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
