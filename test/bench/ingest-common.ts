// Shared by the ingestion benchmarks (ingest-streaming-json.ts,
// ingest-second-worker.ts): arguments, forced GC, best-of-N timing and the
// machine's load, printed beside every figure (the machine is shared).
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';

export function benchArgs(): { total: number; runs: number; rest: string[] } {
  const [pods, runs, ...rest] = process.argv.slice(2);
  return { total: Number(pods ?? 100_000), runs: Number(runs ?? 5), rest };
}

export function forcedGc(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    process.stderr.write('run with node --expose-gc\n');
    process.exit(2);
  }
  return () => {
    gc();
    gc();
  };
}

/** "load 1.23 1.10 0.95" (1, 5, 15 minutes). */
export function load(): string {
  return `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}

export const perPod = (ms: number, pods: number): string => ((ms * 1000) / pods).toFixed(2);

/** CPU ms this thread has used (Linux: /proc/thread-self/stat, 10 ms ticks): Node 20 has no threadCpuUsage. */
export function threadCpuMs(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU ms of the whole process (every thread, GC helpers included). */
export function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
