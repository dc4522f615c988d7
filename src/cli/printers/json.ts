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
} from '../../model/types.js';
import type { PodNode } from '../../model/pod-nodes.js';
import { nodeGpuUtilisation, podGpuRollup, roleGpu, workloadGpu, type GroupGpu } from '../../model/gpu-overlay.js';
import { gangsWithVerdicts } from '../../model/scheduling/gangs.js';
import type { SchedulingView } from '../../model/scheduling/index.js';
import { nodeTopologyJson, roleTopologyJson, topologyIndex, workloadTopologyJson } from '../../model/topology.js';

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
  return {
    workloads: workloads.map((w) => ({
      ...w,
      gpus: gpus(w.gpus, workloadGpu(metrics, w)),
      ...workloadTopologyJson(w, topology),
      roles: w.roles.map(role),
      unattributedPods: w.unattributedPods.map(pod),
      gangs: gangsWithVerdicts(w, loaded.scheduling.gangs.get(w.uid)),
      queue: loaded.scheduling.queues.get(w.uid) ?? null,
    })),
    // Without node access: the nodes the pods are on, capacity unknown (null, never 0).
    nodes: loaded.podNodes
      ? loaded.podNodes.map((n) => ({
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
          ...n,
          gpuUtilization: nodeGpuUtilisation(metrics, n),
          gpuModel: n.gpuModel ?? null,
          gpuResources: n.gpuResources ?? {},
          topology: nodeTopologyJson(n, loaded.topologyKeys),
        })),
    orphanPods: orphanPods.map(pod),
    access: loaded.access,
  };
}
