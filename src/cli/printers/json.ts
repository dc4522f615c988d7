// The `-o json|yaml` printer: the contract scripts read (README "JSON contract").
import type {
  AccessScope,
  GpuCounts,
  GpuMetrics,
  NodeSummary,
  OrphanPod,
  PodSummary,
  RoleTree,
  WorkloadTree,
  PodNode,
  GroupGpu,
  SchedulingView,
} from '../../model/types.js';
import { nodeGpuUtilisation, podGpuRollup, roleGpu, workloadGpu } from '../../model/gpu-overlay.js';
import { gangsWithVerdicts } from '../../model/scheduling/gangs.js';
import { nodeTopologyJson, roleTopologyJson, topologyIndex, workloadTopologyJson } from '../../model/topology.js';
import { fleetKey } from '../../model/fleet/link.js';
import { podsUnreadable } from '../../model/pods-readable.js';
import type { ClusterSummary, FleetLinks } from '../../model/fleet/types.js';

/** What the document is made of besides the workloads. */
export interface JsonSources {
  nodes: NodeSummary[];
  /** Node objects not readable: the nodes as the pods see them. */
  podNodes?: PodNode[];
  /** Queues and gang verdicts per workload. */
  scheduling: SchedulingView;
  access: AccessScope;
  /** One DCGM scrape (live only); absent: utilisation null throughout. */
  gpuMetrics?: GpuMetrics;
  /** The topology label keys in effect (src/model/topology.ts). */
  topologyKeys: readonly string[];
  /** The cluster's context, on every workload, node and orphan pod (null: a dump, no context). */
  cluster: string | null;
  /** A fleet's MultiKueue links of this cluster's workloads (`remote`, `origin`). */
  links?: { context: string; links: FleetLinks };
}

/** A fleet: each member's sources, every cluster's line, the links between them. */
export interface FleetJsonSources {
  members: readonly JsonSources[];
  clusters: readonly ClusterSummary[];
  access: AccessScope;
}

/** `remote` of a MultiKueue job on a manager (where it runs), `tried` while it waits there, `origin` of a worker's copy. */
function multiKueueJson(l: JsonSources['links'], uid: string): Record<string, unknown> {
  if (!l) return {};
  const key = fleetKey(l.context, uid);
  const run = l.links.remote.get(key);
  const tried = l.links.tried.get(key);
  const origin = l.links.origin.get(key);
  return {
    ...(run
      ? {
          remote: {
            cluster: run.cluster,
            worker: run.worker,
            namespace: run.namespace,
            name: run.name,
            status: run.status,
          },
        }
      : // Not dispatched: no `remote` (nothing of it exists yet), the workers it was copied to and their Kueues' word.
        tried
        ? {
            tried: tried.map((x) => ({
              worker: x.worker,
              cluster: x.cluster,
              state: x.state,
              message: x.message,
              ...(x.listing ? { listing: true } : {}),
            })),
          }
        : {}),
    ...(origin
      ? { origin: { cluster: origin.cluster, origin: origin.origin, namespace: origin.namespace, name: origin.name } }
      : {}),
  };
}

