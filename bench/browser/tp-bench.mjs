// Runs `tp_bench <args>` in a module worker (tp-bench-worker.mjs) and publishes what it printed as
// window.benchResult = { rows (the JSON lines), stderr, user_agent }.
// Query: ?args=train,--profile (comma-separated arguments) &build=wasm|wasm-threads (default wasm;
// wasm-threads needs the page cross-origin isolated).
const params = new URLSearchParams(location.search);
const request = { args: (params.get('args') ?? 'peak').split(','), build: params.get('build') ?? 'wasm' };

const worker = new Worker(new URL('./tp-bench-worker.mjs', import.meta.url), { type: 'module' });
new Promise((resolve, reject) => {
  worker.onmessage = (event) => (event.data.error ? reject(new Error(event.data.error)) : resolve(event.data));
  worker.onerror = (event) => reject(new Error(event.message ?? 'the tp_bench worker failed'));
  worker.postMessage(request);
}).then(
  ({ stdout, stderr }) => {
    const rows = stdout.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    window.benchResult = { rows, stderr: stderr.join('\n'), user_agent: navigator.userAgent };
    document.getElementById('out').textContent = [...stdout, ...stderr].join('\n');
  },
  (error) => {
    window.benchResult = { error: String(error?.message ?? error) };
    document.getElementById('out').textContent = `error: ${error?.message ?? error}`;
  },
);
