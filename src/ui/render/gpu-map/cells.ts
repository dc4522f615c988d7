// The map's cells per snapshot: each node's band (its topology domain), fill level and mark. The bands and
// the nodes' order are kept while no node comes, goes or changes domain.
import type { GpuMetrics, NodeSummary } from '../../../model/types.js';
import { nodeGpuUtilisation } from '../../../model/gpu-overlay.js';
import { rollupGpus } from '../../../model/utilisation.js';
import { topologyKeysInEffect } from '../../../model/topology.js';
import { domainGroups, groupingKeys } from '../domains.js';
import type { NodeMark } from './colours.js';

export interface MapCell {
  node: NodeSummary;
  /** Index of its band in `MapBase.bands`. */
  group: number;
  /** 0 (free / idle) … 4 (full / busy); null: no GPU, no reading when coloured by utilisation, requests unknown. */
  level: number | null;
  mark: NodeMark | null;
  util: number | null;
  /** Coloured by idle GPUs: how many of the node's allocated GPUs are idle (null: not known, or none allocated). */
  idle: number | null;
  /** Its cluster's pods are not readable (nodeRequestsUnknown): what is allocated on it is unknown, never free. */
  requestsUnknown: boolean;
}

/** What colours the cells: GPUs allocated, their utilisation (once read), or the allocated GPUs that sit idle. */
export type MapColouring = 'allocation' | 'util' | 'idle';

/** A topology domain of the most specific key in effect: one band of the map. */
export interface MapBand {
  path: (string | null)[];
  size: number;
}

/**
 * Which node goes where: the keys in effect, the bands and the nodes' order. Kept across snapshots while no
 * node comes, goes or changes domain, so a live update neither sorts nor lays out again.
 */
export interface MapTopology {
  keys: string[];
  bands: MapBand[];
  /** Node names in map order (band by band, by name). */
  names: string[];
  bandOf: number[];
  indexOf: Map<string, number>;
}

export interface MapBase {
  topology: MapTopology;
  keys: string[];
  bands: MapBand[];
  /** Every node in map order. */
  cells: MapCell[];
  indexOf: Map<string, number>;
  /** Coloured by utilisation (some node reports a reading) rather than allocation. */
  byUtil: boolean;
  colouring: MapColouring;
}

const PRESSURE = new Set(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable']);

export function nodeMark(n: NodeSummary): NodeMark | null {
  if (!n.ready) return 'NotReady';
  if (n.unschedulable) return 'cordoned';
  if (n.conditions.some((c) => PRESSURE.has(c.type) && c.status === 'True')) return 'pressure';
  return null;
}

/** 0 for nothing, 4 for all, the rest in thirds between. */
export function fillLevel(fraction: number): number {
  if (fraction <= 0) return 0;
  if (fraction >= 1) return 4;
  return 1 + Math.min(2, Math.floor(fraction * 3));
}

export function mapTopology(nodes: readonly NodeSummary[], keys: string[]): MapTopology {
  const groups = domainGroups(nodes, keys);
  const names: string[] = [];
  const bandOf: number[] = [];
  groups.forEach((g, gi) => {
    for (const n of g.nodes) {
      names.push(n.name);
      bandOf.push(gi);
    }
  });
  return {
    keys,
    bands: groups.map((g) => ({ path: g.path, size: g.nodes.length })),
    names,
    bandOf,
    indexOf: new Map(names.map((n, i) => [n, i])),
  };
}

/** The same nodes in the same domains (any order). */
function sameTopology(t: MapTopology, nodes: readonly NodeSummary[], keys: readonly string[]): boolean {
  if (t.names.length !== nodes.length || t.keys.length !== keys.length || t.keys.some((k, i) => k !== keys[i]))
    return false;
  for (const n of nodes) {
    const at = t.indexOf.get(n.name);
    if (at === undefined) return false;
    const path = t.bands[t.bandOf[at]].path;
    for (let k = 0; k < keys.length; k++) if ((n.labels[keys[k]] ?? null) !== path[k]) return false;
  }
  return true;
}

/**
 * Idle allocated GPUs as a level: none idle 0 (free-blue), fewer than a third
 * of the node's GPUs 3, a third or more 4: a node with 3 of 8 GPUs idle
 * stands out however busy the other 5 keep its mean.
 */
export function idleLevel(idle: number | null, gpus: number): number | null {
  if (idle === null) return null;
  if (idle === 0) return 0;
  return idle * 3 < Math.max(1, gpus) ? 3 : 4;
}

/** Of a node's allocated GPUs, how many are idle; null when none is allocated or the idle window is not over for one. */
function nodeIdle(metrics: GpuMetrics | undefined, node: NodeSummary): number | null {
  if (!metrics || node.gpuRequested <= 0) return null;
  const readings = metrics.readings.byNode.get(node.name);
  if (!readings?.length) return null;
  const r = rollupGpus(readings, metrics.scrapedAt, metrics.idle);
  return r.idle === 0 && r.idleUnknown > 0 ? null : r.idle;
}

/** The cells of a snapshot; `previous` is reused when the topology did not change. */
export function mapBase(
  nodes: readonly NodeSummary[],
  metrics: GpuMetrics | undefined,
  configuredKeys: readonly string[] | undefined,
  previous?: MapTopology,
  /** `i` on the map: colour by idle allocated GPUs. */
  byIdle = false,
  requestsUnknown: (node: NodeSummary) => boolean = () => false,
): MapBase {
  const keys = groupingKeys(nodes, topologyKeysInEffect(configuredKeys, nodes));
  const topology = previous && sameTopology(previous, nodes, keys) ? previous : mapTopology(nodes, keys);
  const cells: MapCell[] = new Array<MapCell>(nodes.length);
  let byUtil = false;
  for (const node of nodes) {
    const at = topology.indexOf.get(node.name)!;
    const util = nodeGpuUtilisation(metrics, node);
    if (util !== null) byUtil = true;
    const idle = byIdle ? nodeIdle(metrics, node) : null;
    cells[at] = {
      node,
      group: topology.bandOf[at],
      level: null,
      mark: nodeMark(node),
      util,
      idle,
      requestsUnknown: requestsUnknown(node),
    };
  }
  for (const c of cells) {
    const n = c.node;
    if (byIdle) c.level = idleLevel(c.idle, n.gpuAllocatable);
    else if (byUtil) c.level = c.util === null ? null : fillLevel(c.util / 100);
    else c.level = n.gpuAllocatable > 0 && !c.requestsUnknown ? fillLevel(n.gpuRequested / n.gpuAllocatable) : null;
  }
  const colouring: MapColouring = byIdle ? 'idle' : byUtil ? 'util' : 'allocation';
  return { topology, keys, bands: topology.bands, cells, indexOf: topology.indexOf, byUtil, colouring };
}