/** The `-o json|yaml` contract: workloads with `queue` and gangs' verdicts, nodes, orphan pods, access. */
export function jsonDocument(
  workloads: readonly WorkloadTree[],
  loaded: JsonSources,
  orphanPods: readonly OrphanPod[],
): Record<string, unknown> {
  const metrics = loaded.gpuMetrics;
  // Without node objects there is no topology: spread and splitAcross are null, never 0.
  const topology = loaded.podNodes ? null : topologyIndex(loaded.nodes, loaded.topologyKeys);
  const pod = <P extends PodSummary>(p: P) => {
    const r = podGpuRollup(metrics, p);
    return {
      ...p,
      gpuUtilization: r?.utilisation ?? null,
      gpuMemoryUsedBytes: r?.memoryUsedBytes ?? null,
      gpuResources: p.gpuResources ?? {},
    };
  };
  const gpus = (counts: GpuCounts, g: GroupGpu) => ({ ...counts, utilization: g.utilisation, idle: g.idle });
  const role = (r: RoleTree): Record<string, unknown> => ({
    ...r,
    gpus: gpus(r.gpus, roleGpu(metrics, r)),
    ...roleTopologyJson(r, topology),
    pods: r.pods.map(pod),
    roles: r.roles.map(role),
  });
  const tag = loaded.cluster === undefined ? {} : { cluster: loaded.cluster };
  // No pod readable anywhere: what the nodes' pods request is unknown (null, never 0).
  const blind = podsUnreadable(loaded.access);
  const requests = (n: NodeSummary) =>
    blind
      ? {
          gpuRequested: null,
          pods: null,
          workloads: null,
          gpuResources: Object.fromEntries(
            Object.entries(n.gpuResources ?? {}).map(([k, r]) => [k, { ...r, requested: null }]),
          ),
        }
      : { gpuResources: n.gpuResources ?? {} };
  return {
    workloads: workloads.map((w) => ({
      ...tag,
      ...w,
      ...tag,
      gpus: gpus(w.gpus, workloadGpu(metrics, w)),
      ...workloadTopologyJson(w, topology),
      roles: w.roles.map(role),
      unattributedPods: w.unattributedPods.map(pod),
      gangs: gangsWithVerdicts(w, loaded.scheduling.gangs.get(w.uid)),
      queue: loaded.scheduling.queues.get(w.uid) ?? null,
      ...multiKueueJson(loaded.links, w.uid),
    })),
    // Without node access: the nodes the pods are on, capacity unknown (null, never 0).
    nodes: loaded.podNodes
      ? loaded.podNodes.map((n) => ({
          ...tag,
          ...n,
          ready: null,
          gpuCapacity: null,
          gpuAllocatable: null,
          gpuUtilization: nodeGpuUtilisation(metrics, n),
          gpuModel: null,
          gpuResources: {},
          topology: null,
        }))
      : loaded.nodes.map((n) => ({
          ...tag,
          ...n,
          ...tag,
          gpuUtilization: nodeGpuUtilisation(metrics, n),
          gpuModel: n.gpuModel ?? null,
          ...requests(n),
          topology: nodeTopologyJson(n, loaded.topologyKeys),
        })),
    orphanPods: orphanPods.map((p) => ({ ...tag, ...pod(p), ...tag })),
    access: loaded.access,
  };
}

/**
 * A fleet's document: each member's workloads, nodes and orphan pods (each
 * with its `cluster`) one cluster after the other, and `clusters`: every
 * cluster's line, the dead ones with their state and error.
 */
export function fleetJsonDocument(
  workloads: readonly WorkloadTree[],
  orphanPods: readonly OrphanPod[],
  fleet: FleetJsonSources,
): Record<string, unknown> {
  const parts = fleet.members.map((m) =>
    jsonDocument(
      workloads.filter((w) => w.cluster === m.cluster),
      m,
      orphanPods.filter((p) => p.cluster === m.cluster),
    ),
  );
  return {
    workloads: parts.flatMap((p) => p.workloads as unknown[]),
    nodes: parts.flatMap((p) => p.nodes as unknown[]),
    orphanPods: parts.flatMap((p) => p.orphanPods as unknown[]),
    access: fleetAccess(fleet),
    clusters: fleet.clusters,
  };
}

/**
 * A fleet's `access`: each entry with its cluster (`east: pods`, `east: training`), as a merged list would not
 * say whose it is; `clusterWide` whether every cluster listed cluster-wide, `clusterWideIn` the clusters that did.
 */
function fleetAccess(fleet: FleetJsonSources): Record<string, unknown> {
  const tagged = (of: (a: AccessScope) => readonly string[] | undefined) =>
    fleet.members.flatMap((m) => (of(m.access) ?? []).map((v) => `${m.cluster ?? '-'}: ${v}`));
  const access: Record<string, unknown> = {
    clusterWide: fleet.access.clusterWide,
    clusterWideIn: fleet.members.filter((m) => m.access.clusterWide).map((m) => m.cluster ?? '-'),
    namespaces: tagged((a) => a.namespaces),
    forbidden: tagged((a) => a.forbidden),
  };
  // As in one cluster's document, these only when some cluster has them.
  const optional: [string, string[]][] = [
    ['unreadable', tagged((a) => a.unreadable)],
    ['users', tagged((a) => (a.user ? [a.user] : []))],
    ['readable', tagged((a) => a.readable)],
    ['podsIn', tagged((a) => a.podsIn)],
  ];
  for (const [name, values] of optional) if (values.length) access[name] = values;
  return access;
}
