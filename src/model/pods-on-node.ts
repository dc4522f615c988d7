// A node's pods for the node view, each with the workload whose tree shows
// it: one rule for the store (in-thread engine) and the UI thread's mirror of
// a worker's snapshots (src/app/worker), both over plain trees.
import type { NodePodEntry, PodSummary, WorkloadTree } from './types.js';
import { naturalCompare } from './order.js';
import { treePods } from './tree-pods.js';

type PodsByNode = Map<string, PodSummary[]>;

/**
 * Per tree (and per list of pods without a workload), its pods by node: only trees that changed since the
 * last call are walked again, so a lookup costs one probe per workload. Its owner (the store, the worker's
 * mirror) keeps one for its trees' lifetime.
 */
export class PodsByNodeIndex {
  private readonly byTree = new WeakMap<object, PodsByNode>();

  of(key: object, pods: () => readonly PodSummary[]): PodsByNode {
    let index = this.byTree.get(key);
    if (!index) {
      index = new Map();
      for (const p of pods()) {
        if (p.node === null) continue;
        const list = index.get(p.node);
        if (list) list.push(p);
        else index.set(p.node, [p]);
      }
      this.byTree.set(key, index);
    }
    return index;
  }
}

/**
 * Pods bound to `nodeName`: those of each top-level tree with that workload,
 * then `withoutWorkload` (pods no defined workload holds: a DaemonSet's,
 * orphans) with none; each pod once, by namespace and name.
 */
export function nodePodEntries(
  nodeName: string,
  workloads: readonly WorkloadTree[],
  withoutWorkload: readonly PodSummary[],
  index = new PodsByNodeIndex(),
): NodePodEntry[] {
  const out: NodePodEntry[] = [];
  const seen = new Set<string>();
  for (const w of workloads) {
    const pods = index.of(w, () => treePods(w)).get(nodeName);
    if (!pods) continue;
    const workload = { kind: w.kind, namespace: w.namespace, name: w.name, uid: w.uid };
    for (const pod of pods) {
      if (seen.has(pod.uid)) continue;
      seen.add(pod.uid);
      out.push({ pod, workload });
    }
  }
  for (const pod of index.of(withoutWorkload, () => withoutWorkload).get(nodeName) ?? []) {
    if (seen.has(pod.uid)) continue;
    seen.add(pod.uid);
    out.push({ pod, workload: null });
  }
  return out.sort((a, b) => naturalCompare(a.pod.namespace, b.pod.namespace) || naturalCompare(a.pod.name, b.pod.name));
}
