// Building pods the way the API server stores them after admission: the
// controller's template plus the defaults the apiserver and admission plugins
// fill in (schedulerName, tolerations for not-ready/unreachable, the projected
// service-account volume, priority from the PriorityClass, qosClass), and the
// resource arithmetic the scheduler needs.
import type { StoredObject } from '../object-store.js';
import type { Random } from './clock.js';
import {
  ownerRefTo,
  type Condition,
  type ContainerSpec,
  type Pod,
  type PodSpec,
  type PodStatus,
  type PodTemplate,
  type Quantities,
} from './types.js';

/** PriorityClasses the simulated cluster knows (the Priority admission plugin's table). */
export const PRIORITY_CLASSES: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
  'high-priority': 1000,
  preemptible: -10,
};

export interface PodRequests {
  cpuMilli: number;
  memoryBytes: number;
  gpu: number;
}

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50 };
const DECIMAL: Record<string, number> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15 };

/** A resource.Quantity string as a number in base units ("500m" → 0.5, "64Gi" → 68719476736). */
export function parseQuantity(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === 'number') return q;
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(q.trim());
  if (!m) return 0;
  const n = Number(m[1]);
  const unit = m[2] ?? '';
  if (!unit) return n;
  if (unit in BINARY) return n * BINARY[unit];
  if (unit in DECIMAL) return n * DECIMAL[unit];
  return n;
}

/** Parsed requests per container `resources` object (shared by every pod of a template). */
const parsedResources = new WeakMap<object, { cpu: number; memory: number; gpu: number }>();

function containerRequests(c: ContainerSpec): { cpu: number; memory: number; gpu: number } {
  const res = c.resources;
  if (!res) return { cpu: 0, memory: 0, gpu: 0 };
  let parsed = parsedResources.get(res);
  if (!parsed) {
    // The apiserver defaults a missing request to the limit.
    const q = (name: string): number => parseQuantity(res.requests?.[name] ?? res.limits?.[name]);
    parsed = { cpu: q('cpu'), memory: q('memory'), gpu: q('nvidia.com/gpu') };
    parsedResources.set(res, parsed);
  }
  return parsed;
}

/** Effective requests: max(largest init container, sum of app containers). */
export function podRequests(spec: PodSpec): PodRequests {
  let cpu = 0;
  let memory = 0;
  let gpu = 0;
  for (const c of spec.containers) {
    const r = containerRequests(c);
    cpu += r.cpu;
    memory += r.memory;
    gpu += r.gpu;
  }
  for (const c of spec.initContainers ?? []) {
    const r = containerRequests(c);
    cpu = Math.max(cpu, r.cpu);
    memory = Math.max(memory, r.memory);
    gpu = Math.max(gpu, r.gpu);
  }
  return { cpuMilli: Math.round(cpu * 1000), memoryBytes: memory, gpu };
}

export function qosClass(spec: PodSpec): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const all = [...spec.containers, ...(spec.initContainers ?? [])];
  const any = all.some(
    (c) => Object.keys(c.resources?.requests ?? {}).length || Object.keys(c.resources?.limits ?? {}).length,
  );
  if (!any) return 'BestEffort';
  const guaranteed = all.every((c) => {
    const req: Quantities = { ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) };
    const lim = c.resources?.limits ?? {};
    return ['cpu', 'memory'].every((r) => lim[r] !== undefined && parseQuantity(req[r]) === parseQuantity(lim[r]));
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export interface PodBuild {
  namespace: string;
  name: string;
  generateName?: string;
  template: PodTemplate;
  owner?: StoredObject;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  hostname?: string;
  subdomain?: string;
  /** Overrides the template's restartPolicy (the training operator's replica restartPolicy). */
  restartPolicy?: PodSpec['restartPolicy'];
  /** Extra env appended to every container (e.g. the training operator's MASTER_ADDR). */
  env?: Array<{ name: string; value: string }>;
}

interface SharedParts {
  spec: PodSpec;
  containers: ContainerSpec[];
  qosClass: string;
}

/** Per pod-spec parts reused by every pod built from it when sharing is on. */
const sharedBySpec = new WeakMap<PodSpec, SharedParts>();

/**
 * A pod as stored right after creation: phase Pending, not yet scheduled.
 * With `share` (the scale scenario), pods built from the same template spec
 * reuse one copy of the defaulted spec parts (volumes, tolerations, container
 * defaults); nothing in the simulation mutates stored objects in place.
 */
export function buildPod(b: PodBuild, rng: Random, share = false): Pod {
  const t = b.template;
  let parts = share ? sharedBySpec.get(t.spec) : undefined;
  if (!parts) {
    parts = specParts(t.spec, `kube-api-access-${rng.suffix(5)}`);
    if (share) sharedBySpec.set(t.spec, parts);
  }
  const env = b.env;
  const containers = env?.length
    ? parts.containers.map((c) => ({ ...c, env: [...(c.env ?? []), ...env] }))
    : parts.containers;
  const spec: PodSpec = {
    ...parts.spec,
    containers,
    ...(b.restartPolicy ? { restartPolicy: b.restartPolicy } : {}),
    ...(b.hostname ? { hostname: b.hostname } : {}),
    ...(b.subdomain ? { subdomain: b.subdomain } : {}),
  };
  const annotations =
    t.metadata?.annotations || b.annotations
      ? { ...(t.metadata?.annotations ?? {}), ...(b.annotations ?? {}) }
      : undefined;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: b.name,
      ...(b.generateName ? { generateName: b.generateName } : {}),
      namespace: b.namespace,
      uid: rng.uid(),
      resourceVersion: '',
      creationTimestamp: '',
      labels: { ...(t.metadata?.labels ?? {}), ...(b.labels ?? {}) },
      ...(annotations && Object.keys(annotations).length ? { annotations } : {}),
      ...(b.owner ? { ownerReferences: [ownerRefTo(b.owner)] } : {}),
      ...(b.finalizers ? { finalizers: b.finalizers } : {}),
    },
    spec,
    status: { phase: 'Pending', qosClass: parts.qosClass },
  };
}

