// Trees without their pods: the engine worker sends the UI thread only the
// pods its views draw (src/kube/worker/README.md "Pod scope"). A tree left
// out keeps everything but its pod lists, and carries what the workloads list
// reads of its pods (count, nodes, trouble, GPU overlay), computed here by
// the same rules the UI would apply to the whole tree.
import { workloadGpu } from './gpu-overlay.js';
import { workloadTrouble } from './trouble.js';
import type { ElidedPods, GpuMetrics, ModelSnapshot, PodScope, RoleTree, WorkloadTree } from './types.js';

/** What the workloads list reads of a tree's pods. */
export function elidedPodsOf(w: WorkloadTree, metrics: GpuMetrics | undefined): ElidedPods {
  // Each role already names the nodes of its pods; only the unattributed pods are read one by one.
  const nodes = new Set<string>();
  let pods = w.unattributedPods.length;
  const visit = (roles: readonly RoleTree[]) => {
    for (const r of roles) {
      pods += r.pods.length;
      for (const n of r.nodes) nodes.add(n);
      visit(r.roles);
    }
  };
  visit(w.roles);
  for (const p of w.unattributedPods) if (p.node) nodes.add(p.node);
  return {
    pods,
    nodes: [...nodes],
    trouble: workloadTrouble(w),
    ...(metrics ? { gpu: workloadGpu(metrics, w) } : {}),
  };
}

// One pod-less copy per role object: a role the store kept keeps its copy, which the delta codec then sends as "same".
const roleCopies = new WeakMap<RoleTree, RoleTree>();

function roleWithoutPods(r: RoleTree): RoleTree {
  let copy = roleCopies.get(r);
  if (!copy) {
    copy = { ...r, pods: [], roles: r.roles.map(roleWithoutPods) };
    roleCopies.set(r, copy);
  }
  return copy;
}

/** The tree with empty pod lists and `podsElided` set. */
export function withoutPods(w: WorkloadTree, metrics: GpuMetrics | undefined): WorkloadTree {
  return { ...w, roles: w.roles.map(roleWithoutPods), unattributedPods: [], podsElided: elidedPodsOf(w, metrics) };
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

/**
 * Elides pods out of `scope`, keeping each elided tree's identity while its
 * source tree and the metrics are unchanged (the delta codec then sends it
 * as "same").
 */
export class PodElision {
  private readonly memo = new WeakMap<WorkloadTree, { metrics: GpuMetrics | undefined; tree: WorkloadTree }>();

  apply(snapshot: ModelSnapshot, scope: PodScope): ModelSnapshot {
    if (scope === 'all') return snapshot;
    const keep = new Set(scope.workloads);
    const metrics = snapshot.gpuMetrics;
    const workloads = snapshot.workloads.map((w) => {
      if (keep.has(w.uid)) return w;
      const hit = this.memo.get(w);
      if (hit && hit.metrics === metrics) return hit.tree;
      const tree = withoutPods(w, metrics);
      this.memo.set(w, { metrics, tree });
      return tree;
    });
    const { podsWithoutWorkload: _left, ...rest } = snapshot;
    return { ...rest, workloads, podScope: { workloads: [...keep] } };
  }
}
