// CPU time of a process tree, thread by thread, from /proc (Linux): what a browser spent beside
// the benchmark's own threads while a row ran. Times are CPU seconds (user + system), so they
// do not depend on how busy the rest of the machine is the way wall-clock figures do.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

const tick = 100;  // USER_HZ: Linux reports /proc times in 1/100 s on every architecture it runs on

function stat(path) {
  try {
    const text = readFileSync(path, 'utf8');
    // "pid (comm) state ppid ..." — comm may hold spaces and parentheses: split at the last ')'.
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const f = text.slice(close + 2).split(' ');
    return { comm, ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / tick };
  } catch {
    return null;
  }
}

// Every process descending from `pid` (itself included).
function tree(pid) {
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(`/proc/${name}/stat`);
    if (s) parents.set(Number(name), s.ppid);
  }
  const out = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of parents) {
      if (!out.has(child) && out.has(parent)) {
        out.add(child);
        grew = true;
      }
    }
  }
  return [...out];
}

// { 'pid/tid': { comm, cpu } } for every thread of the tree; {} where there is no /proc.
export function threadTimes(pid) {
  if (os.platform() !== 'linux' || !pid) return {};
  const out = {};
  for (const p of tree(pid)) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      const s = stat(`/proc/${p}/task/${t}/stat`);
      if (s) out[`${p}/${t}`] = { comm: s.comm, cpu: s.cpu };
    }
  }
  return out;
}

// CPU seconds each thread name spent between two threadTimes() readings (threads that started
// in between count from zero), largest first.
export function cpuByName(before, after) {
  const byName = {};
  for (const [id, { comm, cpu }] of Object.entries(after)) {
    const spent = cpu - (before[id]?.cpu ?? 0);
    if (spent > 0) byName[comm] = (byName[comm] ?? 0) + spent;
  }
  return Object.fromEntries(Object.entries(byName).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v * 100) / 100]));
}
