// format.js — numbers for people: a fixed number of significant digits, −∞ for masked scores,
// compact thousands; and escaping for text put into markup.
export function fmt(v, digits = 3) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(Math.max(0, digits - 1)).replace('-', '−');
  const s = v.toPrecision(digits);
  return (s.includes('.') && !s.includes('e') ? s.replace(/0+$/, '').replace(/\.$/, '') : s).replace('-', '−');
}

// Two decimals (for matrices with values in cells): 0.53, −1.20.
export function fmt2(v) {
  if (v === -Infinity) return '−∞';
  if (!Number.isFinite(v)) return String(v);
  return v.toFixed(Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2).replace('-', '−');
}

// A loss as the training views show it: four decimals, or three significant digits when it is
// below 0.001 (a trained toy's 3.73e-5 is not 0.0000).
export function formatLoss(v) {
  if (!Number.isFinite(v)) return '–';
  return v < 0.001 ? v.toExponential(2) : v.toFixed(4);
}

// A task's metric: perplexity as it is, accuracies in percent.
export function formatMetric(metric, v, digits = 1) {
  if (!Number.isFinite(v)) return '–';
  return metric === 'perplexity' ? v.toFixed(2) : `${(v * 100).toFixed(digits)}%`;
}

export function compact(v) {
  if (!Number.isFinite(v)) return '–';
  if (Math.abs(v) >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (Math.abs(v) >= 1e4) return `${(v / 1e3).toFixed(0)}k`;
  if (Math.abs(v) >= 1e3) return `${(v / 1e3).toFixed(1)}k`;
  return String(Math.round(v));
}
