// Building pods the way the API server stores them after admission: the
// controller's template plus the defaults the apiserver and admission plugins
// fill in (schedulerName, tolerations for not-ready/unreachable, the projected
// service-account volume, priority from the PriorityClass, qosClass), and the
// resource arithmetic the scheduler needs.
import type { StoredObject } from '../store.js';
import type { Random } from './clock.js';
import { ownerRefTo, type ContainerSpec, type Pod, type PodSpec, type PodTemplate, type Quantities } from './types.js';

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
  if (unit in BINARY) return n * BINARY[unit]!;
  if (unit in DECIMAL) return n * DECIMAL[unit]!;
  return n;
}

function containerRequest(c: ContainerSpec, name: string): number {
  // The apiserver defaults a missing request to the limit.
  return parseQuantity(c.resources?.requests?.[name] ?? c.resources?.limits?.[name]);
}

/** Effective requests: max(largest init container, sum of app containers). */
export function podRequests(spec: PodSpec): PodRequests {
  const sum = (name: string): number => spec.containers.reduce((a, c) => a + containerRequest(c, name), 0);
  const initMax = (name: string): number => (spec.initContainers ?? []).reduce((a, c) => Math.max(a, containerRequest(c, name)), 0);
  return {
    cpuMilli: Math.round(Math.max(sum('cpu'), initMax('cpu')) * 1000),
    memoryBytes: Math.max(sum('memory'), initMax('memory')),
    gpu: Math.max(sum('nvidia.com/gpu'), initMax('nvidia.com/gpu')),
  };
}

export function qosClass(spec: PodSpec): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const all = [...spec.containers, ...(spec.initContainers ?? [])];
  const any = all.some((c) => Object.keys(c.resources?.requests ?? {}).length || Object.keys(c.resources?.limits ?? {}).length);
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
  /** Extra env appended to every container (e.g. the training operator's MASTER_ADDR). */
  env?: Array<{ name: string; value: string }>;
}

/** A pod as stored right after creation: phase Pending, not yet scheduled. */
export function buildPod(b: PodBuild, rng: Random): Pod {
  const t = b.template;
  const volumeName = `kube-api-access-${rng.suffix(5)}`;
  const containers = t.spec.containers.map((c) => withContainerDefaults(c, volumeName, b.env));
  const initContainers = t.spec.initContainers?.map((c) => withContainerDefaults(c, volumeName, b.env));
  const priorityClassName = t.spec.priorityClassName;
  const spec: PodSpec = {
    ...t.spec,
    ...(initContainers ? { initContainers } : {}),
    containers,
    restartPolicy: t.spec.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: t.spec.terminationGracePeriodSeconds ?? 30,
    dnsPolicy: (t.spec['dnsPolicy'] as string | undefined) ?? 'ClusterFirst',
    serviceAccountName: (t.spec['serviceAccountName'] as string | undefined) ?? 'default',
    serviceAccount: (t.spec['serviceAccountName'] as string | undefined) ?? 'default',
    securityContext: t.spec['securityContext'] ?? {},
    schedulerName: t.spec.schedulerName ?? 'default-scheduler',
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
    priority: priorityClassName ? (PRIORITY_CLASSES[priorityClassName] ?? 0) : 0,
    tolerations: [
      ...(t.spec.tolerations ?? []),
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
    volumes: [
      ...((t.spec['volumes'] as unknown[] | undefined) ?? []),
      {
        name: volumeName,
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
          ],
        },
      },
    ],
    ...(b.hostname ? { hostname: b.hostname } : {}),
    ...(b.subdomain ? { subdomain: b.subdomain } : {}),
  };
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
      ...(Object.keys({ ...(t.metadata?.annotations ?? {}), ...(b.annotations ?? {}) }).length
        ? { annotations: { ...(t.metadata?.annotations ?? {}), ...(b.annotations ?? {}) } }
        : {}),
      ...(b.owner ? { ownerReferences: [ownerRefTo(b.owner)] } : {}),
      ...(b.finalizers ? { finalizers: b.finalizers } : {}),
    },
    spec,
    status: { phase: 'Pending', qosClass: qosClass(spec) },
  };
}

function withContainerDefaults(c: ContainerSpec, volumeName: string, env: PodBuild['env']): ContainerSpec {
  return {
    ...c,
    ...(env?.length ? { env: [...(c.env ?? []), ...env] } : {}),
    resources: c.resources ?? {},
    imagePullPolicy: (c['imagePullPolicy'] as string | undefined) ?? (c.image.endsWith(':latest') ? 'Always' : 'IfNotPresent'),
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: (c['terminationMessagePolicy'] as string | undefined) ?? 'File',
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
