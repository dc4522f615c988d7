// Nodes (`:nodes`) and the node view's pods grouped by workload.
import type { GpuMetrics, NodeSummary, NodePodEntry, PodNode } from '../../model/types.js';
import { nodeGpuUtilisation } from '../../model/gpu-overlay.js';
import { UTIL_COLUMN, utilText } from './gpu-columns.js';
import { shortGpuKind } from './header.js';
import { sanitise } from '../../text/sanitise.js';
import { shortDomainValue } from '../../model/topology.js';
import { displayWidth, fit, fitStart, type Column, type Row, type TableData } from './table.js';
import type { DomainGroup } from './domains.js';
import { parseTime, statusTone, statusRank } from './format.js';
import { podRow, POD_COLUMNS, type PodRowOf } from './pods.js';

export const NODE_COLUMNS: Column[] = [
  // Kept: a node's name (a domain header's zone / rack / clique) is what a row is known by; STATUS, GPU KIND
  // and WORKLOADS give way first, STATUS down to `Ready,Sched…` (a cordoned node stays told apart).
  { name: 'NAME', min: 12, max: 40, flex: true, keep: true, sortKey: 'name', cut: 'middle' },
  { name: 'STATUS', min: 12, max: 28, sortKey: 'status' },
  { name: 'GPUS', min: 5, align: 'right', sortKey: 'gpus' },
  { name: 'FREE', min: 4, align: 'right' },
  UTIL_COLUMN,
  { name: 'GPU KIND', min: 8, max: 32, dropPriority: 2 },
  { name: 'PODS', min: 4, align: 'right' },
  { name: 'WORKLOADS', min: 9, max: 40, dropPriority: 1 },
  { name: 'AGE', min: 4, age: true, sortKey: 'age', align: 'right' },
];

/** `8 H100-80GB-HBM3`, `56 mig-1g.10gb`, `1 dra:gpu.nvidia.com`: each GPU resource kind with its allocatable count. */
export function nodeGpuKinds(n: NodeSummary): string {
  const model = n.gpuModel ? n.gpuModel.replace(/^NVIDIA-/, '') : null;
  const parts = Object.entries(n.gpuResources ?? {})
    .filter(([, r]) => r.allocatable > 0 || r.requested > 0)
    .map(([name, r]) => `${r.allocatable} ${name === 'nvidia.com/gpu' && model ? model : shortGpuKind(name)}`);
  return sanitise(parts.join(', ')) || '-';
}

export function nodeStatus(n: NodeSummary): string {
  return (n.ready ? 'Ready' : 'NotReady') + (n.unschedulable ? ',SchedulingDisabled' : '');
}

export function nodeFree(n: NodeSummary): number {
  return Math.max(0, n.gpuAllocatable - n.gpuRequested);
}

/** A node whose cluster's pods are unreadable (nodeRequestsUnknown) reads `?` for requested, free, pods and workloads, never 0. */
export type RequestsUnknown = (node: NodeSummary) => boolean;
const KNOWN: RequestsUnknown = () => false;

export function nodeTable(
  nodes: readonly NodeSummary[],
  metrics?: GpuMetrics,
  requestsUnknown: RequestsUnknown = KNOWN,
): TableData {
  return withoutUnscrapedColumns({ columns: NODE_COLUMNS, rows: nodeRows(nodes, metrics, requestsUnknown) }, metrics);
}

/** One row per node, every column of NODE_COLUMNS. */
function nodeRows(nodes: readonly NodeSummary[], metrics: GpuMetrics | undefined, unknown: RequestsUnknown): Row[] {
  return nodes.map((n) => {
    const requestsUnknown = unknown(n);
    const status = nodeStatus(n);
    const name = sanitise(n.name);
    const util = nodeGpuUtilisation(metrics, n);
    return {
      key: n.name,
      cells: [
        name,
        status,
        `${requestsUnknown ? '?' : n.gpuRequested}/${n.gpuAllocatable}`,
        requestsUnknown ? '?' : String(nodeFree(n)),
        utilText(util),
        nodeGpuKinds(n),
        requestsUnknown ? '?' : String(n.pods),
        requestsUnknown ? '?' : sanitise(n.workloads.join(',')) || '-',
        '',
      ],
      tone: !n.ready ? 'error' : n.unschedulable ? 'warn' : statusTone(status),
      createdMs: parseTime(n.createdAt),
      sort: {
        name: n.name,
        status: String(statusRank(status)) + status,
        gpus: requestsUnknown ? null : n.gpuRequested,
        util,
      },
      target: { kind: 'node', name: n.name, label: name },
    };
  });
}

