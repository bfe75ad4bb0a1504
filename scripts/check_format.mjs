// The C++ style check: every C++ file of the repository is as `clang-format-14 --style=file`
// (.clang-format) would write it. `npm test` runs it as its `format` suite, one check per file.
//
//   node scripts/check_format.mjs          lists the files that differ, with the first lines
//   node scripts/check_format.mjs --fix    formats them in place
// The files are the tracked *.cpp / *.h (git ls-files), or, outside a git checkout, those under
// src/, native_tests/, bench/ and fuzz/. clang-format-14 comes from Debian (scripts/setup.sh).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from './build.mjs';

export const CLANG_FORMAT = process.env.CLANG_FORMAT ?? 'clang-format-14';
const CPP = /\.(cpp|h)$/;

function walk(dir) {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : CPP.test(e.name) ? [path.join(dir, e.name)] : []));
}

export function cppFiles() {
  const git = spawnSync('git', ['ls-files', '-z', '--', '*.cpp', '*.h'], { cwd: root, encoding: 'utf8' });
  if (git.status === 0 && git.stdout) return git.stdout.split('\0').filter((f) => f && CPP.test(f)).sort();
  return ['src', 'native_tests', 'bench', 'fuzz'].flatMap(walk).sort();
}

// Resolves { files: [...], unformatted: [{ file, lines: [first lines that differ] }] }, or throws
// when clang-format cannot run.
export function checkFormat({ fix = false } = {}) {
  const files = cppFiles();
  const unformatted = new Map();
  for (let i = 0; i < files.length; i += 200) {
    const batch = files.slice(i, i + 200);
    const args = fix ? ['-i', '--style=file', ...batch] : ['--dry-run', '--style=file', '--ferror-limit=3', ...batch];
    const r = spawnSync(CLANG_FORMAT, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.error) throw new Error(`${CLANG_FORMAT}: ${r.error.message} (scripts/setup.sh installs it: Debian's clang-format-14)`);
    if (fix && r.status !== 0) throw new Error(`${CLANG_FORMAT} -i failed: ${r.stderr}`);
    // "<file>:<line>:<col>: warning: code should be clang-formatted [-Wclang-format-violations]"
    for (const m of r.stderr.matchAll(/^(.+?):(\d+):\d+: (?:warning|error): code should be clang-formatted/gm)) {
      const file = path.relative(root, path.resolve(root, m[1]));
      if (!unformatted.has(file)) unformatted.set(file, []);
      unformatted.get(file).push(Number(m[2]));
    }
  }
  return { files, unformatted: [...unformatted].map(([file, lines]) => ({ file, lines: [...new Set(lines)] })) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fix = process.argv.includes('--fix');
  try {
    const { files, unformatted } = checkFormat({ fix });
    if (fix) {
      console.log(`formatted ${files.length} C++ files with ${CLANG_FORMAT} --style=file`);
    } else {
      for (const { file, lines } of unformatted) console.log(`  not formatted: ${file} (line ${lines.join(', ')}); clang-format-14 -i --style=file ${file}`);
      console.log(`${files.length - unformatted.length} of ${files.length} C++ files formatted as .clang-format says`);
      process.exit(unformatted.length ? 1 : 0);
    }
  } catch (e) {
    console.error(`check_format.mjs: ${e.message}`);
    process.exit(1);
  }
}