/** The apiserver's and admission plugins' defaults for a template spec. */
function specParts(tspec: PodSpec, volumeName: string): SharedParts {
  const containers = tspec.containers.map((c) => withContainerDefaults(c, volumeName));
  const initContainers = tspec.initContainers?.map((c) => withContainerDefaults(c, volumeName));
  const priorityClassName = tspec.priorityClassName;
  const spec: PodSpec = {
    ...tspec,
    ...(initContainers ? { initContainers } : {}),
    containers,
    restartPolicy: tspec.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: tspec.terminationGracePeriodSeconds ?? 30,
    dnsPolicy: tspec['dnsPolicy'] ?? 'ClusterFirst',
    serviceAccountName: tspec['serviceAccountName'] ?? 'default',
    serviceAccount: tspec['serviceAccountName'] ?? 'default',
    securityContext: tspec['securityContext'] ?? {},
    schedulerName: tspec.schedulerName ?? 'default-scheduler',
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
    priority: priorityClassName ? (PRIORITY_CLASSES[priorityClassName] ?? 0) : 0,
    tolerations: [
      ...(tspec.tolerations ?? []),
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
    volumes: [
      ...((tspec['volumes'] as unknown[] | undefined) ?? []),
      {
        name: volumeName,
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
              },
            },
          ],
        },
      },
    ],
  };
  return { spec, containers, qosClass: qosClass(spec) };
}

function withContainerDefaults(c: ContainerSpec, volumeName: string): ContainerSpec {
  return {
    ...c,
    resources: c.resources ?? {},
    imagePullPolicy: c['imagePullPolicy'] ?? (c.image.endsWith(':latest') ? 'Always' : 'IfNotPresent'),
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: c['terminationMessagePolicy'] ?? 'File',
    volumeMounts: [
      ...((c['volumeMounts'] as unknown[] | undefined) ?? []),
      { name: volumeName, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
    ],
  };
}

/** Toleration semantics of the TaintToleration plugin. */
export function tolerates(spec: PodSpec, taint: { key: string; value?: string; effect: string }): boolean {
  return (spec.tolerations ?? []).some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

/** The conditions of a pod running and ready since `at`, in the kubelet's order. */
export function readyConditions(at: string): Condition[] {
  return ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
    type,
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: at,
  }));
}

/** Where and how a settled pod runs: its addresses and how its images and containers are named. */
export interface RunningPlace {
  at: string;
  hostIP: string;
  podIP: string;
  /** The QoS class when admission set none. */
  qosClass: string;
  /** Shared between pods when given (the scale scenario's 100,000 pods), else readyConditions(at). */
  conditions?: Condition[];
  imageID: (image: string) => string;
  containerID: () => string;
}

/**
 * The status the kubelet leaves a pod in once it has run for a while: Running and Ready since `at`, every
 * container started and never restarted (scenario objects that predate the simulation). Per container the
 * image id is named before the container id, so a PRNG behind both is drawn in that order.
 */
export function runningPodStatus(pod: Pod, p: RunningPlace): PodStatus {
  return {
    phase: 'Running',
    conditions: p.conditions ?? readyConditions(p.at),
    hostIP: p.hostIP,
    hostIPs: [{ ip: p.hostIP }],
    podIP: p.podIP,
    podIPs: [{ ip: p.podIP }],
    startTime: p.at,
    qosClass: pod.status.qosClass ?? p.qosClass,
    containerStatuses: pod.spec.containers.map((c) => ({
      name: c.name,
      state: { running: { startedAt: p.at } },
      lastState: {},
      ready: true,
      restartCount: 0,
      image: c.image,
      imageID: p.imageID(c.image),
      containerID: p.containerID(),
      started: true,
    })),
  };
}