/** Before any scrape (offline): the GPU columns are left out. */
function withoutUnscrapedColumns(table: TableData, metrics: GpuMetrics | undefined): TableData {
  if (metrics) return table;
  const keep = NODE_COLUMNS.map((c) => c !== UTIL_COLUMN && c.name !== 'GPU KIND');
  return {
    columns: NODE_COLUMNS.filter((_, i) => keep[i]),
    rows: table.rows.map((r) => ({ ...r, cells: r.cells.filter((_, i) => keep[i]) })),
  };
}

/** A domain header's key (also its tree key, which collapses it). */
export const domainRowKey = (group: Pick<DomainGroup, 'key'>): string => `domain:${group.key}`;

/**
 * `zone-a / rack-1 / 2df6….1`, sanitised: levels the nodes lack at the end are left out (`-` for a gap
 * between labelled levels), a clique's cluster UUID is shortened; `(no topology labels)` for the empty path.
 */
export function domainLabel(path: readonly (string | null)[]): string {
  const parts = domainParts(path);
  return parts.length ? parts.join(' / ') : '(no topology labels)';
}

/** The shown levels of a domain path: trailing unlabelled levels left out, `-` for a gap, cliques shortened. */
function domainParts(path: readonly (string | null)[]): string[] {
  let end = path.length;
  while (end > 0 && path[end - 1] === null) end--;
  return path.slice(0, end).map((v) => (v === null ? '-' : sanitise(shortDomainValue(v))));
}

/** The smallest a level is shortened to before it is left out: `…1-a`. */
const KEPT_CHARS = 3;

/** Which end of a shortened general level stays: its tail (`…1-a`, where zones differ) or its head (`east…`). */
export type LevelEnd = 'tail' | 'head';

/**
 * `domainLabel` in at most `width` columns, shortened from the general end: the rack and NVLink domain are
 * what one looks for during an incident, so the zone, then the block, keep only one end (`…1-a`), then
 * go (`… / rack-07 / 2df6….0`), then the marker (`rack-07 / 2df6….0`), then the NVLink domain
 * (`rack-07 / …`); only then is the rack shortened.
 */
export function fitDomainLabel(path: readonly (string | null)[], width: number, end: LevelEnd = 'tail'): string {
  const full = domainLabel(path);
  if (displayWidth(full) <= width) return full;
  const parts = domainParts(path);
  if (!parts.length) return fit(full, width).trimEnd();
  const tail = (s: string, w: number) => fitStart(s, w).trimEnd();
  const head = (s: string, w: number) => fit(s, w).trimEnd();
  // The most specific levels (rack and NVLink domain, or the only one) wait until the general ones are gone.
  const specific = parts.length >= 3 ? 2 : 1;
  const general = parts.length - specific;
  const kept = parts.slice(general);
  return (
    shortenFront(parts, general, width, end === 'tail' ? tail : head) ??
    // The rack and NVLink domain whole without the left-out marker, then the rack whole alone, before either is cut.
    (displayWidth(kept.join(' / ')) <= width ? kept.join(' / ') : null) ??
    (kept.length === 2 && displayWidth(`${kept[0]} / …`) <= width ? `${kept[0]} / …` : null) ??
    shortenFront([...(general ? ['…'] : []), ...kept], general ? specific : 0, width, tail) ??
    fitStart(parts[parts.length - 1], width).trimEnd()
  );
}

/** `parts` joined in `width`: its first `count` levels each shortened in turn, then left out in turn; null if none fits. */
function shortenFront(
  parts: readonly string[],
  count: number,
  width: number,
  shorten: (s: string, width: number) => string,
): string | null {
  const fits = (p: readonly string[]) => displayWidth(p.join(' / ')) <= width;
  const cut = [...parts];
  for (let i = 0; i < count; i++) {
    const rest = displayWidth(cut.join(' / ')) - displayWidth(cut[i]);
    cut[i] = shorten(cut[i], Math.max(KEPT_CHARS + 1, width - rest));
    if (fits(cut)) return cut.join(' / ');
  }
  for (let i = 0; i < count; i++) {
    const shorter = ['…', ...cut.slice(i + 1)];
    if (fits(shorter)) return shorter.join(' / ');
  }
  return null;
}

/** The mean utilisation of the nodes that report one; null when none does. */
export function meanNodeUtilisation(metrics: GpuMetrics | undefined, nodes: readonly NodeSummary[]): number | null {
  let sum = 0;
  let known = 0;
  for (const n of nodes) {
    const u = nodeGpuUtilisation(metrics, n);
    if (u !== null) {
      sum += u;
      known++;
    }
  }
  return known ? sum / known : null;
}

/**
 * `:nodes` grouped by topology domain: a collapsible header row per domain (GPUs used/total, free, mean
 * utilisation, NotReady count) above its nodes, each group's rows put in order by `order` (the frame's sort).
 */
