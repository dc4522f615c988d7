// Last-value memoisation for the view derivation (table → sorted → filtered),
// usable outside React's render: key handlers derive the rows of the state
// they just produced, and the render reuses the result when nothing changed.
import type { Row } from '../render/table.js';
import type { FilterResult, ViewTable } from './derive.js';

class Last<T> {
  private deps: readonly unknown[] | null = null;
  private value: T | undefined;

  get(deps: readonly unknown[], compute: () => T): T {
    if (this.deps && this.deps.length === deps.length && this.deps.every((d, i) => Object.is(d, deps[i]))) return this.value as T;
    this.value = compute();
    this.deps = deps;
    return this.value;
  }
}

export class ViewMemo {
  private readonly tableMemo = new Last<ViewTable>();
  private readonly sortedMemo = new Last<readonly Row[]>();
  private readonly filteredMemo = new Last<FilterResult>();

  table(deps: readonly unknown[], compute: () => ViewTable): ViewTable {
    return this.tableMemo.get(deps, compute);
  }

  sorted(deps: readonly unknown[], compute: () => readonly Row[]): readonly Row[] {
    return this.sortedMemo.get(deps, compute);
  }

  filtered(deps: readonly unknown[], compute: () => FilterResult): FilterResult {
    return this.filteredMemo.get(deps, compute);
  }
}
