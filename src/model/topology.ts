// Topology domains from node labels: region → zone → rack/block → NVLink domain, most specific last.
// The one home of which labels count as topology and of a node's place in it; the GPU map, `:nodes`
// grouping, spread and the split rule all read it. Pure functions over NodeSummary / PodSummary.
import type { KubeObject, NodeSummary, PodSummary, RoleTree, WorkloadTree } from './types.js';
import { rolePods, treePods } from './tree-pods.js';
import { naturalCompare } from './order.js';

/** Rack / block labels in use on GPU clouds and in Kueue topology-aware-scheduling examples, most general first. */
export const RACK_LABEL_KEYS = [
  'cloud.google.com/gce-topology-block',
  'cloud.google.com/gce-topology-subblock',
  'topology.k8s.aws/network-node-layer-1',
  'topology.k8s.aws/network-node-layer-2',
  'topology.k8s.aws/network-node-layer-3',
  'network.topology.kubernetes.io/block',
  'network.topology.kubernetes.io/rack',
  'topology.kubernetes.io/rack',
] as const;

export const NVLINK_DOMAIN_KEY = 'nvidia.com/gpu.clique';
export const REGION_KEY = 'topology.kubernetes.io/region';
export const ZONE_KEY = 'topology.kubernetes.io/zone';
/** Kueue's lowest level in most Topologies: a node is a cell of the map, not a domain. */
export const HOSTNAME_KEY = 'kubernetes.io/hostname';

/**
 * The node label levels of Kueue `Topology` objects (`kueue.x-k8s.io` v1beta1 / v1beta2,
 * `spec.levels[].nodeLabel`, most general first), one list per object in name order.
 */
export function kueueTopologyLevels(topologies: readonly KubeObject[]): string[][] {
  return [...topologies]
    .filter((t) => t.kind === undefined || t.kind === 'Topology')
    .sort((a, b) => naturalCompare(a.metadata.name, b.metadata.name))
    .map((t) => {
      const levels = (t.spec as { levels?: unknown } | undefined)?.levels;
      if (!Array.isArray(levels)) return [];
      return levels
        .map((l) => (l !== null && typeof l === 'object' ? (l as { nodeLabel?: unknown }).nodeLabel : undefined))
        .filter((k): k is string => typeof k === 'string' && k !== '');
    });
}

/**
 * The default keys with the cluster's Kueue Topology levels merged in: region, zone, then the Kueue
 * levels (each Topology most general first, a key keeps its first place), then the rack / block labels
 * not already there, then the NVLink domain. Region, zone and NVLink keep their places when a Topology
 * names them too; `kubernetes.io/hostname` is dropped (a node, not a domain).
 */
export function defaultTopologyKeys(kueueLevels: readonly (readonly string[])[] = []): string[] {
  const fixed = new Set([REGION_KEY, ZONE_KEY, NVLINK_DOMAIN_KEY, HOSTNAME_KEY]);
  const middle: string[] = [];
  for (const levels of kueueLevels) for (const k of levels) if (!fixed.has(k) && !middle.includes(k)) middle.push(k);
  for (const k of RACK_LABEL_KEYS) if (!middle.includes(k)) middle.push(k);
  return [REGION_KEY, ZONE_KEY, ...middle, NVLINK_DOMAIN_KEY];
}

/**
 * The keys in effect: `--topology-key` values when given (in the order given), else the defaults
 * (with the Kueue Topology levels, `defaultTopologyKeys`) restricted to those some node carries, so an
 * unlabelled level does not add an empty grouping step. `kubernetes.io/hostname` is never a key.
 */
export function topologyKeysInEffect(
  configured: readonly string[] | undefined,
  nodes: Iterable<{ labels: Record<string, string> }>,
  kueueLevels: readonly (readonly string[])[] = [],
): string[] {
  if (configured && configured.length) return [...new Set(configured)].filter((k) => k !== HOSTNAME_KEY);
  const defaults = defaultTopologyKeys(kueueLevels);
  const seen = new Set<string>();
  for (const n of nodes) for (const k of defaults) if (n.labels[k] !== undefined) seen.add(k);
  return defaults.filter((k) => seen.has(k));
}

/** A node's `{key: value}` for the keys in effect that it carries (the JSON contract's `topology`). */
export function nodeTopology(labels: Record<string, string>, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (labels[k] !== undefined) out[k] = labels[k];
  return out;
}

