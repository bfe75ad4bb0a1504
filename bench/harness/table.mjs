// Printing: plain-text tables, and the number formats every section uses.

export const fmt = (v, digits = 1) => (v == null || Number.isNaN(v) ? '—' : v.toFixed(digits));

// Thousands with a separator, no decimals (tokens/s).
export const count = (v) => (v == null || Number.isNaN(v) ? '—' : Math.round(v).toLocaleString('en-US'));

export function printTable(title, header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c ?? '').padEnd(widths[i]) : String(c ?? '').padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
