// Nodes grouped by topology domain (the most specific key in effect) with GPU totals per domain: the
// bands of the GPU map and the header rows of `:nodes`. Written here until src/model/topology.ts has its
// own grouping with totals; then this folds onto it.
import type { NodeSummary } from '../../model/types.js';
import { domainPath } from '../../model/topology.js';
import { naturalCompare } from '../../model/order.js';

export interface DomainGroup {
  /** `zone-a/rack-1/clique-2` (raw label values, `-` where a node lacks one); the group's key. */
  key: string;
  /** One value per key in effect, most general first (`null`: unlabelled at that level). */
  path: (string | null)[];
  nodes: NodeSummary[];
  gpuAllocatable: number;
  gpuRequested: number;
  notReady: number;
}

/** Node names in natural order (`gpu-2` before `gpu-10`). */
export const compareNames = naturalCompare;

/** The path as one string, `-` for a missing level. */
export function pathKey(path: readonly (string | null)[]): string {
  return path.map((v) => v ?? '-').join('/');
}

/**
 * Nodes by domain path in natural order of the path, each group's nodes by name. With no keys in effect one
 * group holds every node (path `[]`).
 */
export function groupByDomain(nodes: readonly NodeSummary[], keys: readonly string[]): DomainGroup[] {
  const groups = new Map<string, DomainGroup>();
  for (const n of nodes) {
    const path = domainPath(n.labels, keys);
    const key = pathKey(path);
    let g = groups.get(key);
    if (!g) {
      g = { key, path, nodes: [], gpuAllocatable: 0, gpuRequested: 0, notReady: 0 };
      groups.set(key, g);
    }
    g.nodes.push(n);
    g.gpuAllocatable += n.gpuAllocatable;
    g.gpuRequested += n.gpuRequested;
    if (!n.ready) g.notReady++;
  }
  const out = [...groups.values()].sort((a, b) => comparePaths(a.path, b.path));
  for (const g of out) g.nodes.sort((a, b) => compareNames(a.name, b.name));
  return out;
}

/** Level by level; an unlabelled level after the labelled ones. */
function comparePaths(a: readonly (string | null)[], b: readonly (string | null)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    const c = compareNames(x, y);
    if (c) return c;
  }
  return 0;
}
