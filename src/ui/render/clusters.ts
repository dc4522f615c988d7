// `:clusters`: a fleet's clusters, one row each (context, connection state,
// version, nodes ready/total, GPUs allocatable / requested / free / pending,
// mean utilisation, workloads by status, problems or why it is down), and
// under it a row per GPU model (whole GPUs by product, each MIG profile and
// DRA device class). Enter on either narrows every view to that cluster.
import type { ClusterSummary } from '../../model/fleet/types.js';
import { sanitise } from '../../text/sanitise.js';
import type { Column, Row, TableData, Tone } from './table.js';

export const CLUSTER_COLUMNS: Column[] = [
  { name: 'CONTEXT', min: 10, max: 40, flex: true, keep: true },
  { name: 'STATE', min: 5, max: 12 },
  { name: 'VERSION', min: 7, max: 12, dropPriority: 3 },
  { name: 'NODES', min: 5, align: 'right' },
  { name: 'GPU ALLOC/REQ/FREE', min: 18, align: 'right' },
  { name: 'PEND', min: 4, align: 'right', dropPriority: 1 },
  { name: 'UTIL', min: 4, align: 'right', dropPriority: 2 },
  { name: 'WORKLOADS', min: 9, max: 40, dropPriority: 4 },
  { name: 'PROBLEMS', min: 8, max: 60 },
];

const STATE_TONE: Record<ClusterSummary['state'], Tone> = {
  live: 'ok',
  connecting: 'warn',
  unreachable: 'error',
  unauthorized: 'error',
  forbidden: 'error',
  invalid: 'error',
};

const ORDER = ['Running', 'Failed', 'Degraded', 'Initializing', 'Queued', 'Preempted', 'Evicted', 'Unschedulable'];

function statusCounts(counts: Record<string, number>): string {
  const rank = (s: string) => (ORDER.includes(s) ? ORDER.indexOf(s) : ORDER.length);
  const parts = Object.entries(counts)
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1))
    .map(([s, n]) => `${n} ${sanitise(s)}`);
  return parts.length ? parts.join(' ') : '-';
}

const dash = (n: number | null | undefined) => (n === null || n === undefined ? '?' : String(n));

/** The row names its context already: its error starts at what is wrong, so a narrow PROBLEMS cell keeps that. */
function withoutOwnContext(error: string, context: string): string {
  const own = `context ${JSON.stringify(context)}: `;
  return error.startsWith(own) ? error.slice(own.length) : error;
}

function clusterRow(c: ClusterSummary): Row {
  const g = c.gpus;
  const problems = c.error
    ? sanitise(withoutOwnContext(c.error, c.context))
    : c.problems.length
      ? `${c.problems.length}: ${sanitise(c.problems[0])}`
      : '-';
  return {
    key: c.context,
    cells: [
      sanitise(c.context),
      c.state,
      c.version ? sanitise(c.version) : '-',
      c.nodes ? `${c.nodes.ready}/${c.nodes.total}` : '-',
      g ? `${dash(g.allocatable)}/${g.requested}/${dash(g.free)}` : '-',
      g ? String(g.pending) : '-',
      c.utilization === null ? '-' : `${Math.round(c.utilization)}%`,
      statusCounts(c.workloads),
      problems,
    ],
    tone: c.state === 'live' && c.problems.length ? 'warn' : STATE_TONE[c.state],
    createdMs: null,
    sort: { name: c.context, status: c.state, gpus: g?.allocatable ?? null },
    target: { kind: 'cluster', context: c.context, label: sanitise(c.context) },
  };
}

/** A GPU model's row under its cluster: `  └ NVIDIA-H100-80GB-HBM3   32/24/8`. */
function modelRow(c: ClusterSummary, model: string, m: { allocatable: number; requested: number; free: number }): Row {
  return {
    key: `${c.context}\u0000${model}`,
    cells: [`  └ ${sanitise(model)}`, '', '', '', `${m.allocatable}/${m.requested}/${m.free}`, '', '', '', ''],
    tone: 'dim',
    createdMs: null,
    sort: { name: c.context, status: c.state, gpus: m.allocatable },
    target: { kind: 'cluster', context: c.context, label: sanitise(c.context) },
  };
}

/** Every cluster and its GPU models, in the order the clusters were given. */
export function clusterTable(clusters: readonly ClusterSummary[]): TableData {
  const rows: Row[] = [];
  for (const c of clusters) {
    rows.push(clusterRow(c));
    for (const [model, m] of Object.entries(c.gpus?.byModel ?? {})) rows.push(modelRow(c, model, m));
  }
  return { columns: CLUSTER_COLUMNS, rows };
}
