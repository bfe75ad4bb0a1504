// What the machine was doing while a benchmark ran: the load average, how busy the cores were
// with other work just before a round (an idle probe of /proc/stat), and the core clock.
//
// On a shared machine every absolute figure moves with these, so each round records them and a
// round whose load average exceeds the core count is flagged "loaded" (bench/harness/rounds.mjs
// repeats it or marks it). The load average is the kernel's one-minute figure: it lags, and it
// counts the benchmark's own threads, so the idle probe says what the others were doing.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jsonLines } from './run.mjs';

export const cores = () => (os.availableParallelism ? os.availableParallelism() : os.cpus().length);

const round2 = (v) => Math.round(v * 100) / 100;

// The aggregate "cpu" line of /proc/stat: busy (user, nice, system, irq, softirq), steal (time the
// hypervisor gave to another guest) and total jiffies; null where there is no /proc.
function cpuTimes() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = f;
    return { busy: user + nice + system + irq + softirq, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
  } catch {
    return null;
  }
}

// Cores kept busy by everything else on the machine over `ms` during which this process only
// waits (and the benchmark runs nothing): { busy, steal } in cores, or nulls without /proc.
export async function idleProbe(ms = 1000) {
  const a = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = cpuTimes();
  if (!a || !b || b.total === a.total) return { busy: null, steal: null };
  const n = cores();
  return { busy: round2(((b.busy - a.busy) / (b.total - a.total)) * n), steal: round2(((b.steal - a.steal) / (b.total - a.total)) * n) };
}

// The core clock in GHz from `tp_bench clock` (a chain of dependent multiplies, best of five),
// or null when the native bench is not built or the CPU is not x86.
export async function clockGhz(root) {
  const bench = path.join(root, 'build/native/tp_bench');
  if (!existsSync(bench)) return null;
  try {
    const [row] = await jsonLines(bench, ['clock'], { cwd: root });
    return row?.clock_ghz || null;
  } catch {
    return null;
  }
}

export const loadAverage = () => round2(os.loadavg()[0]);

// What a round records before it starts.
export async function snapshot(root) {
  const probe = await idleProbe();
  return { time: new Date().toISOString(), load: loadAverage(), others_busy: probe.busy, steal: probe.steal, clock_ghz: await clockGhz(root) };
}

// The run's description for latest.json and the printed header.
export function describeMachine() {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: cores(),
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.arch()} ${os.release()}`,
  };
}
