// Last-value memoisation for the view derivation (table → sorted → filtered),
// usable outside React's render: key handlers derive the rows of the state
// they just produced, and the render reuses the result when nothing changed.
import type { Row } from '../render/table.js';
import { resortRows, sortRows, type FilterResult, type ViewTable } from './derive.js';
import type { SortState } from './ui-state.js';

class Last<T> {
  private deps: readonly unknown[] | null = null;
  private value: T | undefined;

  get(deps: readonly unknown[], compute: () => T): T {
    if (this.deps && this.deps.length === deps.length && this.deps.every((d, i) => Object.is(d, deps[i])))
      return this.value as T;
    this.value = compute();
    this.deps = deps;
    return this.value;
  }
}

export class ViewMemo {
  private readonly tableMemo = new Last<ViewTable>();
  private readonly filteredMemo = new Last<FilterResult>();

  table(deps: readonly unknown[], compute: () => ViewTable): ViewTable {
    return this.tableMemo.get(deps, compute);
  }

  private sortPrev: { rows: readonly Row[]; sortable: boolean; sort: SortState | null; out: readonly Row[] } | null =
    null;
  /** Full sorts and incremental re-sorts done (tests count work with them). */
  readonly sortStats = { full: 0, incremental: 0 };

  /**
   * `rows` in the frame's sort order. When only some rows were replaced since
   * the last call with the same sort (a snapshot's changed pods), the previous
   * order is patched rather than 100,000 rows sorted again.
   */
  sortedRows(rows: readonly Row[], sortable: boolean, sort: SortState | null): readonly Row[] {
    const p = this.sortPrev;
    if (p && p.rows === rows && p.sortable === sortable && p.sort === sort) return p.out;
    let out: readonly Row[] | null = null;
    if (p && sort && sortable && p.sortable && p.sort === sort) {
      out = resortRows(p.rows, p.out, rows, sort);
      if (out) this.sortStats.incremental++;
    }
    if (!out) {
      out = sortRows(rows, sort, sortable);
      if (sort && sortable) this.sortStats.full++;
    }
    this.sortPrev = { rows, sortable, sort, out };
    return out;
  }

  filtered(deps: readonly unknown[], compute: () => FilterResult): FilterResult {
    return this.filteredMemo.get(deps, compute);
  }
}
