// ctrl-s: the current table as k9s saves one (a header line of column names,
// then a line per row, as shown: filtered and sorted). The caller writes it
// as CSV (src/app/table-dump.ts). Pure.
import { formatAge } from '../render/format.js';
import type { Screen } from './screen.js';
import { isIncidentKind } from './incident.js';

export interface TableDump {
  /** The view's name for the file (`workloads`, `jobsets`, `pods`). */
  view: string;
  namespace: string | null;
  columns: string[];
  rows: string[][];
  /** Rows the view has; more than `rows` when only a window of them is held (`:pods`, served by the engine). */
  total: number;
}

/** The screen's table as a dump, or why there is none. */
export function tableDump(screen: Screen, nowMs: number): TableDump | { reason: string } {
  const { frame, table } = screen;
  if (isIncidentKind(frame.kind)) return { reason: 'ctrl-s saves tables; this view is text' };
  if (frame.kind === 'map') return { reason: 'the map is not a table: :nodes saves the nodes as CSV' };
  if (screen.loading) return { reason: 'the table is still loading' };
  const columns = table.columns.map((c) => c.name);
  const rows: string[][] = [];
  for (const r of screen.rows) {
    if (!r) continue;
    rows.push(table.columns.map((c, i) => (c.age ? formatAge(r.createdMs, nowMs) : (r.cells[i] ?? '').trim())));
  }
  const view = frame.kind === 'workloads' && frame.workloadType ? frame.workloadType.label : frame.kind;
  return { view, namespace: screen.state.namespace, columns, rows, total: screen.rows.length };
}
