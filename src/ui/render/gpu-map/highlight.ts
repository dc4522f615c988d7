// The map's highlight: a workload's nodes by role, or the nodes of the workloads a regex matches.
import type { WorkloadTree } from '../../../model/types.js';
import { roleName } from '../../../model/role-name.js';
import { workloadPlacements, type Placement } from '../../../model/workload-nodes.js';
import { sanitise } from '../../../text/sanitise.js';
import { regexFilter } from '../regex-filter.js';

export type HighlightSpec = { kind: 'none' } | { kind: 'regex'; filter: string } | { kind: 'workload'; uid: string };

export interface Highlight {
  /** Node name → role index (workload) or 0 (regex match). */
  nodes: Map<string, number>;
  /** Workload: its roles' names (sanitised), in role order; regex: empty. */
  roles: string[];
  kind: HighlightSpec['kind'];
  /** The regex did not compile (matched literally). */
  error?: string;
  /** What the legend names: `/re/` or `namespace/name`. */
  label: string;
}

const NO_HIGHLIGHT: Highlight = { nodes: new Map(), roles: [], kind: 'none', label: '' };

/** `/re` matches workloads by `namespace/name` (case-insensitive; an invalid regex matches literally, `!re` inverts). */
export function mapHighlight(
  spec: HighlightSpec,
  workloads: readonly WorkloadTree[],
  placementsOf: (w: WorkloadTree) => Placement[] = workloadPlacements,
): Highlight {
  if (spec.kind === 'none') return NO_HIGHLIGHT;
  if (spec.kind === 'workload') {
    const w = workloads.find((x) => x.uid === spec.uid);
    if (!w) return { ...NO_HIGHLIGHT, kind: 'workload', label: '(workload gone)' };
    // A node with pods of several roles shows the role with most GPUs (pods count as a tie-break).
    const weight = new Map<string, Map<number, number>>();
    for (const p of placementsOf(w)) {
      const m = weight.get(p.node) ?? new Map<number, number>();
      m.set(p.role, (m.get(p.role) ?? 0) + p.gpus + 0.001);
      weight.set(p.node, m);
    }
    const nodes = new Map<string, number>();
    for (const [node, m] of weight) {
      let best = -1;
      let most = -1;
      for (const [role, v] of m) if (v > most || (v === most && role < best)) [best, most] = [role, v];
      nodes.set(node, best);
    }
    const roles = w.roles.map((r) => sanitise(roleName(r)));
    if (w.unattributedPods.length) roles.push('(unattributed)');
    return { nodes, roles, kind: 'workload', label: `${sanitise(w.namespace)}/${sanitise(w.name)}` };
  }
  const f = regexFilter(spec.filter);
  if (f.empty) return NO_HIGHLIGHT;
  const nodes = new Map<string, number>();
  for (const w of workloads) {
    if (!f.keeps(`${w.namespace}/${w.name}`)) continue;
    for (const p of placementsOf(w)) nodes.set(p.node, 0);
  }
  return { nodes, roles: [], kind: 'regex', error: f.error, label: `/${sanitise(spec.filter)}/` };
}
