// The engine worker's side of served rows (src/ui/state/served-rows.ts): the
// `:pods` view derived here from the engine's whole snapshot, by the UI's
// own pure derivation (render/, state/derive.ts: rows, UTIL overlay, sort,
// filter, column widths), and answered as a window around what the UI draws.
// The rows stay here between answers, memoised per pod as on the UI side.
import type { ModelSnapshot } from '../../model/types.js';
import { RowCache } from '../../ui/render/row-cache.js';
import { LayoutMemo } from '../../ui/render/table.js';
import { filterRows, tableForFrame } from '../../ui/state/derive.js';
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
}
