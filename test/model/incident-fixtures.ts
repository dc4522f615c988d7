// Plain objects for the why/timeline tests: pods, events, nodes and a tree.
import type { KubeObject, NodeSummary, PodSummary, WorkloadTree } from '../../src/model/types.js';

export const T0 = Date.parse('2026-01-01T10:00:00Z');
export const at = (s: number) => new Date(T0 + s * 1000).toISOString();

export function pod(
  name: string,
  opts: {
    node?: string;
    gpus?: number;
    conditions?: object[];
    containerStatuses?: object[];
    phase?: string;
    created?: number;
    owner?: { kind: string; name: string; uid: string };
  } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      creationTimestamp: at(opts.created ?? 0),
      ...(opts.owner ? { ownerReferences: [{ apiVersion: 'batch/v1', controller: true, ...opts.owner }] } : {}),
    },
    spec: {
      ...(opts.node ? { nodeName: opts.node } : {}),
      containers: [
        {
          name: 'main',
          image: 'img:1',
          resources: {
            requests: { 'nvidia.com/gpu': String(opts.gpus ?? 8) },
            limits: { 'nvidia.com/gpu': String(opts.gpus ?? 8) },
          },
        },
      ],
    },
    status: {
      phase: opts.phase ?? (opts.node ? 'Running' : 'Pending'),
      conditions: opts.conditions ?? [],
      containerStatuses: opts.containerStatuses ?? [],
    },
  };
}

export function event(
  podName: string,
  reason: string,
  message: string,
  s: number,
  type = 'Normal',
  count = 1,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${podName}.${reason}.${s}`, namespace: 'ns', uid: `ev-${podName}-${reason}-${s}` },
    involvedObject: { kind: 'Pod', namespace: 'ns', name: podName, uid: `uid-${podName}` },
    reason,
    message,
    type,
    count,
    firstTimestamp: at(s),
    lastTimestamp: at(s),
  };
}

export function summary(p: KubeObject, ready: boolean): PodSummary {
  const node = (p.spec as { nodeName?: string }).nodeName ?? null;
  return {
    namespace: 'ns',
    name: p.metadata.name,
    uid: p.metadata.uid,
    status: node ? 'Running' : 'Pending',
    phase: node ? 'Running' : 'Pending',
    ready,
    node,
    gpus: 8,
    restarts: 0,
    reason: node ? null : 'Unschedulable',
    readyContainers: ready ? '1/1' : '0/1',
    message: null,
    createdAt: p.metadata.creationTimestamp ?? null,
  };
}

export function node(name: string, free: number, extra: Partial<NodeSummary> = {}): NodeSummary {
  return {
    name,
    ready: true,
    gpuCapacity: 8,
    gpuAllocatable: 8,
    gpuRequested: 8 - free,
    pods: 1,
    unschedulable: false,
    conditions: [{ type: 'Ready', status: 'True' }],
    taints: [],
    labels: {},
    createdAt: null,
    workloads: [],
    ...extra,
  };
}

export function tree(
  name: string,
  roles: Array<{ component: string; desired: number; pods: PodSummary[] }>,
  extra: Partial<WorkloadTree> = {},
): WorkloadTree {
  const all = roles.flatMap((r) => r.pods);
  return {
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    namespace: 'ns',
    name,
    uid: `uid-${name}`,
    definition: 'jobset',
    definitionSource: 'builtin',
    status: ['Initializing'],
    replicas: {
      desired: roles.reduce((s, r) => s + r.desired, 0),
      current: all.length,
      ready: all.filter((p) => p.ready).length,
    },
    gpus: { desired: 0, requested: 0, allocated: 0 },
    roles: roles.map((r) => ({
      component: r.component,
      instance: null,
      replica: null,
      replicas: { desired: r.desired, current: r.pods.length, ready: r.pods.filter((p) => p.ready).length },
      gpus: { desired: 0, requested: 0, allocated: 0 },
      nodes: [],
      pods: r.pods,
      roles: [],
    })),
    unattributedPods: [],
    gangs: [],
    createdAt: at(0),
    statusMessage: null,
    errors: [],
    ...extra,
  };
}

export const FIT_ERROR =
  "0/14 nodes are available: 12 Insufficient nvidia.com/gpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/14 nodes are available: 12 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.";

export const unschedulableCond = {
  type: 'PodScheduled',
  status: 'False',
  reason: 'Unschedulable',
  message: FIT_ERROR,
  lastTransitionTime: at(1),
};
export const readyPodConds = (sched: number, ready: number) => [
  { type: 'PodScheduled', status: 'True', lastTransitionTime: at(sched) },
  { type: 'Ready', status: 'True', lastTransitionTime: at(ready) },
];
