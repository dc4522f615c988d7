// Views whose rows the engine worker derives, a window at a time: `:pods`
// lists every pod (100,000 rows), and the UI thread then holds only the rows
// around what it draws, never the pods themselves (src/app/worker/README.md
// "Served rows"). The UI asks with a request (the view's namespace, sort,
// filter, scroll and selection); the worker answers with a window and what
// the screen needs of the rest: counts, column widths, where the selection is.
import type { ModelSource } from '../../model/source.js';
import type { Column, Row } from '../render/table.js';
import type { SortState, ViewFrame } from './ui-state.js';

export interface RowWindowRequest {
  /** Increases with each request; a window names the one it answers. */
  id: number;
  namespace: string | null;
  sort: SortState | null;
  filter: string;
  top: number;
  page: number;
  selected: number;
  selectedKey: string | null;
}

export interface RowWindow {
  request: RowWindowRequest;
  columns: Column[];
  /** Rows after the filter, and before it. */
  total: number;
  unfiltered: number;
  /** Each column's longest cell over the rows (table.ts longestCells). */
  longest: number[];
  /** Index of `rows[0]` among the filtered rows. */
  from: number;
  rows: Row[];
  /** Where the request's selectedKey is among the filtered rows now (-1: not there). */
  selectedAt: number;
  filterError?: string;
  inverted: boolean;
}

/** A model source whose worker serves rows (src/app/worker/worker-source.ts). */
export interface RowServer {
  serveRows(request: RowWindowRequest | null): void;
  /** The last window answered (each answer is published as a new snapshot). */
  rowWindow(): RowWindow | undefined;
}

export function servesRows(source: ModelSource): source is ModelSource & RowServer {
  return typeof (source as Partial<RowServer>).serveRows === 'function';
}

/** The views served: `:pods` over every workload. */
export function isServedFrame(frame: Pick<ViewFrame, 'kind' | 'workloadUid'>): boolean {
  return frame.kind === 'pods' && frame.workloadUid === undefined;
}

/** How many pages of rows a window holds on each side of the visible one (scrolling draws at once). */
export const WINDOW_MARGIN_PAGES = 2;

/** The window's rows are the view's (same namespace, sort and filter); scrolling may still be on its way. */
export function windowFits(w: RowWindow, frame: Pick<ViewFrame, 'sort' | 'filter'>, namespace: string | null): boolean {
  const a = w.request.sort;
  const b = frame.sort;
  const sameSort = a === b || (a !== null && b !== null && a.key === b.key && a.desc === b.desc);
  return sameSort && w.request.filter === frame.filter && w.request.namespace === namespace;
}

/** The view's rows as the screen reads them: every index, only the window's rows present (ScreenModel keeps the last). */
export function windowRows(w: RowWindow): readonly (Row | undefined)[] {
  const out = new Array<Row | undefined>(w.total);
  for (let i = 0; i < w.rows.length; i++) out[w.from + i] = w.rows[i];
  return out;
}

/** The request for a served view as it stands (id left to the sender). */
export function rowRequest(
  frame: Pick<ViewFrame, 'sort' | 'filter' | 'top' | 'selected' | 'selectedKey'>,
  namespace: string | null,
  page: number,
): Omit<RowWindowRequest, 'id'> {
  return {
    namespace,
    sort: frame.sort,
    filter: frame.filter,
    top: frame.top,
    page,
    selected: frame.selected,
    selectedKey: frame.selectedKey,
  };
}
