// The word a workload is shown with, on every screen and in `wlx get`'s tree:
// the definition's verdict (Workload Map's statuses), the queue's word when a
// queue holds the job, and Degraded while a pod crash-loops (or restarted in
// the last RECENT_RESTART_MS). The word changes when the state does, not with
// each restart; the cause beside it (`Degraded (OOMKilled)`) never repeats it.
import type { WorkloadTree, WorkloadQueue, WorkloadTrouble } from './types.js';
import { statusWithQueue } from './scheduling/words.js';
import { CRASH_CAUSES, workloadTrouble, type TroubleMemo } from './trouble.js';

/** Words a crash loop overrides: the job is running, or starting, but a container keeps dying. */
const OVERRIDDEN = new Set(['Running', 'Initializing']);

/** Whether a pod of the workload crash-loops or restarted recently. */
export function crashLooping(t: WorkloadTrouble): boolean {
  return t.counts.some((c) => CRASH_CAUSES.has(c.reason));
}

/** The status words to show: Degraded instead of Running/Initializing while a pod crash-loops. */
export function workloadWords(w: WorkloadTree, queue?: WorkloadQueue | null, trouble?: TroubleMemo): string[] {
  const words = statusWithQueue(w, queue);
  return words.every((s) => OVERRIDDEN.has(s)) && crashLooping(workloadTrouble(w, trouble)) ? ['Degraded'] : words;
}

/**
 * ` (OOMKilled)`, ` (OOMKilled+1)`: the pods' worst trouble beside the word,
 * leaving out a reason the words already say (`Unschedulable`, not
 * `Unschedulable (Unschedulable)`); empty when none is left.
 */
export function troubleMarker(t: WorkloadTrouble, words: readonly string[] = []): string {
  const [first, ...more] = t.counts.filter((c) => !words.includes(c.reason));
  return first ? ` (${first.reason}${more.length ? `+${more.length}` : ''})` : '';
}
