// From the model snapshot and the current view frame to the rows the table
// shows: pick the resource renderer, then sort, then filter. Each step is a
// pure function so the App can memoise them separately (keyed on the
// snapshot version and the frame's fields): moving the cursor recomputes
// nothing, and typing a filter only re-filters the already sorted rows.
import type {
  GpuCounts,
  ModelSnapshot,
  NodePodEntry,
  NodeSummary,
  OrphanPod,
  PodSummary,
  ProblemEntry,
  WorkloadTree,
} from '../../model/types.js';
import { sanitise } from '../../text/sanitise.js';
import { sumGpuSlices } from '../../model/gpu.js';
import type { Row, TableData } from '../render/table.js';
import { workloadTable } from '../render/workloads.js';
import { withPodUtil, withWorkloadUtil } from '../render/gpu-columns.js';
import { roleTable } from '../render/roles.js';
import { podTable, allPodsTable } from '../render/pods.js';
import type { RowCache } from '../render/row-cache.js';
import { domainNodeTable, nodeTable, nodePodTable, podNodeTable } from '../render/nodes.js';
import { domainGroups, groupingKeys } from '../render/domains.js';
import { regexFilter } from '../render/regex-filter.js';
import { topologyKeysInEffect } from '../../model/topology.js';
import { nodeRequestsUnknown } from '../../model/pods-readable.js';
import { definitionTable } from '../render/definitions.js';
import { problemTable } from '../render/problems.js';
import { clusterQueueTable, pendingTable } from '../render/queues.js';
import { aliasTable, contextTable, namespaceTable } from '../render/pickers.js';
import { namespaceIsRead } from '../render/namespace-access.js';
import { NO_USER_BINDINGS, type UserBindings } from '../user-config.js';
import type { NamespaceList, SortState, ViewFrame } from './ui-state.js';
import { workloadTypeKey, workloadTypes } from './workload-types.js';

/** What the pickers (`:ctx`, `:ns`, ctrl-a) list besides the snapshot. */
export interface PickerInputs {
  contexts: readonly string[];
  currentContext: string;
  namespaceList: NamespaceList | null;
  recentNamespaces: readonly string[];
  /** The `-n` namespaces wlx was started with (empty: all): the model reads no other. */
  startedNamespaces?: readonly string[];
  bindings: UserBindings;
}

export interface ViewTable extends TableData {
  /** Whether shift-key sorting applies (trees and grouped lists keep their order). */
  sortable: boolean;
  /** Set when the frame's object vanished (deleted workload, node, role). */
  missing?: string;
  /** The table applied the frame's sort within its groups (`:nodes` by domain). */
  sortedWithin?: boolean;
}

/** Suffix of the entry standing for an owner that is not visible (see explorerWorkloads). */
export const NOT_VISIBLE = ' (not visible)';
const NOT_VISIBLE_UID = 'not-visible/';

/** An entry for the owner of orphan pods: its kind and name, its pods unattributed, nothing expected. */
function notVisibleOwner(pods: OrphanPod[]): WorkloadTree {
  const { owner, namespace } = pods[0];
  const live = pods.filter((p) => p.phase !== 'Succeeded' && p.phase !== 'Failed');
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    namespace,
    name: owner.name + NOT_VISIBLE,
    uid: `${NOT_VISIBLE_UID}${namespace}/${owner.apiVersion}/${owner.kind}/${owner.name}`,
    definition: '',
    definitionSource: 'cluster',
    status: ['Undefined'],
    replicas: { desired: 0, current: live.length, ready: live.filter((p) => p.ready).length },
    gpus: orphanGpus(live),
    roles: [],
    unattributedPods: pods,
    gangs: [],
    createdAt: null,
    statusMessage: `${owner.kind} ${owner.name} is not visible (absent, or its kind forbidden or not served)`,
    errors: [],
  };
}

/**
 * The workloads the explorer lists: the snapshot's, then one entry per owner
 * of orphan pods that is not visible (so those pods are in the workloads view,
 * `:pods` and a workload view, never dropped). With an explorer's row cache,
 * the same array per snapshot (kept there); without, made afresh.
 */
