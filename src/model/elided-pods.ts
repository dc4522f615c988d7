// Trees without their pods: the engine worker sends the UI thread only the
// pods its views draw (src/app/worker/README.md "Pod scope"). A tree left
// out keeps everything but its pod lists, and carries what the workloads list
// reads of its pods (count, nodes, trouble, GPU overlay), computed here by
// the same rules the UI would apply to the whole tree.
import { workloadGpu } from './gpu-overlay.js';
import { treePodCount } from './tree-pods.js';
import { placedNodes } from './topology.js';
import { tallyTrouble, type TroubleTally } from './trouble.js';
import type { ElidedPods, GpuMetrics, ModelSnapshot, PodScope, PodSummary, RoleTree, WorkloadTree } from './types.js';

/** What the workloads list reads of a tree's pods. */
export function elidedPodsOf(w: WorkloadTree, metrics: GpuMetrics | undefined): ElidedPods {
  return elidedFacts(w, metrics, treePodCount(w), tallyTrouble(w), treeNodes(w));
}

function elidedFacts(
  w: WorkloadTree,
  metrics: GpuMetrics | undefined,
  pods: number,
  tally: TroubleTally,
  nodes: string[],
): ElidedPods {
  return {
    pods,
    nodes,
    trouble: tally.result(),
    ...(metrics ? { gpu: workloadGpu(metrics, w) } : {}),
  };
}

/** Each role already names where its pods are (topology.ts placedNodes); only the unattributed pods are read one by one. */
function treeNodes(w: WorkloadTree): string[] {
  const nodes = new Set<string>();
  const visit = (roles: readonly RoleTree[]) => {
    for (const r of roles) {
      for (const n of r.nodes) nodes.add(n);
      visit(r.roles);
    }
  };
  visit(w.roles);
  for (const n of placedNodes(w.unattributedPods)) nodes.add(n);
  return [...nodes];
}

/**
 * Moves `tally` from tree `prev` to tree `next` of the same workload by the
 * pods that differ (by identity); under churn one pod of fifty changed. Says
 * whether the nodes may have changed, or null, with the tally untouched, when
 * the role structure differs (then everything is counted again).
 */
function moveTally(
  prev: WorkloadTree,
  next: WorkloadTree,
  tally: TroubleTally,
): { nodesChanged: boolean; podsAdded: number } | null {
  let nodesChanged = false;
  const out: PodSummary[] = [];
  const into: PodSummary[] = [];
  const movePods = (before: readonly PodSummary[], after: readonly PodSummary[], own: boolean) => {
    if (before === after) return;
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      const b = before[i];
      const a = after[i];
      if (a === b) continue;
      if (b) out.push(b);
      if (a) into.push(a);
      if (own && b?.node !== a?.node) nodesChanged = true;
    }
  };
  const moveRoles = (before: readonly RoleTree[], after: readonly RoleTree[]): boolean => {
    if (before === after) return true;
    if (before.length !== after.length) return false;
    for (let i = 0; i < after.length; i++) {
      const b = before[i];
      const a = after[i];
      if (a === b) continue;
      if (a.nodes !== b.nodes) nodesChanged = true;
      movePods(b.pods, a.pods, false);
      if (!moveRoles(b.roles, a.roles)) return false;
    }
    return true;
  };
  if (!moveRoles(prev.roles, next.roles)) return null;
  movePods(prev.unattributedPods, next.unattributedPods, true);
  for (const p of out) tally.add(p, -1);
  for (const p of into) tally.add(p);
  return { nodesChanged, podsAdded: into.length - out.length };
}

// One pod-less copy per role object: a role the store kept keeps its copy, which the delta codec then sends as
// "same". The copies live as long as their owner (a PodElision; withoutPods keeps none).
type RoleCopies = WeakMap<RoleTree, RoleTree>;

function roleWithoutPods(r: RoleTree, copies: RoleCopies): RoleTree {
  let copy = copies.get(r);
  if (!copy) {
    copy = { ...r, pods: [], roles: r.roles.map((c) => roleWithoutPods(c, copies)) };
    copies.set(r, copy);
  }
  return copy;
}

/** The tree with empty pod lists and `podsElided` set. */
export function withoutPods(w: WorkloadTree, metrics: GpuMetrics | undefined): WorkloadTree {
  return elidedTree(w, elidedPodsOf(w, metrics), new WeakMap());
}

function elidedTree(w: WorkloadTree, elided: ElidedPods, copies: RoleCopies): WorkloadTree {
  return { ...w, roles: w.roles.map((r) => roleWithoutPods(r, copies)), unattributedPods: [], podsElided: elided };
}

/** Whether a snapshot holding `held` pods has every pod `need` asks for. */
export function scopeCovers(held: PodScope | undefined, need: PodScope): boolean {
  if (held === undefined || held === 'all') return true;
  if (need === 'all') return false;
  return need.workloads.every((uid) => held.workloads.includes(uid));
}

/** Same scope (the worker re-sends only on a change). */
export function sameScope(a: PodScope, b: PodScope): boolean {
  if (a === 'all' || b === 'all') return a === b;
  return a.workloads.length === b.workloads.length && a.workloads.every((uid, i) => uid === b.workloads[i]);
}

/** A workload's pod count, trouble tally and nodes, as of tree `of` (moved forward with each version elided). */
interface Running {
  of: WorkloadTree;
  pods: number;
  tally: TroubleTally;
  nodes: string[];
}

interface ElisionMemo {
  metrics: GpuMetrics | undefined;
  tree: WorkloadTree;
  running: Running;
}

/**
 * Elides pods out of `scope`, keeping each elided tree's identity while its
 * source tree and the metrics are unchanged (the delta codec then sends it
 * as "same").
 */
export class PodElision {
  private readonly memo = new WeakMap<WorkloadTree, ElisionMemo>();
  private readonly roleCopies: RoleCopies = new WeakMap();
  /** Each workload's running facts, by uid: the next version's are moved from them, not counted again. */
  private running = new Map<string, Running>();

  apply(snapshot: ModelSnapshot, scope: PodScope): ModelSnapshot {
    if (scope === 'all') {
      this.running.clear();
      return snapshot;
    }
    const keep = new Set(scope.workloads);
    const metrics = snapshot.gpuMetrics;
    const running = new Map<string, Running>();
    const workloads = snapshot.workloads.map((w) => {
      if (keep.has(w.uid)) return w;
      let hit = this.memo.get(w);
      if (!hit || hit.metrics !== metrics) {
        hit = this.elide(w, metrics, this.running.get(w.uid));
        this.memo.set(w, hit);
      }
      running.set(w.uid, hit.running);
      return hit.tree;
    });
    this.running = running;
    const { podsWithoutWorkload: _left, ...rest } = snapshot;
    return { ...rest, workloads, podScope: { workloads: [...keep] } };
  }

  private elide(w: WorkloadTree, metrics: GpuMetrics | undefined, prev: Running | undefined): ElisionMemo {
    let running: Running | null = null;
    if (prev?.of === w) running = prev;
    else if (prev) {
      const moved = moveTally(prev.of, w, prev.tally);
      if (moved) {
        prev.of = w;
        prev.pods += moved.podsAdded;
        if (moved.nodesChanged) prev.nodes = treeNodes(w);
        running = prev;
      }
    }
    running ??= { of: w, pods: treePodCount(w), tally: tallyTrouble(w), nodes: treeNodes(w) };
    return {
      metrics,
      tree: elidedTree(w, elidedFacts(w, metrics, running.pods, running.tally, running.nodes), this.roleCopies),
      running,
    };
  }
}
