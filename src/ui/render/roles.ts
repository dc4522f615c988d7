// Workload view: the role tree (components, instances, replica groups) as
// indented, expandable rows, plus the workload's unattributed pods.
import type { WorkloadTree, RoleTree } from '../../model/types.js';
import { rolePods } from '../../model/tree-pods.js';
import { roleName, UNATTRIBUTED } from '../../model/role-name.js';
import { sanitise } from '../../text/sanitise.js';
import type { Column, Row, TableData, Tone } from './table.js';
import { statusTone, ratio, gpuRatio, podGpus, statusRank } from './format.js';
import { sumGpuSlices } from '../../model/gpu.js';

export const ROLE_COLUMNS: Column[] = [
  { name: 'ROLE', min: 14, max: 50, flex: true, keep: true },
  { name: 'STATUS', min: 9, max: 20 },
  { name: 'READY', min: 5, align: 'right' },
  { name: 'PODS', min: 4, align: 'right', dropPriority: 2 },
  { name: 'GPUS', min: 5, align: 'right' },
  { name: 'NODES', min: 5, max: 40, dropPriority: 1 },
];

/** Stable key of one role among its siblings. */
export function roleKey(r: RoleTree): string {
  return `${r.component}\u0000${r.instance ?? ''}\u0000${r.replica ?? ''}`;
}

export { rolePods };

/** A role's status, summarised from its pods and replica counts. */
export function roleStatus(r: RoleTree): string {
  const pods = rolePods(r);
  let worst: string | null = null;
  let worstRank = 99;
  for (const p of pods) {
    if (p.ready && p.status === 'Running') continue;
    const rank = statusRank(p.status);
    if (rank < worstRank) {
      worstRank = rank;
      worst = p.status;
    }
  }
  if (worst !== null && worstRank <= 1) return worst;
  if (r.replicas.desired > 0 && r.replicas.ready >= r.replicas.desired) return 'Ready';
  if (pods.length > 0 && pods.every((p) => p.status === 'Completed' || p.phase === 'Succeeded')) return 'Completed';
  if (pods.length < r.replicas.desired) return 'Pending';
  return worst ?? (pods.length ? 'Running' : 'Pending');
}

function tone(status: string): Tone {
  return status === 'Ready' ? 'ok' : statusTone(status);
}

/** Resolve a role path (keys from the top) to the role, or null. */
export function findRole(w: WorkloadTree, path: readonly string[]): RoleTree | null {
  let roles = w.roles;
  let found: RoleTree | null = null;
  for (const k of path) {
    found = roles.find((r) => roleKey(r) === k) ?? null;
    if (!found) return null;
    roles = found.roles;
  }
  return found;
}

/** The role path of the deepest role holding a pod, or null when unattributed / unknown. */
export function findPodRolePath(w: WorkloadTree, podUid: string): string[] | null {
  const walk = (roles: readonly RoleTree[], prefix: string[]): string[] | null => {
    for (const r of roles) {
      const path = [...prefix, roleKey(r)];
      if (r.pods.some((p) => p.uid === podUid)) return path;
      const deeper = walk(r.roles, path);
      if (deeper) return deeper;
    }
    return null;
  };
  const found = walk(w.roles, []);
  if (found) return found;
  if (w.unattributedPods.some((p) => p.uid === podUid)) return [UNATTRIBUTED];
  return null;
}

/** Role rows, depth-first; children of collapsed roles are hidden. */
export function roleTable(w: WorkloadTree, collapsed: ReadonlySet<string>): TableData {
  const rows: Row[] = [];
  const walk = (roles: readonly RoleTree[], prefix: string[], depth: number) => {
    for (const r of roles) {
      const path = [...prefix, roleKey(r)];
      const treeKey = path.join('\u0001');
      const hasChildren = r.roles.length > 0;
      const isCollapsed = collapsed.has(treeKey);
      const marker = hasChildren ? (isCollapsed ? '▸ ' : '▾ ') : '  ';
      const label = sanitise(roleName(r));
      const status = roleStatus(r);
      const pods = rolePods(r);
      rows.push({
        key: treeKey,
        cells: [
          '  '.repeat(depth) + marker + label,
          sanitise(status),
          ratio(r.replicas.ready, r.replicas.desired),
          String(pods.length),
          gpuRatio(r.gpus),
          sanitise(r.nodes.join(',')) || '-',
        ],
        tone: tone(status),
        createdMs: null,
        sort: { name: label, status, gpus: r.gpus.allocated },
        target: { kind: 'pods', workloadUid: w.uid, rolePath: path, label },
        workloadUid: w.uid,
        treeKey,
        expandable: hasChildren,
        expanded: hasChildren && !isCollapsed,
      });
      if (hasChildren && !isCollapsed) walk(r.roles, path, depth + 1);
    }
  };
  walk(w.roles, [], 0);
  if (w.unattributedPods.length) {
    const nodes = [...new Set(w.unattributedPods.map((p) => p.node).filter((n): n is string => !!n))];
    const ready = w.unattributedPods.filter((p) => p.ready).length;
    const gpus = w.unattributedPods.reduce((s, p) => s + (p.node ? p.gpus : 0), 0);
    rows.push({
      key: UNATTRIBUTED,
      cells: [
        '  ' + UNATTRIBUTED,
        '-',
        ratio(ready, w.unattributedPods.length),
        String(w.unattributedPods.length),
        podGpus({ gpus, gpuSlices: sumGpuSlices(w.unattributedPods.filter((p) => p.node)) }),
        sanitise(nodes.join(',')) || '-',
      ],
      tone: 'dim',
      createdMs: null,
      sort: { name: UNATTRIBUTED, status: '', gpus },
      target: { kind: 'pods', workloadUid: w.uid, rolePath: [UNATTRIBUTED], label: UNATTRIBUTED },
      workloadUid: w.uid,
    });
  }
  return { columns: ROLE_COLUMNS, rows };
}

/** One line per gang: `worker gang 0: 3/8 scheduled, 3 ready`. */
export function gangLines(w: WorkloadTree): string[] {
  return w.gangs.map(
    (g) =>
      `gang ${sanitise(g.name)}${g.key ? ` ${sanitise(g.key)}` : ''}: ${g.scheduled}/${g.members} scheduled, ${g.ready} ready`,
  );
}