export function explorerWorkloads(snapshot: ModelSnapshot, cache?: RowCache): readonly WorkloadTree[] {
  if (snapshot.orphanPods.length === 0) return snapshot.workloads;
  let list = cache?.explorerLists.get(snapshot);
  if (!list) {
    const byOwner = new Map<string, OrphanPod[]>();
    for (const p of snapshot.orphanPods) {
      const key = `${p.namespace}/${p.owner.apiVersion}/${p.owner.kind}/${p.owner.name}`;
      const group = byOwner.get(key);
      if (group) group.push(p);
      else byOwner.set(key, [p]);
    }
    list = [...snapshot.workloads, ...[...byOwner.values()].map(notVisibleOwner)];
    cache?.explorerLists.set(snapshot, list);
  }
  return list;
}

/** The explorer's workload `uid` (explorerWorkloads): the snapshot's, else an owner that is not visible. */
export function findWorkload(
  snapshot: ModelSnapshot,
  uid: string | undefined,
  cache?: RowCache,
): WorkloadTree | undefined {
  if (uid === undefined) return undefined;
  const found = snapshot.workloads.find((w) => w.uid === uid);
  if (found || !uid.startsWith(NOT_VISIBLE_UID)) return found;
  return explorerWorkloads(snapshot, cache).find((w) => w.uid === uid);
}

export function findNode(snapshot: ModelSnapshot, name: string | undefined): NodeSummary | undefined {
  return name === undefined ? undefined : snapshot.nodes.find((n) => n.name === name);
}

const EMPTY: TableData = { columns: [], rows: [] };

/** A problem of a snapshot without entries (offline, tests): no time known. */
function untimedProblem(text: string): ProblemEntry {
  return { source: '-', text, since: '', level: 'problem' };
}

/** Why `:queues` has no row: the ClusterQueues are forbidden, Kueue is not served, or there are none. */
function noClusterQueue(snapshot: ModelSnapshot): string {
  const kind = snapshot.kinds.find((k) => k.gvk.group === 'kueue.x-k8s.io' && k.gvk.kind === 'ClusterQueue');
  if (kind?.state === 'forbidden') {
    const user = snapshot.access?.user;
    return `ClusterQueues are not readable${user ? ` by ${sanitise(user)}` : ''} (list clusterqueues.kueue.x-k8s.io is forbidden)`;
  }
  if (!kind || kind.state === 'not-served')
    return 'no ClusterQueue: Kueue is not installed (kueue.x-k8s.io is not served)';
  if (kind.state === 'syncing') return 'listing ClusterQueues…';
  return 'no ClusterQueue';
}

