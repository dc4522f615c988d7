// Trouble a workload's status word does not show: a JobSet is Running while
// one of its pods is OOMKilled in a crash loop, a PyTorchJob is Running with a
// worker that cannot pull its image. Pure over the tree; a reader of trees
// across snapshots keeps a TroubleMemo (the explorer's is in its RowCache):
// the store keeps a tree object while the workload is unchanged, so the
// explorer computes it once per change rather than per frame.
import type { PodSummary, RoleTree, WorkloadTree, TroubleCount, TroubleSeverity, WorkloadTrouble } from './types.js';

// Waiting and terminated words that mean a container cannot run (kubectl's words).
const FAILING =
  /^(Init:)?(CrashLoopBackOff|OOMKilled|ImagePullBackOff|ErrImagePull|InvalidImageName|ErrImageNeverPull|CreateContainerError|CreateContainerConfigError|RunContainerError|PreStartHookError|PostStartHookError|ContainerStatusUnknown|Error|Evicted|Signal:\d+|ExitCode:\d+)$/;

// Words that never mean trouble alone (a Running pod is judged below by its restarts).
const SETTLED = new Set(['Completed', 'Pending', 'ContainerCreating', 'PodInitializing', 'Terminating']);

// The words a crash-looping container passes through: dead, backing off, dead again.
const CRASH_CYCLE = /^(Init:)?(CrashLoopBackOff|OOMKilled|Error|Signal:\d+|ExitCode:\d+)$/;

/** The causes that mean a container keeps dying (a workload with one is Degraded: see workloadWords). */
export const CRASH_CAUSES: ReadonlySet<string> = new Set(['OOMKilled', 'CrashLoopBackOff']);

/**
 * One cause for a whole crash loop, whatever the moment of the cycle shows
 * (backing off, restarted and not ready yet, just died): OOMKilled when the
 * container was killed for memory, else CrashLoopBackOff.
 */
function crashCause(p: PodSummary): string {
  return p.lastFailure === 'OOMKilled' || p.status.endsWith('OOMKilled') ? 'OOMKilled' : 'CrashLoopBackOff';
}

/** What is wrong with one pod, or null: the reason a user searches for (OOMKilled over CrashLoopBackOff). */
export function podTrouble(p: PodSummary): { reason: string; severity: TroubleSeverity } | null {
  if (p.reason === 'Unschedulable') return { reason: 'Unschedulable', severity: 'warn' };
  // Restarted in the last minutes: still in trouble while it runs between two crashes.
  if (p.recentRestart) return { reason: crashCause(p), severity: 'error' };
  // Most pods, answered before the pattern: this runs for every pod of each changed workload under churn.
  if (p.status === 'Running' ? p.ready || p.restarts === 0 || !p.lastFailure : SETTLED.has(p.status)) return null;
  const failing = FAILING.test(p.status);
  // Between crashes the pod reads Running (not ready yet): its last death still counts.
  const restarting = !p.ready && p.restarts > 0 && !!p.lastFailure && p.status === 'Running';
  if (!failing && !restarting) return null;
  if (p.restarts > 0 && (restarting || CRASH_CYCLE.test(p.status))) return { reason: crashCause(p), severity: 'error' };
  const reason = p.lastFailure === 'OOMKilled' ? 'OOMKilled' : failing ? p.status : (p.lastFailure ?? p.status);
  return { reason, severity: 'error' };
}

function forEachPod(roles: readonly RoleTree[], visit: (p: PodSummary) => void): void {
  for (const r of roles) {
    for (const p of r.pods) visit(p);
    forEachPod(r.roles, visit);
  }
}

const NONE: WorkloadTrouble = { severity: null, counts: [], restarts: 0 };

/**
 * Pods in trouble counted by reason, as pods come and go: the engine worker
 * keeps one per workload and moves it by the pods that changed (elided-pods.ts).
 */
export class TroubleTally {
  private readonly counts = new Map<string, { pods: number; severity: TroubleSeverity }>();
  private restarts = 0;

  /** Counts `p` in (`sign` 1) or out (-1). */
  add(p: PodSummary, sign: 1 | -1 = 1): void {
    const t = podTrouble(p);
    if (!t) return;
    this.restarts += sign * p.restarts;
    const c = this.counts.get(t.reason);
    if (c) {
      c.pods += sign;
      if (c.pods <= 0) this.counts.delete(t.reason);
    } else if (sign > 0) this.counts.set(t.reason, { pods: 1, severity: t.severity });
  }

  result(): WorkloadTrouble {
    if (this.counts.size === 0) return NONE;
    const sorted: TroubleCount[] = [...this.counts].map(([reason, c]) => ({
      reason,
      pods: c.pods,
      severity: c.severity,
    }));
    sorted.sort(
      (a, b) =>
        (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
        b.pods - a.pods ||
        (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0),
    );
    return {
      severity: sorted.some((c) => c.severity === 'error') ? 'error' : 'warn',
      counts: sorted,
      restarts: this.restarts,
    };
  }
}

/** A tally of every pod of a tree. */
export function tallyTrouble(w: Pick<WorkloadTree, 'roles' | 'unattributedPods'>): TroubleTally {
  const tally = new TroubleTally();
  for (const p of w.unattributedPods) tally.add(p);
  forEachPod(w.roles, (p) => tally.add(p));
  return tally;
}

/** Each tree's trouble once per tree object, for one reader of trees across snapshots. */
export class TroubleMemo {
  private readonly byTree = new WeakMap<WorkloadTree, WorkloadTrouble>();

  of(w: WorkloadTree): WorkloadTrouble {
    let t = this.byTree.get(w);
    if (!t) this.byTree.set(w, (t = tallyTrouble(w).result()));
    return t;
  }
}

/** The pods in trouble in a workload, counted by reason (kept in `memo` when given). */
export function workloadTrouble(w: WorkloadTree, memo?: TroubleMemo): WorkloadTrouble {
  // A tree sent without its pods carries theirs, computed by this function in the engine worker.
  if (w.podsElided) return w.podsElided.trouble;
  return memo ? memo.of(w) : tallyTrouble(w).result();
}

/** `1 pod OOMKilled, 2 pods Unschedulable, 4 restarts` (empty when no trouble). */
export function troubleText(t: WorkloadTrouble): string {
  const parts = t.counts.map((c) => `${c.pods} pod${c.pods === 1 ? '' : 's'} ${c.reason}`);
  if (t.restarts) parts.push(`${t.restarts} restart${t.restarts === 1 ? '' : 's'}`);
  return parts.join(', ');
}
