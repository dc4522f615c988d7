// Workloads (home view): every workload of every defined kind.
import type { WorkloadTree, PodSummary, WorkloadQueue, SchedulingView } from '../../model/types.js';
import { workloadTrouble, type TroubleMemo } from '../../model/trouble.js';
import { troubleMarker, workloadWords } from '../../model/workload-word.js';
import { queueCell } from './queues.js';
import { treePods } from '../../model/tree-pods.js';
import { placedNodes } from '../../model/topology.js';
import { sanitise } from '../../text/sanitise.js';
import type { Column, Row, TableData } from './table.js';
import { parseTime, worstTone, ratio, gpuRatio, statusRank } from './format.js';

export const WORKLOAD_COLUMNS: Column[] = [
  { name: 'NAMESPACE', min: 9, max: 20, dropPriority: 1 },
  { name: 'NAME', min: 12, max: 40, flex: true, keep: true, sortKey: 'name', cut: 'middle' },
  { name: 'KIND', min: 6, max: 22, dropPriority: 2 },
  { name: 'STATUS', min: 9, max: 22, sortKey: 'status' },
  { name: 'READY', min: 5, align: 'right' },
  { name: 'GPUS', min: 5, align: 'right', sortKey: 'gpus' },
  { name: 'NODES', min: 5, align: 'right', dropPriority: 3 },
  { name: 'AGE', min: 5, age: true, sortKey: 'age', align: 'right' },
];

/**
 * With queues or gang schedulers in the cluster: the QUEUE column after KIND.
 * Shown only with room for a queue name (min 15): at 80 columns it is
 * dropped rather than cutting STATUS and its trouble marker.
 */
export const WORKLOAD_COLUMNS_WITH_QUEUE: Column[] = [
  ...WORKLOAD_COLUMNS.slice(0, 3),
  { name: 'QUEUE', min: 15, max: 24, dropPriority: 4 },
  ...WORKLOAD_COLUMNS.slice(3),
];

/** Every pod of a workload: its roles' pods (recursively) and the unattributed ones. */
export function workloadPods(w: WorkloadTree): PodSummary[] {
  return treePods(w);
}

/** How many nodes its pods are bound to (a tree sent without its pods carries the count). */
export function workloadNodeCount(w: WorkloadTree): number {
  return (w.podsElided ? w.podsElided.nodes : workloadNodes(w)).length;
}

/** Where the workload is (model/topology.ts placedNodes: what its placement counts too). */
export function workloadNodes(w: WorkloadTree): string[] {
  return placedNodes(workloadPods(w));
}

/** The status words (model/workload-word.ts): the queue's word when a queue holds the job, Degraded while a pod crash-loops. */
export function workloadStatusWords(w: WorkloadTree, queue?: WorkloadQueue | null, trouble?: TroubleMemo): string[] {
  return workloadWords(w, queue, trouble);
}

export function workloadStatusText(w: WorkloadTree, queue?: WorkloadQueue | null, trouble?: TroubleMemo): string {
  return workloadStatusWords(w, queue, trouble).join(',');
}

/** A workload's row; `queue` undefined: no QUEUE column, null: none holds it; `memo` keeps the trees' trouble. */
export function workloadRow(w: WorkloadTree, queue?: WorkloadQueue | null, memo?: TroubleMemo): Row {
  const words = workloadStatusWords(w, queue, memo);
  const status = words.join(',');
  const name = sanitise(w.name);
  const trouble = workloadTrouble(w, memo);
  const statusTone = worstTone(words);
  // Coloured by the worst of the status word and its pods' trouble (as k9s), marked in text for NO_COLOR.
  const tone =
    trouble.severity === 'error' || (trouble.severity === 'warn' && statusTone !== 'error')
      ? trouble.severity
      : statusTone;
  const rank = Math.min(...words.map(statusRank), trouble.severity === 'error' ? 0 : trouble.severity ? 1 : 9, 9);
  return {
    key: w.uid,
    cells: [
      sanitise(w.namespace),
      name,
      sanitise(w.kind),
      ...(queue === undefined ? [] : [queueCell(queue ?? undefined)]),
      status + sanitise(troubleMarker(trouble, words)) + (w.errors.length ? '!' : ''),
      ratio(w.replicas.ready, w.replicas.desired),
      gpuRatio(w.gpus),
      String(workloadNodeCount(w)),
      '',
    ],
    tone,
    createdMs: parseTime(w.createdAt),
    sort: {
      name: `${w.namespace}/${w.name}`,
      status: String(rank) + status,
      gpus: w.gpus.allocated,
    },
    target: { kind: 'workload', uid: w.uid, label: name },
    workloadUid: w.uid,
  };
}

export function workloadTable(
  workloads: readonly WorkloadTree[],
  namespace: string | null,
  rowOf: (w: WorkloadTree, queue?: WorkloadQueue | null) => Row = workloadRow,
  scheduling?: SchedulingView,
): TableData {
  const rows: Row[] = [];
  const active = scheduling?.active === true;
  for (const w of workloads)
    if (namespace === null || w.namespace === namespace)
      rows.push(active ? rowOf(w, scheduling.queues.get(w.uid) ?? null) : rowOf(w));
  return { columns: active ? WORKLOAD_COLUMNS_WITH_QUEUE : WORKLOAD_COLUMNS, rows };
}
