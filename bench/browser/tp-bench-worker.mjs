// tp-bench.mjs's module worker: loads build/<build>/tp_bench_web.mjs (build: a folder name under
// build/, such as wasm or wasm-threads), runs callMain(args) and posts back every line the program
// printed (stdout and stderr apart), or the error.

self.onmessage = async ({ data: { args, build } }) => {
  try {
    if (!/^[\w-]+$/.test(build)) throw new Error(`build must be a folder name under build/ (letters, digits, - and _), got '${build}'`);
    const { default: createTpBench } = await import(`../../build/${build}/tp_bench_web.mjs`);
    const stdout = [], stderr = [];
    const module = await createTpBench({ print: (line) => stdout.push(line), printErr: (line) => stderr.push(line) });
    const code = module.callMain(args);
    if (code) throw new Error(`tp_bench ${args.join(' ')} exited with ${code}: ${stderr.join(' ')}`);
    self.postMessage({ stdout, stderr });
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
