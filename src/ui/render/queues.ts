// `:queues`: Kueue ClusterQueues with their GPU quota per flavor, and one
// ClusterQueue's pending workloads in line (Enter → the workload).
import type { WorkloadQueue, ClusterQueueSummary, FlavorQuota, PendingEntry } from '../../model/types.js';
import { positionText } from '../../model/scheduling/words.js';
import { sanitise } from '../../text/sanitise.js';
import { withSlices } from '../../model/gpu.js';
import type { Column, Row, TableData } from './table.js';
import { parseTime } from './format.js';

export const QUEUE_COLUMNS: Column[] = [
  { name: 'CLUSTERQUEUE', min: 12, max: 40, flex: true, keep: true, sortKey: 'name' },
  { name: 'COHORT', min: 6, max: 20, dropPriority: 2 },
  { name: 'GPU QUOTA', min: 9, max: 40 },
  { name: 'USAGE', min: 5, max: 30, align: 'right', sortKey: 'gpus' },
  { name: 'BORROWED', min: 8, max: 30, align: 'right', dropPriority: 1 },
  { name: 'PENDING', min: 7, align: 'right', sortKey: 'status' },
  { name: 'ADMITTED', min: 8, align: 'right' },
];

export const PENDING_COLUMNS: Column[] = [
  { name: 'POS', min: 4, align: 'right' },
  { name: 'NAMESPACE', min: 9, max: 20, dropPriority: 2 },
  { name: 'NAME', min: 12, max: 40, flex: true, keep: true },
  { name: 'LOCALQUEUE', min: 10, max: 24 },
  { name: 'LQ POS', min: 6, align: 'right', dropPriority: 1 },
  { name: 'GPUS', min: 4, align: 'right' },
  { name: 'WAITING', min: 7, age: true, align: 'right' },
];

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** `h100 16` (one flavor) or `h100 16, a100 8`; a borrowing limit as `+8`. */
function perFlavor(gpu: readonly FlavorQuota[], value: (f: FlavorQuota) => string): string {
  if (!gpu.length) return '-';
  return gpu.map((f) => (gpu.length === 1 ? value(f) : `${sanitise(f.flavor)} ${value(f)}`)).join(', ');
}

export function clusterQueueRow(q: ClusterQueueSummary): Row {
  const used = q.gpu.reduce((s, f) => s + f.usage, 0);
  const nominal = q.gpu.reduce((s, f) => s + f.nominal, 0);
  return {
    key: `cq:${q.name}`,
    cells: [
      sanitise(q.name),
      q.cohort ? sanitise(q.cohort) : '-',
      perFlavor(
        q.gpu,
        (f) =>
          `${q.gpu.length === 1 ? `${sanitise(f.flavor)} ` : ''}${num(f.nominal)}${f.borrowingLimit !== null ? ` (+${num(f.borrowingLimit)})` : ''}`,
      ),
      perFlavor(q.gpu, (f) => num(f.usage)),
      perFlavor(q.gpu, (f) => num(f.borrowed)),
      String(q.pending),
      String(q.admitted),
    ],
    tone: q.pending > 0 && used >= nominal ? 'warn' : 'normal',
    createdMs: null,
    sort: { name: q.name, status: String(1e9 - q.pending).padStart(10, '0'), gpus: used },
    target: { kind: 'queue', name: q.name, label: sanitise(q.name) },
  };
}

export function clusterQueueTable(queues: readonly ClusterQueueSummary[]): TableData {
  return { columns: QUEUE_COLUMNS, rows: queues.map(clusterQueueRow) };
}

/** A pending workload in line; positions as people count them (`1st`), `fetching` until Kueue answers. */
export function pendingRow(e: PendingEntry, positionsUnavailable = false): Row {
  const name = sanitise(e.ownerName ?? e.name);
  return {
    key: `pending:${e.namespace}/${e.name}`,
    cells: [
      positionText(e.positionInClusterQueue, positionsUnavailable),
      sanitise(e.namespace),
      name,
      e.localQueue ? sanitise(e.localQueue) : '-',
      positionText(e.positionInLocalQueue, positionsUnavailable),
      withSlices(num(e.gpus), e.gpus === 0, e.gpuSlices, 'kinds'),
      '',
    ],
    tone: 'warn',
    createdMs: parseTime(e.since),
    sort: { name: `${e.namespace}/${e.name}`, status: '', gpus: e.gpus },
    target: e.ownerUid ? { kind: 'workload', uid: e.ownerUid, label: name } : { kind: 'none' },
    workloadUid: e.ownerUid ?? undefined,
  };
}

export function pendingTable(entries: readonly PendingEntry[], positionsUnavailable = false): TableData {
  return { columns: PENDING_COLUMNS, rows: entries.map((e) => pendingRow(e, positionsUnavailable)) };
}

/** The QUEUE cell: the LocalQueue (or scheduler queue), `-` when none holds the workload. */
export function queueCell(q: WorkloadQueue | undefined): string {
  return q?.name ? sanitise(q.name) : '-';
}
