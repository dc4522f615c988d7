// Nodes as the pods see them: when the node objects cannot be read (a
// namespace-scoped user), the names pods are bound to and the GPUs they
// request there are still known. Capacity is not: it stays unknown, never 0.
import type { OrphanPod, PodSummary, WorkloadTree, PodNode } from './types.js';
import { naturalCompare } from './order.js';
import { treePods } from './tree-pods.js';

/** The nodes the visible pods are bound to, in name order. */
export function nodesFromPods(workloads: readonly WorkloadTree[], orphans: readonly OrphanPod[] = []): PodNode[] {
  const byName = new Map<string, { gpus: number; pods: Set<string>; workloads: Set<string> }>();
  const add = (p: PodSummary, owner: string) => {
    if (!p.node || p.phase === 'Succeeded' || p.phase === 'Failed') return;
    let n = byName.get(p.node);
    if (!n) byName.set(p.node, (n = { gpus: 0, pods: new Set(), workloads: new Set() }));
    // A pod in two workloads' trees (a nested workload) counts once.
    if (!n.pods.has(p.uid)) n.gpus += p.gpus;
    n.pods.add(p.uid);
    n.workloads.add(owner);
  };
  for (const w of workloads) {
    const owner = `${w.namespace}/${w.name}`;
    for (const p of treePods(w)) add(p, owner);
  }
  for (const p of orphans) add(p, `${p.namespace}/${p.owner.name}`);
  return [...byName.entries()]
    .sort(([a], [b]) => naturalCompare(a, b))
    .map(([name, n]) => ({ name, gpuRequested: n.gpus, pods: n.pods.size, workloads: [...n.workloads].sort() }));
}
