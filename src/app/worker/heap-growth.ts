// After the initial sync, V8's old space may grow to at most twice the live
// set after each major GC. Under churn V8 otherwise lets it grow ~3× (its
// growing factor adapts to the allocation rate, up to 4×) and keeps what it
// grew to: at 100,000 pods and 2,000 events/s the engine held 0.8–1.1 GB for a
// ~360 MB live set. During the list the factor is left alone: the live set
// grows there, and a small factor would mark it again and again (measured:
// the list under churn took 1.7× as long with the factor set from the start).
// V8 flags are per process: the UI thread's heap is bounded the same way, and
// in a worker serving several engines (a fleet's) the bound waits for the
// last of them to sync (first-lists.ts).
// Measured in test/bench/README.md ("Runs of 2026-12-06", run C the control; "Fleet").
import { setFlagsFromString } from 'node:v8';

/** The default: the heap grows to twice its live set, at most, between major GCs. */
export const HEAP_GROWING_PERCENT = 100;

/** V8's own adaptive factor (the flag's default, 0: unset). */
const V8_OWN_FACTOR = '--heap-growing-percent=0';

/** The V8 flag to set after the sync; null when WLX_HEAP_GROWING_PERCENT=0 leaves V8's own factor. */
export function heapGrowthFlag(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env.WLX_HEAP_GROWING_PERCENT;
  const percent = raw === undefined || raw === '' ? HEAP_GROWING_PERCENT : Number(raw);
  if (!Number.isInteger(percent) || percent < 0 || percent > 1000)
    throw new Error(`WLX_HEAP_GROWING_PERCENT: expected a whole number from 0 to 1000, got ${JSON.stringify(raw)}`);
  return percent === 0 ? null : `--heap-growing-percent=${percent}`;
}

/**
 * The bound for one worker's engines (FirstLists' listingChanged, first-lists.ts):
 * set while none of them is listing, V8's own factor while any is. In a
 * shared worker the first engine to sync used to bound the heap for the
 * others' lists too: the fleet's worker then spent 3.4× the single cluster's
 * GC time (test/bench/README.md "Fleet").
 */
export function heapBound(
  flag: string | null,
  setFlags: (flags: string) => void = setFlagsFromString,
): (listing: boolean) => void {
  let bounded = false;
  return (listing) => {
    if (!flag || listing !== bounded) return;
    setFlags(listing ? V8_OWN_FACTOR : flag);
    bounded = !listing;
  };
}
