// Node summaries: GPU capacity/allocatable from the node, requested by the
// non-terminal pods bound to it (terminating ones included: they still hold
// their devices until they are gone).
import type { KubeObject, NodeSummary, ClusterTotals } from './types.js';
import {
  addGpuResources,
  gpuResourceMatcher,
  nodeGpuAmount,
  nodeGpuModel,
  nodeGpuResources,
  type GpuResourceMatcher,
} from './gpu.js';
import { repeatedClaimGpus, resourceTotal } from './dra.js';

function negated(resources: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(resources)) out[k] = -v;
  return out;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface NodePodLoad {
  gpus: number;
  /** Counted in the node's pods and GPUs (phase not Succeeded/Failed). */
  active: boolean;
  /** `namespace/name` of the workload it belongs to, if any. */
  workload: string | null;
  /** Its GPUs by resource name (PodSummary.gpuResources). */
  resources?: Readonly<Record<string, number>>;
  /** Its DRA claims' GPUs (PodSummary.draClaims): a claim pods on the node share counts once. */
  claims?: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

export function summariseNode(
  node: KubeObject,
  pods: Iterable<NodePodLoad>,
  gpuResources: readonly string[],
  gpuKinds: GpuResourceMatcher = gpuResourceMatcher(gpuResources),
  draCapacity?: Readonly<Record<string, number>>,
): NodeSummary {
  const status = node.status ?? {};
  const conditions = (Array.isArray(status['conditions']) ? (status['conditions'] as unknown[]) : [])
    .filter(isObj)
    .map((c) => {
      const out: NodeSummary['conditions'][number] = { type: String(c.type ?? ''), status: String(c.status ?? '') };
      if (typeof c.reason === 'string') out.reason = c.reason;
      if (typeof c.message === 'string') out.message = c.message;
      return out;
    });
  const taints = (Array.isArray(node.spec?.['taints']) ? (node.spec['taints'] as unknown[]) : [])
    .filter(isObj)
    .map((t) => {
      const out: NodeSummary['taints'][number] = { key: String(t.key ?? ''), effect: String(t.effect ?? '') };
      if (typeof t.value === 'string') out.value = t.value;
      return out;
    });
  let requested = 0;
  let count = 0;
  const workloads = new Set<string>();
  const requestedByName: Record<string, number> = {};
  const claimsSeen = new Set<string>();
  for (const p of pods) {
    if (!p.active) continue;
    if (p.resources) addGpuResources(requestedByName, p.resources);
    requested += p.gpus;
    const repeated = repeatedClaimGpus(p.claims, claimsSeen);
    if (repeated) {
      addGpuResources(requestedByName, negated(repeated));
      requested -= resourceTotal(repeated);
    }
    count++;
    if (p.workload) workloads.add(p.workload);
  }
  const createdAt = node.metadata.creationTimestamp;
  const byName: NonNullable<NodeSummary['gpuResources']> = {};
  for (const [name, r] of Object.entries(nodeGpuResources(status, gpuKinds)))
    byName[name] = { capacity: r.capacity, allocatable: r.allocatable, requested: 0 };
  let draGpus = 0;
  for (const [name, n] of Object.entries(draCapacity ?? {})) {
    byName[name] = { capacity: n, allocatable: n, requested: 0 };
    draGpus += n;
  }
  for (const [name, n] of Object.entries(requestedByName))
    if (n > 0) (byName[name] ??= { capacity: 0, allocatable: 0, requested: 0 }).requested += n;
  return {
    name: node.metadata.name,
    ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
    // DRA GPUs count with the device-plugin ones (a slice's devices are all allocatable).
    gpuCapacity: nodeGpuAmount(status['capacity'], gpuResources) + draGpus,
    gpuAllocatable: nodeGpuAmount(status['allocatable'], gpuResources) + draGpus,
    gpuRequested: requested,
    pods: count,
    unschedulable: node.spec?.['unschedulable'] === true,
    conditions,
    taints,
    labels: { ...(node.metadata.labels ?? {}) },
    createdAt: typeof createdAt === 'string' ? createdAt : null,
    workloads: [...workloads].sort(),
    gpuModel: nodeGpuModel(node.metadata.labels).product,
    gpuResources: byName,
  };
}

/** Cluster totals over node summaries; gpuPending is what unbound pods request. */
export function totalsOf(nodes: NodeSummary[], pods: number, gpuPending: number): ClusterTotals {
  let capacity = 0;
  let allocatable = 0;
  let requested = 0;
  let free = 0;
  const byResource: NonNullable<ClusterTotals['byResource']> = {};
  for (const n of nodes) {
    capacity += n.gpuCapacity;
    allocatable += n.gpuAllocatable;
    requested += n.gpuRequested;
    free += Math.max(0, n.gpuAllocatable - n.gpuRequested);
    for (const [name, r] of Object.entries(n.gpuResources ?? {})) {
      const sum = (byResource[name] ??= { capacity: 0, allocatable: 0, requested: 0 });
      sum.capacity += r.capacity;
      sum.allocatable += r.allocatable;
      sum.requested += r.requested;
    }
  }
  return {
    gpuCapacity: capacity,
    gpuAllocatable: allocatable,
    gpuRequested: requested,
    gpuFree: free,
    gpuPending,
    pods,
    nodes: nodes.length,
    // Only worth grouping by when there is more than one kind.
    ...(Object.keys(byResource).length > 1 ? { byResource } : {}),
  };
}
