// Where a workload's pods are: its GPUs per node and role (the GPU map's highlights and the cursor's line).
import type { PodSummary, RoleTree, WorkloadTree } from './types.js';

/** A workload's GPUs on one node: `role` is the index of the top-level role (roles.length: unattributed). */
export interface Placement {
  node: string;
  gpus: number;
  role: number;
}

function live(p: PodSummary): boolean {
  return !!p.node && p.phase !== 'Succeeded' && p.phase !== 'Failed';
}

function addPods(pods: readonly PodSummary[], role: number, out: Placement[]): void {
  for (const p of pods) if (live(p)) out.push({ node: p.node!, gpus: p.gpus, role });
}

function addRole(r: RoleTree, role: number, out: Placement[]): void {
  addPods(r.pods, role, out);
  for (const c of r.roles) addRole(c, role, out);
}

export function workloadPlacements(w: WorkloadTree): Placement[] {
  const out: Placement[] = [];
  w.roles.forEach((r, i) => addRole(r, i, out));
  addPods(w.unattributedPods, w.roles.length, out);
  return out;
}

export interface NodeShare {
  workload: WorkloadTree;
  gpus: number;
}

/** Per node, the workloads on it with their GPUs there, most GPUs first. */
export function nodeShares(
  workloads: readonly WorkloadTree[],
  placementsOf: (w: WorkloadTree) => Placement[] = workloadPlacements,
): Map<string, NodeShare[]> {
  const out = new Map<string, NodeShare[]>();
  for (const w of workloads) {
    const onNode = new Map<string, number>();
    for (const p of placementsOf(w)) onNode.set(p.node, (onNode.get(p.node) ?? 0) + p.gpus);
    for (const [node, gpus] of onNode) {
      const list = out.get(node);
      if (list) list.push({ workload: w, gpus });
      else out.set(node, [{ workload: w, gpus }]);
    }
  }
  for (const list of out.values()) list.sort((a, b) => b.gpus - a.gpus);
  return out;
}