export function tableForFrame(
  snapshot: ModelSnapshot,
  frame: Pick<ViewFrame, 'kind' | 'workloadUid' | 'rolePath' | 'nodeName' | 'queueName' | 'collapsed'> &
    Partial<Pick<ViewFrame, 'sort' | 'workloadType'>>,
  namespace: string | null,
  getNodePods: (node: string) => NodePodEntry[],
  /** The explorer's memoised rows; without it every row is built afresh. */
  cache?: RowCache,
  /** `--topology-key` values; absent: the default keys the nodes carry. */
  topologyKeys?: readonly string[],
  pickers?: PickerInputs,
): ViewTable {
  switch (frame.kind) {
    case 'workloads': {
      const keys = frame.workloadType?.keys;
      const all = explorerWorkloads(snapshot, cache);
      const workloads = keys ? all.filter((w) => keys.includes(workloadTypeKey(w))) : all;
      return {
        ...withWorkloadUtil(
          workloadTable(workloads, namespace, cache?.workloadRow, snapshot.scheduling),
          snapshot.workloads,
          snapshot.gpuMetrics,
          cache?.gpuOverlays,
        ),
        sortable: true,
      };
    }
    case 'contexts': {
      const contexts = pickers?.contexts ?? [];
      return {
        ...contextTable(contexts, pickers?.currentContext ?? ''),
        sortable: false,
        missing: contexts.length ? undefined : 'no other context: this one was given on the command line or by --demo',
      };
    }
    case 'namespaces': {
      // Counted once the workloads are listed: before, a namespace's count is not known, not 0.
      const c = snapshot.connection;
      const listed = c.state === 'live' || (c.state === 'retrying' && c.synced > 0);
      const counts = listed ? new Map<string, number>() : null;
      if (counts)
        for (const w of explorerWorkloads(snapshot, cache)) counts.set(w.namespace, (counts.get(w.namespace) ?? 0) + 1);
      const list = pickers?.namespaceList ?? { namespaces: [] };
      const started = pickers?.startedNamespaces ?? [];
      return {
        ...namespaceTable(list, pickers?.recentNamespaces ?? [], counts, namespace, (ns) =>
          namespaceIsRead(snapshot, ns, started),
        ),
        sortable: true,
      };
    }
    case 'aliases':
      return { ...aliasTable(pickers?.bindings ?? NO_USER_BINDINGS, workloadTypes(snapshot)), sortable: false };
    case 'workload': {
      const w = findWorkload(snapshot, frame.workloadUid, cache);
      if (!w) return { ...EMPTY, sortable: false, missing: 'workload no longer exists' };
      return { ...roleTable(w, new Set(frame.collapsed)), sortable: false };
    }
    case 'pods': {
      if (frame.workloadUid === undefined) {
        const workloads = explorerWorkloads(snapshot, cache);
        const all = cache ? cache.allPodsTable(workloads, namespace) : allPodsTable(workloads, namespace);
        return { ...withPodUtil(all, snapshot.gpuMetrics, cache?.gpuOverlays), sortable: true };
      }
      const w = findWorkload(snapshot, frame.workloadUid, cache);
      if (!w) return { ...EMPTY, sortable: true, missing: 'workload no longer exists' };
      const t = podTable(w, frame.rolePath ?? null, cache?.podRow);
      if (!t) return { ...EMPTY, sortable: true, missing: 'role no longer exists' };
      return { ...withPodUtil(t, snapshot.gpuMetrics, cache?.gpuOverlays), sortable: true };
    }
    case 'nodes': {
      if (snapshot.podNodes) return { ...podNodeTable(snapshot.podNodes, snapshot.gpuMetrics), sortable: true };
      const keys = groupingKeys(
        snapshot.nodes,
        snapshot.topologyKeys ?? topologyKeysInEffect(topologyKeys, snapshot.nodes),
      );
      const blind = nodeRequestsUnknown(snapshot);
      if (!keys.length) return { ...nodeTable(snapshot.nodes, snapshot.gpuMetrics, blind), sortable: true };
      // Grouped: the frame's sort orders the nodes within each domain; the headers stay in domain order.
      const sort = frame.sort ?? null;
      return {
        ...domainNodeTable(
          domainGroups(snapshot.nodes, keys),
          snapshot.gpuMetrics,
          new Set(frame.collapsed),
          (rows) => sortRows(rows, sort, true),
          blind,
        ),
        sortable: false,
        sortedWithin: true,
      };
    }
    case 'node': {
      if (frame.nodeName === undefined) return { ...EMPTY, sortable: false };
      const t = nodePodTable(getNodePods(frame.nodeName), cache?.podRow);
      const node = findNode(snapshot, frame.nodeName);
      // Its pods count whatever `-n` shows (they hold its GPUs): say where they are rather than "nothing".
      const elsewhere = node && !t.rows.length && node.pods > 0;
      return {
        ...t,
        sortable: false,
        // Without node access a node is not readable, not gone: its pods are still listed (the panel says so).
        missing: snapshot.podNodes
          ? undefined
          : !node
            ? 'node no longer exists'
            : elsewhere
              ? `its ${node.pods} pod${node.pods === 1 ? ' is' : 's are'} in namespaces outside this view`
              : undefined,
      };
    }
    case 'queues': {
      const queues = snapshot.scheduling?.clusterQueues ?? [];
      return {
        ...clusterQueueTable(queues),
        sortable: true,
        missing: queues.length ? undefined : noClusterQueue(snapshot),
      };
    }
    case 'queue': {
      const line = frame.queueName === undefined ? undefined : snapshot.scheduling?.pending.get(frame.queueName);
      if (!line) return { ...EMPTY, sortable: false, missing: 'ClusterQueue no longer exists' };
      // In line order: position, not a sort key.
      return { ...pendingTable(line, !!snapshot.scheduling?.positionsUnavailable), sortable: false };
    }
    case 'defs':
      return { ...definitionTable(snapshot.definitions), sortable: false };
    case 'problems':
      return {
        ...problemTable(snapshot.problemEntries ?? snapshot.problems.map(untimedProblem)),
        sortable: false,
        missing: undefined,
      };
    case 'help':
      return { ...EMPTY, sortable: false };
    default:
      // Incident views draw text, not rows (src/ui/components/IncidentView.tsx).
      return { ...EMPTY, sortable: false };
  }
}

/**
 * A numeric sort key of a row (GPUS, UTIL, AGE as creation time), null when unknown: not readable, not reported,
 * no reading yet. Undefined for the text keys.
 */
function numericKey(r: Row, key: SortState['key']): number | null | undefined {
  switch (key) {
    case 'gpus':
      return r.sort.gpus;
    case 'util':
      return r.sort.util ?? null;
    case 'age':
      return r.createdMs;
    default:
      return undefined;
  }
}

