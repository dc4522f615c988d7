// The issue-12 fields of `wlx get -o json` for a pod, a group of pods (a
// role, a workload) and a node, from the pieces: requests by resource name
// (gpu.ts), DRA claims and slices (dra.ts) and DCGM readings
// (utilisation.ts). One place composes them, so the tree, the node summaries
// and the views read the same numbers.
import type { KubeObject } from './types.js';
import { addGpuResources, nodeGpuModel, nodeGpuResources, podGpuResources, type GpuResourceMatcher } from './gpu.js';
import { draGpuResources, podDraClaims, type DraCapacity, type DraLookup, type PodDraClaim } from './dra.js';
import {
  DEFAULT_IDLE_RULE,
  groupUtilisation,
  podKeyOf,
  rollupGpus,
  type GroupUtilisation,
  type IdleRule,
  type ReadingIndex,
} from './utilisation.js';

/** What the composition needs besides the objects. */
export interface GpuTruthContext {
  matches: GpuResourceMatcher;
  readings: ReadingIndex;
  /** ResourceClaims and templates by namespace and name (absent: no DRA served or listed). */
  draLookup: DraLookup;
  now: number;
  idle?: IdleRule;
}

/** The pod fields of the JSON contract, and the claims behind them. */
export interface PodGpuTruth {
  gpuUtilization: number | null;
  gpuMemoryUsedBytes: number | null;
  /** `{resourceName: count}`, DRA claims under `dra:<deviceClass>`. */
  gpuResources: Record<string, number>;
  draClaims: PodDraClaim[];
}

function podKey(pod: KubeObject): string {
  return podKeyOf({ namespace: pod.metadata.namespace ?? '', name: pod.metadata.name });
}

export function podGpuTruth(pod: KubeObject, ctx: GpuTruthContext): PodGpuTruth {
  const draClaims = podDraClaims(pod, ctx.draLookup);
  const gpuResources = podGpuResources(pod.spec, ctx.matches);
  addGpuResources(gpuResources, draGpuResources(draClaims));
  const r = rollupGpus(ctx.readings.byPod.get(podKey(pod)) ?? [], ctx.now, ctx.idle ?? DEFAULT_IDLE_RULE);
  return { gpuUtilization: r.utilisation, gpuMemoryUsedBytes: r.memoryUsedBytes, gpuResources, draClaims };
}

/** A role's or workload's additions to `gpus`, and what the views show besides. */
export interface GroupGpuTruth extends GroupUtilisation {
  /** By resource name; a claim its pods share counts once. */
  resources: Record<string, number>;
}

/** Over a group's pods (those in a non-terminal phase, as `requested` counts them). */
export function groupGpuTruth(pods: readonly KubeObject[], ctx: GpuTruthContext): GroupGpuTruth {
  const resources: Record<string, number> = {};
  const claims: PodDraClaim[] = [];
  for (const pod of pods) {
    addGpuResources(resources, podGpuResources(pod.spec, ctx.matches));
    claims.push(...podDraClaims(pod, ctx.draLookup));
  }
  addGpuResources(resources, draGpuResources(claims));
  const u = groupUtilisation(pods.map(podKey), ctx.readings, ctx.now, ctx.idle ?? DEFAULT_IDLE_RULE);
  return { ...u, resources };
}

/** The node fields of the JSON contract. */
export interface NodeGpuTruth {
  gpuUtilization: number | null;
  /** `nvidia.com/gpu.product` (or the AMD / Intel equivalent), null when unlabelled. */
  gpuModel: string | null;
  gpuResources: Record<string, { capacity: number; allocatable: number; requested: number }>;
}

/**
 * A node's GPU resources: device-plugin ones from its status, DRA ones from
 * its ResourceSlices (capacity = allocatable), requested by its active pods
 * (a shared claim once); a resource only requested (capacity gone) still shows.
 */
export function nodeGpuTruth(
  node: KubeObject,
  activePods: readonly KubeObject[],
  ctx: GpuTruthContext,
  dra: DraCapacity | null,
): NodeGpuTruth {
  const out: NodeGpuTruth['gpuResources'] = {};
  for (const [name, r] of Object.entries(nodeGpuResources(node.status, ctx.matches)))
    out[name] = { capacity: r.capacity, allocatable: r.allocatable, requested: 0 };
  for (const [name, n] of Object.entries(dra?.byNode.get(node.metadata.name) ?? {}))
    out[name] = { capacity: n, allocatable: n, requested: 0 };
  for (const [name, n] of Object.entries(groupGpuTruth(activePods, ctx).resources)) {
    const r = out[name] ?? (out[name] = { capacity: 0, allocatable: 0, requested: 0 });
    r.requested += n;
  }
  const readings = ctx.readings.byNode.get(node.metadata.name) ?? [];
  return {
    gpuUtilization: rollupGpus(readings, ctx.now, ctx.idle ?? DEFAULT_IDLE_RULE).utilisation,
    gpuModel: nodeGpuModel(node.metadata.labels).product,
    gpuResources: out,
  };
}
