// Nodes grouped by topology domain (the most specific key in effect) with GPU totals per domain: the
// bands of the GPU map and the header rows of `:nodes`, as a flat list of the model's domain tree
// (src/model/topology.ts `groupByDomain`, which carries the totals), one group per domain that holds nodes
// directly.
import type { NodeSummary } from '../../model/types.js';
import { groupByDomain, type TopologyDomain } from '../../model/topology.js';
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
 * The levels worth grouping by: a level every node carries with one value (a single-region cluster) tells
 * nothing and only widens the labels, so it is left out; the most specific level stays when all are so.
 */
export function groupingKeys(nodes: readonly NodeSummary[], keys: readonly string[]): string[] {
  const varying = keys.filter((k) => {
    const first = nodes[0]?.labels[k];
    return first === undefined || nodes.some((n) => n.labels[k] !== first);
  });
  return varying.length || !keys.length ? varying : [keys[keys.length - 1]];
}

/** What a domain's own nodes hold: its totals (the model's) less its sub-domains'. */
function ownTotals(
  whole: Pick<TopologyDomain, 'notReady' | 'gpus'>,
  parts: readonly Pick<TopologyDomain, 'notReady' | 'gpus'>[],
): Pick<DomainGroup, 'gpuAllocatable' | 'gpuRequested' | 'notReady'> {
  let { allocatable, requested } = whole.gpus;
  let notReady = whole.notReady;
  for (const p of parts) {
    allocatable -= p.gpus.allocatable;
    requested -= p.gpus.requested;
    notReady -= p.notReady;
  }
  return { gpuAllocatable: allocatable, gpuRequested: requested, notReady };
}

/**
 * Nodes by domain path in natural order of the path, each group's nodes by name. With no keys in effect one
 * group holds every node (path `[]`).
 */
export function domainGroups(nodes: readonly NodeSummary[], keys: readonly string[]): DomainGroup[] {
  const out: DomainGroup[] = [];
  const add = (
    prefix: readonly (string | null)[],
    members: NodeSummary[],
    totals: Pick<DomainGroup, 'gpuAllocatable' | 'gpuRequested' | 'notReady'>,
  ) => {
    if (!members.length) return;
    const path = keys.map((_, i) => prefix[i] ?? null);
    out.push({ key: pathKey(path), path, nodes: members, ...totals });
  };
  // A domain's own nodes (lacking a more specific label) come after its sub-domains: null sorts last.
  const visit = (d: TopologyDomain) => {
    for (const c of d.domains) visit(c);
    add(d.path, d.nodes, ownTotals(d, d.domains));
  };
  const tree = groupByDomain(nodes, keys);
  for (const d of tree.domains) visit(d);
  add([], tree.nodes, ownTotals(tree, tree.domains));
  return out;
}