export function domainNodeTable(
  groups: readonly DomainGroup[],
  metrics: GpuMetrics | undefined,
  collapsed: ReadonlySet<string>,
  order: (rows: readonly Row[]) => readonly Row[],
  unknown: RequestsUnknown = KNOWN,
): TableData {
  const rows: Row[] = [];
  for (const g of groups) {
    const requestsUnknown = g.nodes.some(unknown);
    const key = domainRowKey(g);
    const open = !collapsed.has(key);
    const count = `${g.nodes.length} node${g.nodes.length === 1 ? '' : 's'}`;
    const marker = open ? '▾ ' : '▸ ';
    rows.push({
      key,
      cells: [
        marker + domainLabel(g.path),
        g.notReady ? `${count}, ${g.notReady} NotReady` : count,
        `${requestsUnknown ? '?' : g.gpuRequested}/${g.gpuAllocatable}`,
        requestsUnknown ? '?' : String(Math.max(0, g.gpuAllocatable - g.gpuRequested)),
        utilText(meanNodeUtilisation(metrics, g.nodes)),
        '',
        requestsUnknown ? '?' : String(g.nodes.reduce((s, n) => s + n.pods, 0)),
        '',
        '',
      ],
      tone: 'group',
      createdMs: null,
      fitFirst: (width) => marker + fitDomainLabel(g.path, width - displayWidth(marker)),
      sort: { name: g.key, status: '', gpus: requestsUnknown ? null : g.gpuRequested },
      target: { kind: 'none' },
      treeKey: key,
      expandable: true,
      expanded: open,
    });
    if (!open) continue;
    // Not indented: a node row reads (and filters, `/^gpu-node-05 `) as in the flat list.
    rows.push(...order(nodeRows(g.nodes, metrics, unknown)));
  }
  return withoutUnscrapedColumns({ columns: NODE_COLUMNS, rows }, metrics);
}

/** `:nodes` without node access: the nodes the pods are on, capacity unknown. */
export function podNodeTable(nodes: readonly PodNode[], metrics?: GpuMetrics): TableData {
  const rows: Row[] = nodes.map((n) => {
    const name = sanitise(n.name);
    return {
      key: n.name,
      cells: [
        name,
        'unknown (not readable)',
        `${n.gpuRequested}/?`,
        '?',
        ...(metrics ? [utilText(nodeGpuUtilisation(metrics, n)), '-'] : []),
        String(n.pods),
        sanitise(n.workloads.join(',')) || '-',
        '',
      ],
      tone: 'dim',
      createdMs: null,
      sort: { name: n.name, status: '9', gpus: n.gpuRequested },
      target: { kind: 'node', name: n.name, label: name },
    };
  });
  return {
    columns: metrics ? NODE_COLUMNS : NODE_COLUMNS.filter((c) => c !== UTIL_COLUMN && c.name !== 'GPU KIND'),
    rows,
  };
}

/** The node view's list: a group row per workload (unowned pods last), its pods under it. */
export function nodePodTable(entries: readonly NodePodEntry[], rowOf: PodRowOf = podRow): TableData {
  const groups = new Map<string, { title: string; entries: NodePodEntry[] }>();
  for (const e of entries) {
    const key = e.workload ? e.workload.uid : '';
    let g = groups.get(key);
    if (!g) {
      g = {
        title: e.workload
          ? `${sanitise(e.workload.kind)} ${sanitise(e.workload.namespace)}/${sanitise(e.workload.name)}`
          : '(no workload)',
        entries: [],
      };
      groups.set(key, g);
    }
    g.entries.push(e);
  }
  const ordered = [...groups.entries()].sort(([a, ga], [b, gb]) =>
    a === '' ? 1 : b === '' ? -1 : ga.title < gb.title ? -1 : ga.title > gb.title ? 1 : 0,
  );
  const rows: Row[] = [];
  for (const [key, g] of ordered) {
    const gpus = g.entries.reduce((s, e) => s + e.pod.gpus, 0);
    const wl = g.entries[0].workload;
    rows.push({
      key: `group:${key}`,
      cells: [g.title, '', '', '', String(gpus), '', '', `${g.entries.length} pod${g.entries.length === 1 ? '' : 's'}`],
      tone: 'group',
      createdMs: null,
      sort: { name: g.title, status: '', gpus },
      target: wl ? { kind: 'workload', uid: wl.uid, label: sanitise(wl.name) } : undefined,
      workloadUid: wl?.uid,
    });
    for (const e of g.entries) {
      const base = rowOf(e.pod, e.workload?.uid, false);
      rows.push({
        ...base,
        cells: ['  ' + base.cells[0], ...base.cells.slice(1)],
        target: e.workload
          ? { kind: 'podInWorkload', workloadUid: e.workload.uid, podUid: e.pod.uid, label: sanitise(e.pod.name) }
          : undefined,
      });
    }
  }
  return { columns: POD_COLUMNS, rows };
}
