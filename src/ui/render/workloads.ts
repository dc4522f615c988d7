// Workloads (home view): every workload of every defined kind.
import type { WorkloadTree, RoleTree, PodSummary } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import type { Column, Row, TableData } from './table.js';
import { parseTime, worstTone, ratio, statusRank } from './format.js';

export const WORKLOAD_COLUMNS: Column[] = [
  { name: 'NAMESPACE', min: 9, max: 20, dropPriority: 1 },
  { name: 'NAME', min: 12, max: 40, flex: true, sortKey: 'name' },
  { name: 'KIND', min: 6, max: 22, dropPriority: 2 },
  { name: 'STATUS', min: 9, max: 22, sortKey: 'status' },
  { name: 'READY', min: 5, align: 'right' },
  { name: 'GPUS', min: 5, align: 'right', sortKey: 'gpus' },
  { name: 'NODES', min: 5, align: 'right', dropPriority: 3 },
  { name: 'AGE', min: 5, age: true, sortKey: 'age', align: 'right' },
];

/** Every pod of a workload: its roles' pods (recursively) and the unattributed ones. */
export function workloadPods(w: WorkloadTree): PodSummary[] {
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

export function workloadNodes(w: WorkloadTree): string[] {
  const nodes = new Set<string>();
  for (const p of workloadPods(w)) if (p.node) nodes.add(p.node);
  return [...nodes];
}

export function workloadStatusText(w: WorkloadTree): string {
  return w.status.length ? w.status.join(',') : 'Undefined';
}

export function workloadRow(w: WorkloadTree): Row {
  const status = workloadStatusText(w);
  const name = sanitise(w.name);
  return {
    key: w.uid,
    cells: [
      sanitise(w.namespace),
      name,
      sanitise(w.kind),
      status + (w.errors.length ? '!' : ''),
      ratio(w.replicas.ready, w.replicas.desired),
      ratio(w.gpus.allocated, w.gpus.desired),
      String(workloadNodes(w).length),
      '',
    ],
    tone: worstTone(w.status.length ? w.status : ['Undefined']),
    createdMs: parseTime(w.createdAt),
    sort: {
      name: `${w.namespace}/${w.name}`,
      status: String(Math.min(...w.status.map(statusRank), 9)) + status,
      gpus: w.gpus.allocated,
    },
    target: { kind: 'workload', uid: w.uid, label: name },
    workloadUid: w.uid,
  };
}

export function workloadTable(
  workloads: readonly WorkloadTree[],
  namespace: string | null,
  rowOf: (w: WorkloadTree) => Row = workloadRow,
): TableData {
  const rows: Row[] = [];
  for (const w of workloads) if (namespace === null || w.namespace === namespace) rows.push(rowOf(w));
  return { columns: WORKLOAD_COLUMNS, rows };
}
