// After the initial sync, V8's old space may grow to at most twice the live
// set after each major GC. Under churn V8 otherwise lets it grow ~3× (its
// growing factor adapts to the allocation rate, up to 4×) and keeps what it
// grew to: at 100,000 pods and 2,000 events/s the engine held 0.8–1.1 GB for a
// ~360 MB live set. During the list the factor is left alone: the live set
// grows there, and a small factor would mark it again and again (measured:
// the list under churn took 1.7× as long with the factor set from the start).
// V8 flags are per process: the UI thread's heap is bounded the same way.
// Measured in test/bench/README.md ("Runs of 2026-12-06", run C the control).
import { setFlagsFromString } from 'node:v8';

/** The default: the heap grows to twice its live set, at most, between major GCs. */
export const HEAP_GROWING_PERCENT = 100;

/** The V8 flag to set after the sync; null when WLX_HEAP_GROWING_PERCENT=0 leaves V8's own factor. */
export function heapGrowthFlag(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env.WLX_HEAP_GROWING_PERCENT;
  const percent = raw === undefined || raw === '' ? HEAP_GROWING_PERCENT : Number(raw);
  if (!Number.isInteger(percent) || percent < 0 || percent > 1000)
    throw new Error(`WLX_HEAP_GROWING_PERCENT: expected a whole number from 0 to 1000, got ${JSON.stringify(raw)}`);
  return percent === 0 ? null : `--heap-growing-percent=${percent}`;
}

/** Bounds heap growth from now on (called once the engine has synced) with what heapGrowthFlag chose. */
export function boundHeapGrowth(flag: string | null): void {
  if (flag) setFlagsFromString(flag);
}
