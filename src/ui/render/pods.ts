// Pods of a role, of a workload (`p`), or of every workload (`:pods`).
import type { PodSummary, WorkloadTree } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import type { Column, Row, TableData } from './table.js';
import { parseTime, podGpus, statusTone, statusRank } from './format.js';
import { workloadPods } from './workloads.js';
import { UNATTRIBUTED } from '../../model/role-name.js';
import { findRole, rolePods } from './roles.js';

export const POD_COLUMNS: Column[] = [
  { name: 'NAME', min: 14, max: 50, sortKey: 'name', cut: 'middle' },
  { name: 'STATUS', min: 9, max: 24, sortKey: 'status' },
  { name: 'READY', min: 5, align: 'right' },
  { name: 'RESTARTS', min: 3, align: 'right', dropPriority: 2 },
  { name: 'GPUS', min: 4, align: 'right', sortKey: 'gpus' },
  { name: 'NODE', min: 6, max: 24, cut: 'middle' },
  { name: 'AGE', min: 4, age: true, sortKey: 'age', align: 'right', dropPriority: 1 },
  // Free text: takes the leftover width, so wide terminals show whole messages.
  { name: 'REASON', min: 6, max: 40, flex: true, dropPriority: 3 },
];

export const ALL_POD_COLUMNS: Column[] = [{ name: 'NAMESPACE', min: 9, max: 20, dropPriority: 4 }, ...POD_COLUMNS];

/** Why a pod is not running, as one line: reason and message. */
export function podReason(p: PodSummary): string {
  const parts = [p.reason, p.message].filter((x): x is string => !!x);
  return sanitise(parts.join(': '));
}

/** Builds (or finds) the row of a pod: plain builders here, memoised ones in row-cache.ts. */
export type PodRowOf = (p: PodSummary, workloadUid: string | undefined, withNamespace: boolean) => Row;

export function podRow(p: PodSummary, workloadUid: string | undefined, withNamespace: boolean): Row {
  const name = sanitise(p.name);
  const cells = [
    name,
    sanitise(p.status),
    sanitise(p.readyContainers),
    String(p.restarts),
    podGpus(p),
    p.node ? sanitise(p.node) : '<none>',
    '',
    podReason(p),
  ];
  return {
    key: p.uid,
    cells: withNamespace ? [sanitise(p.namespace), ...cells] : cells,
    tone: p.status === 'Running' && !p.ready ? 'warn' : statusTone(p.status),
    createdMs: parseTime(p.createdAt),
    sort: {
      name: withNamespace ? `${p.namespace}/${p.name}` : p.name,
      status: String(statusRank(p.status)) + p.status,
      gpus: p.gpus,
    },
    target: p.node ? { kind: 'node', name: p.node, label: sanitise(p.node) } : undefined,
    workloadUid,
    pod: { namespace: p.namespace, name: p.name },
  };
}

/** The pods a pods frame shows; null when the workload or role is gone. */
export function podsOf(w: WorkloadTree, rolePath: readonly string[] | null): PodSummary[] | null {
  if (rolePath === null) return workloadPods(w);
  if (rolePath.length === 1 && rolePath[0] === UNATTRIBUTED) return w.unattributedPods;
  const role = findRole(w, rolePath);
  return role ? rolePods(role) : null;
}

export function podTable(
  w: WorkloadTree,
  rolePath: readonly string[] | null,
  rowOf: PodRowOf = podRow,
): TableData | null {
  const pods = podsOf(w, rolePath);
  if (!pods) return null;
  return { columns: POD_COLUMNS, rows: pods.map((p) => rowOf(p, w.uid, false)) };
}

/** `:pods`: every pod of every workload in scope (row-cache.ts patches this list in place under churn). */
export function allPodsTable(
  workloads: readonly WorkloadTree[],
  namespace: string | null,
  rowOf: PodRowOf = podRow,
): TableData {
  const rows: Row[] = [];
  for (const w of workloads)
    if (namespace === null || w.namespace === namespace)
      for (const p of workloadPods(w)) rows.push(rowOf(p, w.uid, true));
  return { columns: ALL_POD_COLUMNS, rows };
}