const NOUNS: Record<string, string> = {
  [REGION_KEY]: 'region',
  [ZONE_KEY]: 'zone',
  [NVLINK_DOMAIN_KEY]: 'NVLink domain',
  'cloud.google.com/gce-topology-subblock': 'sub-block',
  'topology.k8s.aws/network-node-layer-1': 'network layer-1 domain',
  'topology.k8s.aws/network-node-layer-2': 'network layer-2 domain',
  'topology.k8s.aws/network-node-layer-3': 'network layer-3 domain',
};

/** What one domain of a level is called: `NVLink domain`, `rack`, `zone`; else `<label name> domain`. */
export function domainNoun(key: string): string {
  const known = NOUNS[key];
  if (known) return known;
  const name = key.slice(key.lastIndexOf('/') + 1);
  if (/subblock$/i.test(name)) return 'sub-block';
  if (/block$/i.test(name)) return 'block';
  if (/rack$/i.test(name)) return 'rack';
  return `${name} domain`;
}

function counted(n: number, key: string): string {
  return `${n} ${domainNoun(key)}${n === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------------
// Domain grouping: nodes → a tree of domains with GPU totals, for `:nodes` and the GPU map.

export interface DomainGpuTotals {
  capacity: number;
  allocatable: number;
  requested: number;
  /** Σ max(0, allocatable − requested) per node, as the cluster totals count it. */
  free: number;
}

export interface TopologyDomain {
  /** The label key of this level. */
  key: string;
  /** The label's value; null groups nodes that lack it but carry a more specific key. */
  value: string | null;
  /** Values from the most general level down to this one. */
  path: (string | null)[];
  /** Nodes under it at any depth. */
  nodeCount: number;
  notReady: number;
  /** Nodes marked unschedulable (cordoned). */
  cordoned: number;
  gpus: DomainGpuTotals;
  /** Domains of the next level, in natural order of value (the null group last). */
  domains: TopologyDomain[];
  /** Nodes directly here: they carry no more specific key. In natural name order. */
  nodes: NodeSummary[];
}

export interface DomainGrouping {
  keys: string[];
  /** Domains of the first key. */
  domains: TopologyDomain[];
  /** Nodes that carry none of the keys. */
  nodes: NodeSummary[];
  /** Over every node. */
  nodeCount: number;
  notReady: number;
  cordoned: number;
  gpus: DomainGpuTotals;
}

interface Level {
  nodeCount: number;
  notReady: number;
  cordoned: number;
  gpus: DomainGpuTotals;
  nodes: NodeSummary[];
  children: Map<string | null, Level & { value: string | null }>;
}

function emptyLevel(): Level {
  return {
    nodeCount: 0,
    notReady: 0,
    cordoned: 0,
    gpus: { capacity: 0, allocatable: 0, requested: 0, free: 0 },
    nodes: [],
    children: new Map(),
  };
}

function addNode(l: Level, n: NodeSummary): void {
  l.nodeCount++;
  if (!n.ready) l.notReady++;
  if (n.unschedulable) l.cordoned++;
  l.gpus.capacity += n.gpuCapacity;
  l.gpus.allocatable += n.gpuAllocatable;
  l.gpus.requested += n.gpuRequested;
  l.gpus.free += Math.max(0, n.gpuAllocatable - n.gpuRequested);
}

const byValue = (a: { value: string | null }, b: { value: string | null }): number =>
  a.value === b.value ? 0 : a.value === null ? 1 : b.value === null ? -1 : naturalCompare(a.value, b.value);
const byName = (a: NodeSummary, b: NodeSummary): number => naturalCompare(a.name, b.name);

/** Sorted in place; nodes usually come in name order already, and a check costs less than a sort. */
function sortedByName(nodes: NodeSummary[]): NodeSummary[] {
  for (let i = 1; i < nodes.length; i++) if (byName(nodes[i - 1], nodes[i]) > 0) return nodes.sort(byName);
  return nodes;
}

/**
 * Nodes grouped by the keys in effect, most general first, with node counts and GPU totals per domain.
 * A node sits in the deepest domain it has a label for; a gap (a rack label missing under a zone while
 * an NVLink label is present) is a `value: null` domain, never a dropped node.
 */
export function groupByDomain(nodes: readonly NodeSummary[], keys: readonly string[]): DomainGrouping {
  const root = emptyLevel();
  // Nodes of one domain usually come together (name order): the previous node's chain is reused.
  const values: (string | null)[] = new Array<string | null>(keys.length).fill(null);
  let chain: Level[] = [root];
  for (const n of nodes) {
    let depth = 0;
    let same = true;
    for (let i = 0; i < keys.length; i++) {
      const v = n.labels[keys[i]] ?? null;
      if (v !== null) depth = i + 1;
      if (v !== values[i]) {
        same = false;
        values[i] = v;
      }
    }
    if (!same || chain.length !== depth + 1) {
      chain = [root];
      for (let i = 0; i < depth; i++) {
        const here = chain[i];
        let next = here.children.get(values[i]);
        if (!next) here.children.set(values[i], (next = Object.assign(emptyLevel(), { value: values[i] })));
        chain.push(next);
      }
    }
    for (const l of chain) addNode(l, n);
    chain[depth].nodes.push(n);
  }
  const build = (l: Level, depth: number, prefix: (string | null)[]): TopologyDomain[] =>
    [...l.children.values()].sort(byValue).map((c) => {
      const path = [...prefix, c.value];
      return {
        key: keys[depth],
        value: c.value,
        path,
        nodeCount: c.nodeCount,
        notReady: c.notReady,
        cordoned: c.cordoned,
        gpus: c.gpus,
        domains: build(c, depth + 1, path),
        nodes: sortedByName(c.nodes),
      };
    });
  return {
    keys: [...keys],
    domains: build(root, 0, []),
    nodes: sortedByName(root.nodes),
    nodeCount: root.nodeCount,
    notReady: root.notReady,
    cordoned: root.cordoned,
    gpus: root.gpus,
  };
}

// ---------------------------------------------------------------------------------------------
// Spread and the split rule, for a role or a workload (any set of pods).

/** The nodes by name and, per key, its domains' nodes: built once per snapshot, read per role. */
export interface TopologyIndex {
  readonly keys: readonly string[];
  readonly nodes: ReadonlyMap<string, NodeSummary>;
  /** Nodes per value of `key` (only nodes carrying it). */
  domainsOf(key: string): ReadonlyMap<string, readonly NodeSummary[]>;
  /** Per value of `key`, Σ max(0, allocatable − requested) over its Ready, schedulable nodes. */
  freeOf(key: string): ReadonlyMap<string, number>;
}

/** What a node offers a group of pods: allocatable minus the GPUs of other pods; nothing when not schedulable. */
function roomFor(n: NodeSummary, own: number): number {
  return n.ready && !n.unschedulable ? Math.max(0, n.gpuAllocatable - (n.gpuRequested - own)) : 0;
}

export function topologyIndex(nodes: readonly NodeSummary[], keys: readonly string[]): TopologyIndex {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const domains = new Map<string, Map<string, NodeSummary[]>>();
  const free = new Map<string, Map<string, number>>();
  return {
    keys,
    nodes: byName,
    freeOf(key) {
      let m = free.get(key);
      if (!m) {
        m = new Map();
        for (const [value, members] of this.domainsOf(key)) {
          let sum = 0;
          for (const n of members) sum += roomFor(n, 0);
          m.set(value, sum);
        }
        free.set(key, m);
      }
      return m;
    },
    domainsOf(key) {
      let m = domains.get(key);
      if (!m) {
        m = new Map();
        for (const n of nodes) {
          const v = n.labels[key];
          if (v === undefined) continue;
          const list = m.get(v);
          if (list) list.push(n);
          else m.set(v, [n]);
        }
        domains.set(key, m);
      }
      return m;
    },
  };
}

export type PlacedPod = Pick<PodSummary, 'node' | 'gpus' | 'phase'>;

/** Succeeded and Failed pods hold nothing on their node any more. */
function holdsResources(p: Pick<PlacedPod, 'phase'>): boolean {
  return p.phase !== 'Succeeded' && p.phase !== 'Failed';
}

export interface Spread {
  /** Distinct nodes counted. */
  nodes: number;
  /** Per key in effect, the distinct values over those nodes (nodes without the label add none). */
  byKey: Record<string, number>;
}

function spreadOver(nodeNames: ReadonlySet<string>, index: TopologyIndex): Spread {
  const byKey: Record<string, number> = {};
  for (const k of index.keys) {
    const values = new Set<string>();
    for (const name of nodeNames) {
      const v = index.nodes.get(name)?.labels[k];
      if (v !== undefined) values.add(v);
    }
    byKey[k] = values.size;
  }
  return { nodes: nodeNames.size, byKey };
}

/**
 * How many domains at each level the pods span: over the nodes of its bound pods that still hold
 * resources (not Succeeded / Failed), or, when none does any more, of all its bound pods (where it
 * ran). Pods not bound are not counted.
 */
export function spreadOf(pods: readonly PlacedPod[], index: TopologyIndex): Spread {
  return spreadOver(new Set(placedNodes(pods)), index);
}

/**
 * Where a group of pods is, in name order: the nodes of its bound pods that
 * still hold resources (not Succeeded / Failed), or, when none does any more,
 * of all its bound pods (where it ran). A role's and a workload's `nodes` and
 * their placement all count these.
 */
export function placedNodes(pods: readonly Pick<PlacedPod, 'node' | 'phase'>[]): string[] {
  const live = new Set<string>();
  const all = new Set<string>();
  for (const p of pods) {
    if (p.node === null) continue;
    all.add(p.node);
    if (holdsResources(p)) live.add(p.node);
  }
  return [...(live.size ? live : all)].sort(naturalCompare);
}

/**
 * `4 nodes · 2 NVLink domains · 1 rack`: most specific level first, down to the level just above the
 * most general one it is split over (levels no node of it carries are left out).
 */
export function spreadSentence(spread: Spread, keys: readonly string[]): string {
  const counts = keys.map((k) => spread.byKey[k] ?? 0);
  const split = counts.findIndex((n) => n > 1);
  const labelled = counts.map((n, i) => (n > 0 ? i : -1)).filter((i) => i >= 0);
  // Unsplit: the most specific level only; split: down to one level above the most general split.
  const stop = split >= 0 ? Math.max(0, split - 1) : (labelled[labelled.length - 1] ?? keys.length);
  const parts = [`${spread.nodes} node${spread.nodes === 1 ? '' : 's'}`];
  for (let i = keys.length - 1; i >= stop; i--) if (counts[i] > 0) parts.push(counted(counts[i], keys[i]));
  return parts.join(' · ');
}

/** The levels the split rule judges: every key in effect but region and zone (network levels). */
export function splitRuleKeys(keys: readonly string[]): string[] {
  return keys.filter((k) => k !== REGION_KEY && k !== ZONE_KEY);
}

export interface TopologySplit {
  key: string;
  /** Distinct values of `key` over the nodes its GPU pods are on. */
  domains: number;
  /** The domain that could have held all of it: the one holding most of its GPUs already, then the roomiest. */
  couldFit: string;
  /** GPUs its pods request (pods still holding resources, bound or not). */
  gpus: number;
  /** GPUs `couldFit` has for it: free on its Ready, schedulable nodes plus its own pods' there. */
  room: number;
  /** Of `gpus`, those already in `couldFit`. */
  inside: number;
}

/**
 * The split rule: a multi-node group of GPU pods (a role, a workload) spread over two or more domains
 * of a network level although one domain of that level could have held all of it, for each level in
 * `splitRuleKeys` order. "Could have held" (at the time of evaluation): its pods' GPU requests pack,
 * each pod whole on one node (best-fit, largest first), onto the domain's Ready, schedulable nodes,
 * each offering allocatable − GPUs requested by other pods. Only GPU counts are weighed (not CPU,
 * memory, selectors or taints), so a finding is a hint; the greedy packing errs towards no finding.
 */
export function splitAcross(pods: readonly PlacedPod[], index: TopologyIndex): TopologySplit[] {
  const gpuPods = pods.filter((p) => p.gpus > 0 && holdsResources(p));
  const ownOn = new Map<string, number>();
  for (const p of gpuPods) if (p.node !== null) ownOn.set(p.node, (ownOn.get(p.node) ?? 0) + p.gpus);
  if (ownOn.size < 2) return [];
  const requests = gpuPods.map((p) => p.gpus).sort((a, b) => b - a);
  const total = requests.reduce((s, g) => s + g, 0);
  const { byKey } = spreadOver(new Set(ownOn.keys()), index);
  const out: TopologySplit[] = [];
  for (const key of splitRuleKeys(index.keys)) {
    if ((byKey[key] ?? 0) < 2) continue;
    // Each domain's room: its free GPUs, corrected on the nodes holding the group's own.
    const inside = new Map<string, number>();
    const extra = new Map<string, number>();
    for (const [name, own] of ownOn) {
      const n = index.nodes.get(name);
      const value = n?.labels[key];
      if (!n || value === undefined) continue;
      inside.set(value, (inside.get(value) ?? 0) + own);
      extra.set(value, (extra.get(value) ?? 0) + roomFor(n, own) - roomFor(n, 0));
    }
    // The best-named candidate whose nodes take every pod whole (picked, not sorted: hundreds of domains).
    const candidates: [string, number][] = [];
    for (const [value, free] of index.freeOf(key)) {
      const r = free + (extra.get(value) ?? 0);
      if (r >= total) candidates.push([value, r]);
    }
    const before = ([va, ra]: [string, number], [vb, rb]: [string, number]): boolean =>
      ((inside.get(va) ?? 0) - (inside.get(vb) ?? 0) || ra - rb || naturalCompare(vb, va)) > 0;
    while (candidates.length) {
      let at = 0;
      for (let i = 1; i < candidates.length; i++) if (before(candidates[i], candidates[at])) at = i;
      const [value, r] = candidates[at];
      const rooms = (index.domainsOf(key).get(value) ?? []).map((n) => roomFor(n, ownOn.get(n.name) ?? 0));
      if (packs(requests, rooms)) {
        out.push({ key, domains: byKey[key], couldFit: value, gpus: total, room: r, inside: inside.get(value) ?? 0 });
        break;
      }
      candidates.splice(at, 1);
    }
  }
  return out;
}

/** Best-fit decreasing: each request (sorted largest first) on the node with the least room that holds it. */
function packs(requests: readonly number[], rooms: number[]): boolean {
  const left = [...rooms];
  for (const want of requests) {
    let at = -1;
    for (let i = 0; i < left.length; i++) if (left[i] >= want && (at < 0 || left[i] < left[at])) at = i;
    if (at < 0) return false;
    left[at] -= want;
  }
  return true;
}

/** An NVLink clique is `<cluster UUID>.<clique id>`: the UUID's first characters tell clusters apart. */
const CLIQUE_VALUE = /^([0-9a-f]{4})[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\.\S+)$/i;

/** A domain's value as people read it: a clique's cluster UUID cut to `2df6…` (`2df6….1`). */
export function shortDomainValue(value: string): string {
  return value.replace(CLIQUE_VALUE, '$1…$2');
}

/** `worker spans 2 NVLink domains; NVLink domain X had room for all 8 GPUs`. */
export function splitSentence(subject: string, s: TopologySplit): string {
  return `${subject} spans ${counted(s.domains, s.key)}; ${domainNoun(s.key)} ${shortDomainValue(s.couldFit)} had room for all ${s.gpus} GPUs`;
}

// ---------------------------------------------------------------------------------------------
// The `wlx get -o json` fields (stable contract).

/** A node's `topology`: `{key: value}` for the keys in effect it carries. */
export function nodeTopologyJson(node: Pick<NodeSummary, 'labels'>, keys: readonly string[]): Record<string, string> {
  return nodeTopology(node.labels, keys);
}

export interface PlacementJson {
  /** `{key: number of distinct values}` over the keys in effect; null when node objects are not readable. */
  spread: Record<string, number> | null;
  /** Keys where it is split though one domain could hold it; null when node objects are not readable. */
  splitAcross: string[] | null;
}

/** A group of pods' `spread` and `splitAcross`; `index` null (no node access): both null, never 0. */
export function placementJson(pods: readonly PlacedPod[], index: TopologyIndex | null): PlacementJson {
  if (!index) return { spread: null, splitAcross: null };
  return { spread: spreadOf(pods, index).byKey, splitAcross: splitAcross(pods, index).map((s) => s.key) };
}

/** A role's `spread` and `splitAcross` (its sub-roles' pods included). */
export function roleTopologyJson(role: RoleTree, index: TopologyIndex | null): PlacementJson {
  return placementJson(rolePods(role), index);
}

/** A workload's `spread` and `splitAcross` (every pod of it, unattributed ones included). */
export function workloadTopologyJson(w: WorkloadTree, index: TopologyIndex | null): PlacementJson {
  return placementJson(treePods(w), index);
}
