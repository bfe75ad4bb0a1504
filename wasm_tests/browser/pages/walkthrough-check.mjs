// walkthrough-check.mjs — imported inside the walk-through suites' pages (a page's CSP runs no
// function passed as source, but a same-origin module): every number a walk-through's steps
// show, each matrix and each focused cell of a formula, against the trace tensors it names, read
// the test's own way (a [.., R, C] tensor, the head's slice, the rows and columns the step picks).
export function walkthroughMismatches(steps, tensors) {
  const at = (name, head, r, c) => {
    const e = tensors[name];
    const [R, C] = e.shape.slice(-2);
    return e.data[(head ?? 0) * R * C + r * C + c];
  };
  const mismatches = [];
  let matrices = 0, cells = 0;
  for (const s of steps) {
    for (const m of s.matrices) {
      const { name, head, cols, row } = m.trace;
      if (!tensors[name]) {
        mismatches.push(`${s.id}: ${name} is not in the trace`);
        continue;
      }
      const [R, C] = tensors[name].shape.slice(-2);
      const want = [];
      for (let r = 0; r < R; ++r) {
        if (row !== undefined && r !== row) continue;
        for (let c = cols?.[0] ?? 0; c < (cols?.[1] ?? C); ++c) want.push(at(name, head, r, c));
      }
      const got = Array.from(m.matrix.data);
      if (got.length !== want.length || got.some((v, i) => !Object.is(v, want[i]))) mismatches.push(`${s.id} ${m.label}`);
      ++matrices;
    }
    for (const c of s.cells) {
      const { name, head, row, col } = c.trace;
      if (!tensors[name]) mismatches.push(`${s.id}: cell ${name} is not in the trace`);
      else if (!Object.is(c.value, at(name, head, row, col))) mismatches.push(`${s.id} cell ${name}[${row}, ${col}]`);
      ++cells;
    }
  }
  return { mismatches, matrices, cells };
}
