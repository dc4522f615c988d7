// From the model snapshot and the current view frame to the rows the table
// shows: pick the resource renderer, then sort, then filter. Each step is a
// pure function so the App can memoise them separately (keyed on the
// snapshot version and the frame's fields): moving the cursor recomputes
// nothing, and typing a filter only re-filters the already sorted rows.
import type { ModelSnapshot, NodePodEntry, NodeSummary, WorkloadTree } from '../../model/types.js';
import type { Row, TableData } from '../render/table.js';
import { workloadTable } from '../render/workloads.js';
import { roleTable } from '../render/roles.js';
import { podTable, allPodsTable } from '../render/pods.js';
import { nodeTable, nodePodTable } from '../render/nodes.js';
import { definitionTable } from '../render/definitions.js';
import type { SortState, ViewFrame } from './viewState.js';

export interface ViewTable extends TableData {
  /** Whether shift-key sorting applies (trees and grouped lists keep their order). */
  sortable: boolean;
  /** Set when the frame's object vanished (deleted workload, node, role). */
  missing?: string;
}

export function findWorkload(snapshot: ModelSnapshot, uid: string | undefined): WorkloadTree | undefined {
  return uid === undefined ? undefined : snapshot.workloads.find((w) => w.uid === uid);
}

export function findNode(snapshot: ModelSnapshot, name: string | undefined): NodeSummary | undefined {
  return name === undefined ? undefined : snapshot.nodes.find((n) => n.name === name);
}

const EMPTY: TableData = { columns: [], rows: [] };

export function tableForFrame(
  snapshot: ModelSnapshot,
  frame: Pick<ViewFrame, 'kind' | 'workloadUid' | 'rolePath' | 'nodeName' | 'collapsed'>,
  namespace: string | null,
  getNodePods: (node: string) => NodePodEntry[],
): ViewTable {
  switch (frame.kind) {
    case 'workloads':
      return { ...workloadTable(snapshot.workloads, namespace), sortable: true };
    case 'workload': {
      const w = findWorkload(snapshot, frame.workloadUid);
      if (!w) return { ...EMPTY, sortable: false, missing: 'workload no longer exists' };
      return { ...roleTable(w, new Set(frame.collapsed)), sortable: false };
    }
    case 'pods': {
      if (frame.workloadUid === undefined) return { ...allPodsTable(snapshot.workloads, namespace), sortable: true };
      const w = findWorkload(snapshot, frame.workloadUid);
      if (!w) return { ...EMPTY, sortable: true, missing: 'workload no longer exists' };
      const t = podTable(w, frame.rolePath ?? null);
      if (!t) return { ...EMPTY, sortable: true, missing: 'role no longer exists' };
      return { ...t, sortable: true };
    }
    case 'nodes':
      return { ...nodeTable(snapshot.nodes), sortable: true };
    case 'node': {
      if (frame.nodeName === undefined) return { ...EMPTY, sortable: false };
      const t = nodePodTable(getNodePods(frame.nodeName));
      return { ...t, sortable: false, missing: findNode(snapshot, frame.nodeName) ? undefined : 'node no longer exists' };
    }
    case 'defs':
      return { ...definitionTable(snapshot.definitions), sortable: false };
    case 'help':
      return { ...EMPTY, sortable: false };
    default:
      // Incident views draw text, not rows (src/ui/components/IncidentView.tsx).
      return { ...EMPTY, sortable: false };
  }
}

function compare(a: Row, b: Row, sort: SortState): number {
  let c = 0;
  switch (sort.key) {
    case 'name':
      c = a.sort.name < b.sort.name ? -1 : a.sort.name > b.sort.name ? 1 : 0;
      break;
    case 'status':
      c = a.sort.status < b.sort.status ? -1 : a.sort.status > b.sort.status ? 1 : 0;
      break;
    case 'gpus':
      c = a.sort.gpus - b.sort.gpus;
      break;
    case 'age':
      // Ascending age = newest first, as k9s.
      c = (b.createdMs ?? 0) - (a.createdMs ?? 0);
      break;
  }
  if (c === 0 && sort.key !== 'name') c = a.sort.name < b.sort.name ? -1 : a.sort.name > b.sort.name ? 1 : 0;
  return sort.desc ? -c : c;
}

/** Rows in sort order (a new array; the input is left alone). Unsorted views keep their order. */
export function sortRows(rows: readonly Row[], sort: SortState | null, sortable: boolean): readonly Row[] {
  if (!sort || !sortable) return rows;
  return [...rows].sort((a, b) => compare(a, b, sort));
}

export interface FilterResult {
  rows: readonly Row[];
  /** Set when the filter is not a valid regex (it is then matched literally). */
  error?: string;
  inverted: boolean;
}

// Rows are immutable: their searchable text is joined once, not per keystroke.
const textCache = new WeakMap<Row, string>();
function rowText(r: Row): string {
  let t = textCache.get(r);
  if (t === undefined) {
    t = r.cells.join(' ');
    textCache.set(r, t);
  }
  return t;
}

/** `/regex` keeps matching rows, `/!regex` the others; case-insensitive; an invalid regex matches literally. */
export function filterRows(rows: readonly Row[], filter: string): FilterResult {
  const inverted = filter.startsWith('!');
  const pattern = inverted ? filter.slice(1) : filter;
  if (!pattern) return { rows, inverted };
  let test: (s: string) => boolean;
  let error: string | undefined;
  try {
    const re = new RegExp(pattern, 'i');
    test = (s) => re.test(s);
  } catch (err) {
    error = (err as Error).message;
    const lower = pattern.toLowerCase();
    test = (s) => s.toLowerCase().includes(lower);
  }
  const out = rows.filter((r) => test(rowText(r)) !== inverted);
  return { rows: out, error, inverted };
}

/** Namespaces present in the snapshot, for `:ns` completion. */
export function namespacesOf(snapshot: ModelSnapshot): string[] {
  return [...new Set(snapshot.workloads.map((w) => w.namespace))].sort();
}
