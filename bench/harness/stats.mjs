// Medians and ranges: what every row of a benchmark table is summarised as.

export function median(values) {
  const v = values.filter((x) => x != null && !Number.isNaN(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

// { n, median, min, max, spread } of the values (spread = (max − min) / median).
export function summary(values) {
  const v = values.filter((x) => x != null && !Number.isNaN(x));
  if (!v.length) return { n: 0, median: null, min: null, max: null, spread: null };
  const m = median(v), lo = Math.min(...v), hi = Math.max(...v);
  return { n: v.length, median: m, min: lo, max: hi, spread: m ? (hi - lo) / Math.abs(m) : null };
}
