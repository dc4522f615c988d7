// Pods of a role, of a workload (`p`), or of every workload (`:pods`).
import type { PodSummary, WorkloadTree } from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import type { Column, Row, TableData } from './table.js';
import { parseTime, statusTone, statusRank } from './format.js';
import { workloadPods } from './workloads.js';
import { UNATTRIBUTED } from '../../model/role-name.js';
import { findRole, rolePods } from './roles.js';

export const POD_COLUMNS: Column[] = [
  { name: 'NAME', min: 14, max: 50, sortKey: 'name' },
  { name: 'STATUS', min: 9, max: 24, sortKey: 'status' },
  { name: 'READY', min: 5, align: 'right' },
  { name: 'RESTARTS', min: 3, align: 'right', dropPriority: 2 },
  { name: 'GPUS', min: 4, align: 'right', sortKey: 'gpus' },
  { name: 'NODE', min: 6, max: 24 },
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

// Rows are immutable and pods keep their identity across snapshots when the
// model shares unchanged objects, so a row is built once per pod object: a
// 100,000-pod list re-derives in a fraction of the time when few pods changed.
const rowCache = [new WeakMap<PodSummary, Row>(), new WeakMap<PodSummary, Row>()];
let podRowsBuilt = 0;

/** Pod rows built since the process started (tests count work with it). */
export function podRowStats(): { built: number } {
  return { built: podRowsBuilt };
}

export function podRow(p: PodSummary, workloadUid: string | undefined, withNamespace: boolean): Row {
  const cache = rowCache[withNamespace ? 1 : 0];
  const hit = cache.get(p);
  if (hit && hit.workloadUid === workloadUid) return hit;
  const row = buildPodRow(p, workloadUid, withNamespace);
  podRowsBuilt++;
  cache.set(p, row);
  return row;
}

function buildPodRow(p: PodSummary, workloadUid: string | undefined, withNamespace: boolean): Row {
  const name = sanitise(p.name);
  const cells = [
    name,
    sanitise(p.status),
    sanitise(p.readyContainers),
    String(p.restarts),
    String(p.gpus),
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
  };
}

/** The pods a pods frame shows; null when the workload or role is gone. */
export function podsOf(w: WorkloadTree, rolePath: readonly string[] | null): PodSummary[] | null {
  if (rolePath === null) return workloadPods(w);
  if (rolePath.length === 1 && rolePath[0] === UNATTRIBUTED) return w.unattributedPods;
  const role = findRole(w, rolePath);
  return role ? rolePods(role) : null;
}

export function podTable(w: WorkloadTree, rolePath: readonly string[] | null): TableData | null {
  const pods = podsOf(w, rolePath);
  if (!pods) return null;
  return { columns: POD_COLUMNS, rows: pods.map((p) => podRow(p, w.uid, false)) };
}

// `:pods` rows per workload object: a snapshot where few workloads changed
// rebuilds only theirs, and the list is a concatenation (100,000 pods under
// churn must not cost 100,000 lookups per frame).
const workloadRowsCache = new WeakMap<WorkloadTree, Row[]>();

function workloadPodRows(w: WorkloadTree): Row[] {
  let rows = workloadRowsCache.get(w);
  if (!rows) {
    rows = workloadPods(w).map((p) => podRow(p, w.uid, true));
    workloadRowsCache.set(w, rows);
  }
  return rows;
}

// The last `:pods` list, patched in place: under churn most snapshots change
// a few workloads out of thousands, and rebuilding a 100,000-row array per
// snapshot costs more than everything else the explorer does for it. When
// no workload changed the same array is returned (so sort and filter memos
// keep their results); when a few changed and kept their pod counts, their
// segments of a copy are overwritten; anything else rebuilds.
interface AllPods {
  workloads: readonly WorkloadTree[];
  namespace: string | null;
  rows: Row[];
  /** Start of each workload's segment in rows (-1 when filtered out by namespace). */
  starts: number[];
}
let lastAllPods: AllPods | null = null;
let allPodsRebuilds = 0;
let allPodsPatches = 0;

/** `:pods` list derivations since the process started: full rebuilds and in-place patches (tests count work with it). */
export function allPodsStats(): { rebuilds: number; patches: number } {
  return { rebuilds: allPodsRebuilds, patches: allPodsPatches };
}

function patchAllPods(last: AllPods, workloads: readonly WorkloadTree[], namespace: string | null): Row[] | null {
  if (last.namespace !== namespace || last.workloads.length !== workloads.length) return null;
  let rows: Row[] | null = null;
  const prev = last.workloads;
  for (let i = 0; i < workloads.length; i++) {
    const w = workloads[i];
    const old = prev[i];
    if (w === old) continue;
    if (w.uid !== old.uid || w.namespace !== old.namespace) return null;
    const start = last.starts[i];
    if (start < 0) continue;
    const before = workloadRowsCache.get(old);
    const next = workloadPodRows(w);
    if (!before || before.length !== next.length) return null;
    rows ??= last.rows.slice();
    for (let k = 0; k < next.length; k++) rows[start + k] = next[k]!;
  }
  return rows ?? last.rows;
}

export function allPodsTable(workloads: readonly WorkloadTree[], namespace: string | null): TableData {
  if (lastAllPods) {
    const patched = patchAllPods(lastAllPods, workloads, namespace);
    if (patched) {
      if (patched !== lastAllPods.rows) allPodsPatches++;
      lastAllPods = { ...lastAllPods, workloads, rows: patched };
      return { columns: ALL_POD_COLUMNS, rows: patched };
    }
  }
  allPodsRebuilds++;
  const rows: Row[] = [];
  const starts: number[] = [];
  for (const w of workloads) {
    if (namespace !== null && w.namespace !== namespace) {
      starts.push(-1);
      continue;
    }
    starts.push(rows.length);
    for (const r of workloadPodRows(w)) rows.push(r);
  }
  lastAllPods = { workloads, namespace, rows, starts };
  return { columns: ALL_POD_COLUMNS, rows };
}
