// The engine worker's side of served rows (src/ui/state/served-rows.ts): the
// `:pods` view derived here from the engine's whole snapshot, by the UI's
// own pure derivation (render/, state/derive.ts: rows, UTIL overlay, sort,
// filter, column widths), and answered as a window around what the UI draws.
// The rows stay here between answers, memoised per pod as on the UI side.
import type { ModelSnapshot } from '../../model/types.js';
import { withPodUtil } from '../../ui/render/gpu-columns.js';
import { ALL_POD_COLUMNS } from '../../ui/render/pods.js';
import { RowCache } from '../../ui/render/row-cache.js';
import { LayoutMemo, type Row } from '../../ui/render/table.js';
import { explorerWorkloads, filterRows, tableForFrame } from '../../ui/state/derive.js';
import { ViewMemo } from '../../ui/state/memo.js';
import { WINDOW_MARGIN_PAGES, type RowWindow, type RowWindowRequest } from '../../ui/state/served-rows.js';
import type { SortState, ViewFrame } from '../../ui/state/viewState.js';

const NO_NODE_PODS = () => [];
const ALL_PODS: Pick<ViewFrame, 'kind' | 'collapsed'> = { kind: 'pods', collapsed: [] };

export class RowServer {
  private readonly rows = new RowCache();
  private readonly views = new ViewMemo();
  private readonly layouts = new LayoutMemo();
  /** One object per sort (the sort memo compares by identity; each request is a fresh clone). */
  private sort: SortState | null = null;
  private longestMemo: { rows: readonly unknown[]; longest: number[] } | null = null;

  window(snapshot: ModelSnapshot, request: RowWindowRequest): RowWindow {
    if (!request.sort && !request.filter) return this.naturalWindow(snapshot, request);
    const s = request.sort;
    if (!s) this.sort = null;
    else if (!this.sort || this.sort.key !== s.key || this.sort.desc !== s.desc) this.sort = { ...s };
    const table = tableForFrame(snapshot, ALL_PODS, request.namespace, NO_NODE_PODS, this.rows);
    const sorted = this.views.sortedRows(table.rows, true, this.sort);
    const filtered = this.views.filtered([sorted, request.filter], () =>
      filterRows(sorted, request.filter, this.rows.searchText),
    );
    const rows = filtered.rows;
    const total = rows.length;
    let selectedAt = -1;
    if (request.selectedKey !== null) {
      if (rows[request.selected]?.key === request.selectedKey) selectedAt = request.selected;
      else selectedAt = rows.findIndex((r) => r.key === request.selectedKey);
    }
    // Around the visible page, and the selection's when the key moved (the UI follows it there).
    const page = Math.max(1, request.page);
    const around =
      selectedAt >= 0 && (selectedAt < request.top || selectedAt >= request.top + page) ? selectedAt : request.top;
    const from = Math.max(0, Math.min(around, total) - WINDOW_MARGIN_PAGES * page);
    const to = Math.min(total, around + (WINDOW_MARGIN_PAGES + 1) * page);
    if (this.longestMemo?.rows !== rows)
      this.longestMemo = { rows, longest: this.layouts.longest(table.columns, rows) };
    return {
      request,
      columns: table.columns,
      total,
      unfiltered: table.rows.length,
      longest: this.longestMemo.longest,
      from,
      rows: rows.slice(from, to),
      selectedAt,
      ...(filtered.error ? { filterError: filtered.error } : {}),
      inverted: filtered.inverted,
    };
  }

  /**
   * Unsorted and unfiltered (the view as it opens): the rows in tree order,
   * read from each workload's memoised rows, so only the window (and the
   * head and tail the column widths are measured on) is assembled and
   * overlaid, never the 100,000-row list. The same rows as the derivation above.
   */
  private naturalWindow(snapshot: ModelSnapshot, request: RowWindowRequest): RowWindow {
    const segments: Row[][] = [];
    let total = 0;
    for (const w of explorerWorkloads(snapshot)) {
      if (request.namespace !== null && w.namespace !== request.namespace) continue;
      const rows = this.rows.workloadPodRows(w);
      if (rows.length) {
        segments.push(rows);
        total += rows.length;
      }
    }
    const slice = (from: number, to: number): Row[] => {
      const out: Row[] = [];
      let start = 0;
      for (const rows of segments) {
        const end = start + rows.length;
        if (end > from && start < to)
          out.push(...rows.slice(Math.max(0, from - start), Math.min(rows.length, to - start)));
        if (end >= to) break;
        start = end;
      }
      return out;
    };
    let selectedAt = -1;
    const key = request.selectedKey;
    if (key !== null) {
      if (slice(request.selected, request.selected + 1)[0]?.key === key) selectedAt = request.selected;
      else {
        let start = 0;
        for (const rows of segments) {
          const i = rows.findIndex((r) => r.key === key);
          if (i >= 0) {
            selectedAt = start + i;
            break;
          }
          start += rows.length;
        }
      }
    }
    const page = Math.max(1, request.page);
    const around =
      selectedAt >= 0 && (selectedAt < request.top || selectedAt >= request.top + page) ? selectedAt : request.top;
    const from = Math.max(0, Math.min(around, total) - WINDOW_MARGIN_PAGES * page);
    const to = Math.min(total, around + (WINDOW_MARGIN_PAGES + 1) * page);
    const overlaid = (rows: Row[]) => withPodUtil({ columns: ALL_POD_COLUMNS, rows }, snapshot.gpuMetrics);
    const window = overlaid(slice(from, to));
    // The widths layoutColumns would measure: the head and tail of a long list, else every row.
    const sample = total > 2000 ? [...slice(0, 1000), ...slice(total - 1000, total)] : slice(0, total);
    return {
      request,
      columns: window.columns,
      total,
      unfiltered: total,
      longest: this.layouts.longest(window.columns, overlaid(sample).rows),
      from,
      rows: window.rows,
      selectedAt,
      inverted: false,
    };
  }
}
