// A queue's word in a workload's status: a suspended job waiting for quota is
// Queued, not Initializing.
import type { WorkloadQueue, WorkloadTree } from '../types.js';

/** Status words a queue's own word replaces: the job is waiting for the queue, not initialising. */
const WAITING_WORDS = new Set(['Initializing', 'Suspended', 'Pending', 'Undefined', 'Unknown']);

/**
 * A workload's status words, with the queue's (Queued, Evicted, Preempted, Unschedulable) when a queue holds
 * the job; Terminating once its object is being deleted (as kubectl and k9s say of any such object).
 */
export function statusWithQueue(
  w: Pick<WorkloadTree, 'status' | 'terminating'>,
  queue: WorkloadQueue | null | undefined,
): string[] {
  if (w.terminating) return ['Terminating'];
  const status = w.status;
  const words = status.length ? [...status] : ['Undefined'];
  const held = queueStatusWord(queue ?? undefined);
  return held && words.every((s) => WAITING_WORDS.has(s)) ? [held] : words;
}

/** The workloads view's status word when a queue holds the job (a suspended job waiting for quota is Queued, not Initializing). */
export function queueStatusWord(q: WorkloadQueue | undefined): string | null {
  if (!q) return null;
  if (q.system === 'kueue') {
    if (q.state === 'Pending' || q.state === 'QuotaReserved') return 'Queued';
    if (q.state === 'Evicted' || q.state === 'Preempted') return q.state;
    return null;
  }
  // A PodGroup still waiting for the gang (Pending / Inqueue, or unschedulable).
  if (q.reason && q.state !== 'Running') return 'Unschedulable';
  if (q.state === 'Pending' || q.state === 'Inqueue') return 'Queued';
  return null;
}

/** Kueue's 0-based position as people count places in line: 0 → `1st`, 1 → `2nd`, 10 → `11th`, 21 → `22nd`. */
export function ordinal(position: number): string {
  const n = position + 1;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A position on screen: `1st`, `fetching` while the visibility API has not answered, `unknown` when it cannot. */
export function positionText(position: number | null, unavailable: boolean): string {
  if (position !== null) return ordinal(position);
  return unavailable ? 'unknown' : 'fetching';
}
