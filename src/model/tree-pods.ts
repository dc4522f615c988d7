// The pods of a workload tree or a role, in tree order (one home for the walk
// every view, rollup and the engine worker's pod scope make).
import type { PodSummary, RoleTree, WorkloadTree } from './types.js';

/** Every pod of a role: its own, then its sub-roles' (recursively). */
export function rolePods(role: RoleTree): PodSummary[] {
  const out = [...role.pods];
  for (const r of role.roles) out.push(...rolePods(r));
  return out;
}

/** How many pods treePods lists, counted without the list. */
export function treePodCount(w: Pick<WorkloadTree, 'roles' | 'unattributedPods'>): number {
  let n = w.unattributedPods.length;
  const walk = (roles: readonly RoleTree[]) => {
    for (const r of roles) {
      n += r.pods.length;
      walk(r.roles);
    }
  };
  walk(w.roles);
  return n;
}

/** Every pod of a workload tree: its roles' pods (recursively), then the unattributed ones. */
export function treePods(w: Pick<WorkloadTree, 'roles' | 'unattributedPods'>): PodSummary[] {
  const out: PodSummary[] = [];
  const walk = (roles: readonly RoleTree[]) => {
    for (const r of roles) {
      out.push(...r.pods);
      walk(r.roles);
    }
  };
  walk(w.roles);
  out.push(...w.unattributedPods);
  return out;
}
