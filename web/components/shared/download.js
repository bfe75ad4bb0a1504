// download.js — save a Blob as a file (PNG/SVG exports, model files). Works under a strict CSP:
// an <a download> navigation is not a fetch, so no extra source is needed.
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function slug(s) {
  return String(s || 'view').toLowerCase().replace(/[^a-z0-9가-힣]+/g, '-').replace(/^-|-$/g, '') || 'view';
}
