// strings/table.js — reads a string table written as text, one `key = text` a line (blank lines
// between groups): a translator edits words, not JavaScript, and an apostrophe needs no escape.
// A line that is not `key = text`, or a key given twice, throws with the file and line, so a
// broken table fails the first test that imports it rather than showing a key on the page.
const LINE = /^([A-Za-z0-9_.-]+) = (.*)$/;

export function table(text, file) {
  const out = {};
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const m = LINE.exec(line);
    if (!m) throw new Error(`${file}: line ${i} is not "key = text": ${line.slice(0, 60)}`);
    if (Object.hasOwn(out, m[1])) throw new Error(`${file}: line ${i}: ${m[1]} is given twice`);
    out[m[1]] = m[2];
  });
  return Object.freeze(out);
}
