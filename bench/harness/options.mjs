// Reading a section's own options (`--steps 10`, `--threads 1,2`) with an error that names the
// option and what it allows, instead of a NaN that would run zero steps or hang a page.

// A whole number >= min, or `fallback` when the option is absent.
export function wholeNumber(args, name, fallback, { min = 1, max = Infinity } = {}) {
  if (!args.has(name)) return fallback;
  const v = Number(args.get(name));
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new Error(`${name} must be a whole number from ${min}${max < Infinity ? ` to ${max}` : ' up'}, got '${args.get(name)}'`);
  }
  return v;
}

// A comma-separated list of whole numbers >= min (`--threads 1,2`).
export function wholeNumbers(args, name, fallback, { min = 1, max = Infinity } = {}) {
  if (!args.has(name)) return fallback;
  return String(args.get(name)).split(',').map((x) => {
    const v = Number(x);
    if (x === '' || !Number.isInteger(v) || v < min || v > max) {
      throw new Error(`${name}: '${x}' is not a whole number from ${min}${max < Infinity ? ` to ${max}` : ' up'} (a comma-separated list, e.g. 1,2)`);
    }
    return v;
  });
}
