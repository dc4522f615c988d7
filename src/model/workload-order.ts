// The workloads' trees in display order (kind, namespace, name), kept sorted
// incrementally: a flush that adds or removes a few trees merges them in
// instead of sorting everything again (O(n), not O(n log n)).
import type { WorkloadTree } from './types.js';
import { naturalCompare } from './order.js';

const byOrder = (a: WorkloadTree, b: WorkloadTree): number =>
  naturalCompare(a.kind, b.kind) || naturalCompare(a.namespace, b.namespace) || naturalCompare(a.name, b.name);

export class WorkloadOrder {
  private order: string[] = [];
  /** Uids added / removed since `order` was last brought up to date. */
  private added = new Set<string>();
  private removed = new Set<string>();

  add(uid: string): void {
    this.added.add(uid);
  }

  remove(uid: string): void {
    this.removed.add(uid);
    this.added.delete(uid);
  }

  /** The trees in order; `trees` holds every uid ever added and not removed. */
  list(trees: ReadonlyMap<string, WorkloadTree>): WorkloadTree[] {
    if (this.added.size > 0 || this.removed.size > 0) this.update(trees);
    return this.order.map((uid) => trees.get(uid)!);
  }

  /** Drops removed uids, sorts only the added ones and merges them in. */
  private update(trees: ReadonlyMap<string, WorkloadTree>): void {
    const removed = this.removed;
    const kept = removed.size > 0 ? this.order.filter((uid) => !removed.has(uid)) : this.order;
    const added: WorkloadTree[] = [];
    for (const uid of this.added) {
      const t = trees.get(uid);
      if (t) added.push(t);
    }
    added.sort(byOrder);
    const merged: string[] = [];
    let i = 0;
    for (const t of added) {
      while (i < kept.length && byOrder(trees.get(kept[i])!, t) <= 0) merged.push(kept[i++]);
      merged.push(t.uid);
    }
    while (i < kept.length) merged.push(kept[i++]);
    this.order = merged;
    this.added = new Set();
    this.removed = new Set();
  }
}
