// The slices of Kubernetes object shapes the simulation reads and writes. The
// store holds plain JSON; these interfaces only name what the controllers,
// scheduler and kubelet touch, and leave the rest open.
import type { StoredObject } from '../object-store.js';
import { resourceKey } from '../object-store.js';

export type Quantities = Record<string, string>;

export interface ContainerSpec {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number; protocol?: string }>;
  env?: Array<{ name: string; value?: string; valueFrom?: unknown }>;
  resources?: { requests?: Quantities; limits?: Quantities };
  [k: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface PodSpec {
  containers: ContainerSpec[];
  initContainers?: ContainerSpec[];
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  schedulerName?: string;
  priority?: number;
  priorityClassName?: string;
  terminationGracePeriodSeconds?: number;
  readinessGates?: Array<{ conditionType: string }>;
  [k: string]: unknown;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastProbeTime?: string | null;
  lastHeartbeatTime?: string;
  lastUpdateTime?: string;
  observedGeneration?: number;
}

export interface ContainerState {
  waiting?: { reason: string; message?: string };
  running?: { startedAt: string };
  terminated?: {
    exitCode: number;
    reason: string;
    message?: string;
    startedAt: string;
    finishedAt: string;
    containerID?: string;
    signal?: number;
  };
}

export interface ContainerStatus {
  name: string;
  state: ContainerState;
  lastState: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started: boolean;
  volumeMounts?: unknown[];
  resources?: unknown;
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: Condition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: Array<{ ip: string }>;
  podIP?: string;
  podIPs?: Array<{ ip: string }>;
  startTime?: string;
  qosClass?: string;
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
}

export interface Pod extends StoredObject {
  spec: PodSpec;
  status: PodStatus;
}

export interface NodeObject extends StoredObject {
  spec: {
    unschedulable?: boolean;
    taints?: Array<{ key: string; value?: string; effect: string }>;
    providerID?: string;
    podCIDR?: string;
  };
  status: {
    capacity: Quantities;
    allocatable: Quantities;
    conditions: Condition[];
    addresses: Array<{ type: string; address: string }>;
    nodeInfo: Record<string, string>;
    [k: string]: unknown;
  };
}

export type OwnerReference = NonNullable<StoredObject['metadata']['ownerReferences']>[number];

/** Resource keys of every kind the simulation writes (see demo/object-store.ts). */
export const R = {
  pods: resourceKey('', 'v1', 'pods'),
  nodes: resourceKey('', 'v1', 'nodes'),
  events: resourceKey('', 'v1', 'events'),
  namespaces: resourceKey('', 'v1', 'namespaces'),
  jobs: resourceKey('batch', 'v1', 'jobs'),
  statefulsets: resourceKey('apps', 'v1', 'statefulsets'),
  jobsets: resourceKey('jobset.x-k8s.io', 'v1alpha2', 'jobsets'),
  pytorchjobs: resourceKey('kubeflow.org', 'v1', 'pytorchjobs'),
  tfjobs: resourceKey('kubeflow.org', 'v1', 'tfjobs'),
  leaderworkersets: resourceKey('leaderworkerset.x-k8s.io', 'v1', 'leaderworkersets'),
  rayclusters: resourceKey('ray.io', 'v1', 'rayclusters'),
  kartas: resourceKey('run.ai', 'v1alpha1', 'kartas'),
  resourceflavors: resourceKey('kueue.x-k8s.io', 'v1beta2', 'resourceflavors'),
  clusterqueues: resourceKey('kueue.x-k8s.io', 'v1beta2', 'clusterqueues'),
  localqueues: resourceKey('kueue.x-k8s.io', 'v1beta2', 'localqueues'),
  workloads: resourceKey('kueue.x-k8s.io', 'v1beta2', 'workloads'),
  admissionchecks: resourceKey('kueue.x-k8s.io', 'v1beta2', 'admissionchecks'),
  multikueueconfigs: resourceKey('kueue.x-k8s.io', 'v1beta2', 'multikueueconfigs'),
  multikueueclusters: resourceKey('kueue.x-k8s.io', 'v1beta2', 'multikueueclusters'),
  podgroups: resourceKey('scheduling.run.ai', 'v2alpha2', 'podgroups'),
  kaiqueues: resourceKey('scheduling.run.ai', 'v2', 'queues'),
} as const;

/** apiVersion + kind → resource key, for following ownerReferences. */
export const KEY_BY_KIND: Record<string, string> = {
  'v1/Pod': R.pods,
  'batch/v1/Job': R.jobs,
  'apps/v1/StatefulSet': R.statefulsets,
  'jobset.x-k8s.io/v1alpha2/JobSet': R.jobsets,
  'kubeflow.org/v1/PyTorchJob': R.pytorchjobs,
  'kubeflow.org/v1/TFJob': R.tfjobs,
  'leaderworkerset.x-k8s.io/v1/LeaderWorkerSet': R.leaderworkersets,
  'ray.io/v1/RayCluster': R.rayclusters,
};

export function controllerRef(obj: StoredObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller);
}

/** The ownerReference a controller puts on what it creates. */
export function ownerRefTo(owner: StoredObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function isPodTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function podKey(pod: { metadata: { namespace?: string; name: string } }): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name}`;
}