function compare(a: Row, b: Row, sort: SortState): number {
  let c = 0;
  const x = numericKey(a, sort.key);
  const y = numericKey(b, sort.key);
  if (x !== undefined && y !== undefined) {
    // Unknown values sort after every known one in either direction: they never interleave with real zeros.
    if ((x === null) !== (y === null)) return x === null ? 1 : -1;
    // Ascending age = newest first (the latest creation time), as k9s.
    if (x !== null && y !== null) c = sort.key === 'age' ? y - x : x - y;
  } else if (sort.key === 'name') c = a.sort.name < b.sort.name ? -1 : a.sort.name > b.sort.name ? 1 : 0;
  else if (sort.key === 'status') c = a.sort.status < b.sort.status ? -1 : a.sort.status > b.sort.status ? 1 : 0;
  if (c === 0 && sort.key !== 'name') c = a.sort.name < b.sort.name ? -1 : a.sort.name > b.sort.name ? 1 : 0;
  return sort.desc ? -c : c;
}

/** Rows in sort order (a new array; the input is left alone). Unsorted views keep their order. */
export function sortRows(rows: readonly Row[], sort: SortState | null, sortable: boolean): readonly Row[] {
  if (!sort || !sortable) return rows;
  return [...rows].sort((a, b) => compare(a, b, sort));
}

/**
 * The rows of `rows` in sort order, derived from the previous sort of
 * `prevIn` (same length, rows replaced in place: a snapshot's changed pods)
 * instead of sorting again: a replaced row whose sort key did not change takes
 * its predecessor's place, one whose key changed is moved by binary search.
 * Returns the same order sortRows would (null when it cannot be sure: other
 * lengths, too many changes, or a moved row that ties with a neighbour, whose
 * place a stable sort decides by input order).
 */
export function resortRows(
  prevIn: readonly Row[],
  prevOut: readonly Row[],
  rows: readonly Row[],
  sort: SortState,
  limit = 256,
): readonly Row[] | null {
  if (prevIn.length !== rows.length || prevOut.length !== rows.length) return null;
  const replaced = new Map<Row, Row>();
  for (let i = 0; i < rows.length; i++) {
    if (rows[i] !== prevIn[i]) {
      replaced.set(prevIn[i], rows[i]);
      if (replaced.size > limit) return null;
    }
  }
  if (!replaced.size) return prevOut;
  const out: Row[] = [];
  const moved: Row[] = [];
  for (const r of prevOut) {
    const n = replaced.get(r);
    if (n === undefined) out.push(r);
    else if (compare(r, n, sort) === 0) out.push(n);
    else moved.push(n);
  }
  for (const n of moved) {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(out[mid], n, sort) < 0) lo = mid + 1;
      else hi = mid;
    }
    if ((lo > 0 && compare(out[lo - 1], n, sort) === 0) || (lo < out.length && compare(n, out[lo], sort) === 0))
      return null;
    out.splice(lo, 0, n);
  }
  return out;
}

export interface FilterResult {
  rows: readonly Row[];
  /** Set when the filter is not a valid regex (it is then matched literally). */
  error?: string;
  inverted: boolean;
}

/** The text the filter matches a row against. */
export function searchText(r: Row): string {
  return r.cells.join(' ');
}

/** `/regex` keeps matching rows, `/!regex` the others; case-insensitive; an invalid regex matches literally. */
export function filterRows(
  rows: readonly Row[],
  filter: string,
  textOf: (r: Row) => string = searchText,
): FilterResult {
  const f = regexFilter(filter);
  if (f.empty) return { rows, inverted: f.inverted };
  return { rows: rows.filter((r) => f.keeps(textOf(r))), error: f.error, inverted: f.inverted };
}

/** Namespaces present in the snapshot, for `:ns` completion. */
export function namespacesOf(snapshot: ModelSnapshot): string[] {
  return [...new Set(snapshot.workloads.map((w) => w.namespace))].sort();
}

/** GPUs of the live pods of an owner wlx cannot see: nothing is desired of it, what they request is shown. */
function orphanGpus(live: readonly PodSummary[]): GpuCounts {
  const gpus: GpuCounts = {
    desired: 0,
    requested: live.reduce((n, p) => n + p.gpus, 0),
    allocated: live.reduce((n, p) => n + (p.node ? p.gpus : 0), 0),
  };
  const slices = sumGpuSlices(live);
  if (slices) gpus.slices = slices;
  return gpus;
}
