// One cluster of a fleet in a line: its connection state, nodes ready/total,
// GPUs allocatable / requested / free / pending and the same by model (a GPU
// product such as NVIDIA-H100-80GB-HBM3 for whole GPUs, the resource name of
// each MIG profile or shared GPU, `dra:<class>` for each DRA device class),
// mean GPU utilisation, workloads by status and its problems. Pure, from the
// cluster's own snapshot: `:clusters` and the `clusters` of `wlx get -o json`.
import type {
  ClusterConnection,
  ConnectionCause,
  ModelSnapshot,
  NodeSummary,
  WorkloadQueue,
  WorkloadTree,
} from '../types.js';
import { workloadWords } from '../workload-word.js';
import { clusterGpuUtilisation } from '../gpu-overlay.js';
import { DEFAULT_GPU_RESOURCES } from '../gpu.js';
import type { ClusterSummary, FleetState, ModelGpus } from './types.js';

/** The fleet state of a connection: live, still connecting (or syncing), or why it fails. */
export function fleetState(connection: ClusterConnection | null | undefined, cause?: ConnectionCause): FleetState {
  const why = cause ?? connection?.cause;
  if (connection?.state === 'live' || connection?.state === 'syncing')
    return connection.state === 'live' ? 'live' : 'connecting';
  if (!why) return 'connecting';
  if (why.kind === 'unauthorized' || why.kind === 'credentials') return 'unauthorized';
  if (why.kind === 'forbidden') return 'forbidden';
  if (why.kind === 'kubeconfig') return 'invalid';
  return 'unreachable';
}

/** The key a node's GPU resource is counted under by model. */
function modelKey(node: Pick<NodeSummary, 'gpuModel'>, resource: string, wholeGpus: readonly string[]): string {
  return wholeGpus.includes(resource) && node.gpuModel ? node.gpuModel : resource;
}

/** GPUs by model over the nodes: allocatable, requested by the pods on them, free. */
export function gpusByModel(
  nodes: readonly Pick<NodeSummary, 'gpuModel' | 'gpuResources'>[],
  wholeGpus: readonly string[] = DEFAULT_GPU_RESOURCES,
): Record<string, ModelGpus> {
  const out: Record<string, ModelGpus> = {};
  for (const n of nodes)
    for (const [resource, r] of Object.entries(n.gpuResources ?? {})) {
      const m = (out[modelKey(n, resource, wholeGpus)] ??= { allocatable: 0, requested: 0, free: 0 });
      m.allocatable += r.allocatable;
      m.requested += r.requested;
      m.free += Math.max(0, r.allocatable - r.requested);
    }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Workloads holding each status word, as the header counts them (src/model/workload-word.ts). */
export function workloadStatusCounts(
  workloads: readonly WorkloadTree[],
  queues?: ReadonlyMap<string, WorkloadQueue>,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const w of workloads)
    for (const s of new Set(workloadWords(w, queues?.get(w.uid)))) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

/** A member's line from its snapshot (null: no snapshot yet, or it never connected). */
export function summariseCluster(
  member: { context: string; server: string | null; version: string | null; error?: ConnectionCause | null },
  snapshot: ModelSnapshot | null,
  wholeGpus?: readonly string[],
): ClusterSummary {
  const state = fleetState(snapshot?.connection, member.error ?? undefined);
  const cause = member.error ?? snapshot?.connection.cause;
  const base = {
    context: member.context,
    server: member.server,
    version: member.version,
    state,
    error: state === 'live' || state === 'connecting' ? null : (cause?.text ?? state),
  };
  if (!snapshot || snapshot.connection.synced === 0)
    return { ...base, nodes: null, gpus: null, utilization: null, workloads: {}, problems: [] };
  const readable = !snapshot.podNodes;
  const t = snapshot.totals;
  return {
    ...base,
    nodes: readable ? { ready: snapshot.nodes.filter((n) => n.ready).length, total: snapshot.nodes.length } : null,
    gpus: {
      allocatable: readable ? t.gpuAllocatable : null,
      requested: t.gpuRequested,
      free: readable ? t.gpuFree : null,
      pending: t.gpuPending,
      byModel: readable ? gpusByModel(snapshot.nodes, wholeGpus) : {},
    },
    utilization: clusterGpuUtilisation(snapshot.gpuMetrics),
    workloads: workloadStatusCounts(snapshot.workloads, snapshot.scheduling?.queues),
    problems: [...snapshot.problems],
  };
}
