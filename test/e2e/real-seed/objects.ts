// The seed's building blocks: nodes as their kubelets register them, pods as
// their controllers create them and their kubelets report them, and the
// scheduler's and kubelets' events (test/e2e/real-seed/index.ts).
export type Json = Record<string, unknown>;

export interface SeedObject {
  apiVersion: string;
  kind: string;
  /** The resource (plural) the object is created in. */
  resource: string;
  metadata: Json & { name: string; namespace?: string };
  spec?: Json;
  /** Set through the status subresource after the create (kept in the create body with statusOnCreate). */
  status?: Json;
  /** The kubelet registers its node with the status in the create body. */
  statusOnCreate?: boolean;
  /** A later merge patch of the object (the node lifecycle controller removing the not-ready taint). */
  patch?: Json;
  [field: string]: unknown;
}

/** A placeholder for the uid the server gives `kind` `ns/name`, filled in by applySeed. */
export function uidOf(kind: string, namespace: string | undefined, name: string): string {
  return `@uid:${kind}/${namespace ?? ''}/${name}`;
}

export const NAMESPACES = ['training', 'research', 'inference'];
export const H100 = 'NVIDIA-H100-80GB-HBM3';
export const IMAGE = 'nvcr.io/nvidia/pytorch:24.05-py3';

export interface SeedClock {
  /** ISO time `seconds` after the scenario began (20 minutes before `now`). */
  at(seconds: number): string;
}

export function seedClock(now = Date.now()): SeedClock {
  const t0 = Math.floor(now / 1000) * 1000 - 20 * 60_000;
  return { at: (s) => new Date(t0 + s * 1000).toISOString().replace(/\.\d+Z$/, 'Z') };
}

export function gpuNode(c: SeedClock, name: string, zone: 'a' | 'b', ready = true): SeedObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    resource: 'nodes',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': 'a3-highgpu-8g',
        'topology.kubernetes.io/region': 'us-east1',
        'topology.kubernetes.io/zone': `us-east1-${zone}`,
        'cloud.google.com/gce-topology-block': `block-${zone}`,
        'nvidia.com/gpu.present': 'true',
        'nvidia.com/gpu.product': H100,
        'nvidia.com/gpu.count': '8',
      },
    },
    spec: { podCIDR: `10.244.${hashOf(name)}.0/24` },
    statusOnCreate: true,
    status: nodeStatus(c, name, { cpu: '208', memory: '1871Gi', 'nvidia.com/gpu': '8' }, ready),
    // The node lifecycle controller lifts TaintNodesByCondition's not-ready taint once the node is Ready.
    ...(ready ? { patch: { spec: { taints: null } } } : {}),
  };
}

export function nodeStatus(c: SeedClock, name: string, resources: Record<string, string>, ready: boolean): Json {
  const capacity = { ...resources, pods: '110', 'ephemeral-storage': '1967Gi' };
  return {
    capacity,
    allocatable: { ...capacity, cpu: String(Number(resources.cpu) - 2), memory: '1850Gi' },
    conditions: [
      ...['MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
        type,
        status: 'False',
        lastHeartbeatTime: c.at(1190),
        lastTransitionTime: c.at(0),
        reason: `KubeletHas${type === 'MemoryPressure' ? 'Sufficient' : 'No'}${type.replace('Pressure', '')}${type === 'MemoryPressure' ? '' : 'Pressure'}`,
        message: `kubelet has no ${type}`,
      })),
      ready
        ? {
            type: 'Ready',
            status: 'True',
            lastHeartbeatTime: c.at(1190),
            lastTransitionTime: c.at(10),
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
          }
        : {
            type: 'Ready',
            status: 'False',
            lastHeartbeatTime: c.at(1190),
            lastTransitionTime: c.at(600),
            reason: 'KubeletNotReady',
            message: 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady',
          },
    ],
    addresses: [
      { type: 'InternalIP', address: `10.128.0.${hashOf(name)}` },
      { type: 'Hostname', address: name },
    ],
    nodeInfo: {
      machineID: `m-${name}`,
      systemUUID: `s-${name}`,
      bootID: `b-${name}`,
      kernelVersion: '5.15.0-1057-gcp',
      osImage: 'Ubuntu 22.04.4 LTS',
      containerRuntimeVersion: 'containerd://1.7.13',
      kubeletVersion: 'v1.20.2',
      kubeProxyVersion: 'v1.20.2',
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}

export function ownerRef(apiVersion: string, kind: string, namespace: string, name: string): Json {
  return {
    apiVersion,
    kind,
    name,
    uid: uidOf(kind, namespace, name),
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function container(gpus: number, cpu = '16', memory = '128Gi'): Json {
  return {
    name: 'main',
    image: IMAGE,
    resources: {
      requests: { cpu, memory, ...(gpus ? { 'nvidia.com/gpu': String(gpus) } : {}) },
      limits: { cpu, memory, ...(gpus ? { 'nvidia.com/gpu': String(gpus) } : {}) },
    },
  };
}

export interface PodPlan {
  namespace: string;
  name: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  owner?: Json;
  gpus: number;
  /** The scheduler's binding; none: Unschedulable. */
  node?: string;
  /** Seconds after the scenario began: created, then started 60 s later. */
  created: number;
  restartPolicy?: string;
  hostname?: string;
  subdomain?: string;
}

/** A stable small number per name (pod IPs). */
export function hashOf(name: string): number {
  let h = 7;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) % 251;
  return h + 2;
}

export function pod(c: SeedClock, p: PodPlan): SeedObject {
  const started = p.created + 60;
  const ip = p.node ? `10.244.${hashOf(p.node)}.${hashOf(p.name)}` : '';
  const status: Json = p.node
    ? {
        phase: 'Running',
        conditions: [
          { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: c.at(p.created + 2) },
          { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: c.at(started + 5) },
          { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: c.at(started + 5) },
          { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: c.at(p.created + 1) },
        ],
        hostIP: `10.128.0.${hashOf(p.node)}`,
        podIP: ip,
        podIPs: [{ ip }],
        startTime: c.at(p.created + 1),
        containerStatuses: [
          {
            name: 'main',
            state: { running: { startedAt: c.at(started) } },
            lastState: {},
            ready: true,
            restartCount: 0,
            image: IMAGE,
            imageID: `${IMAGE.replace(/:.*/, '')}@sha256:${'4f'.repeat(32)}`,
            containerID: `containerd://${'a1'.repeat(32)}`,
            started: true,
          },
        ],
        qosClass: 'Guaranteed',
      }
    : {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            lastProbeTime: null,
            lastTransitionTime: c.at(p.created + 1),
            reason: 'Unschedulable',
            message: UNSCHEDULABLE,
          },
        ],
        qosClass: 'Guaranteed',
      };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    resource: 'pods',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      labels: p.labels,
      ...(p.annotations ? { annotations: p.annotations } : {}),
      ...(p.owner ? { ownerReferences: [p.owner] } : {}),
    },
    spec: {
      containers: [container(p.gpus)],
      restartPolicy: p.restartPolicy ?? 'Always',
      ...(p.hostname ? { hostname: p.hostname, subdomain: p.subdomain } : {}),
      ...(p.node ? { nodeName: p.node } : {}),
    },
    status,
  };
}

export const UNSCHEDULABLE =
  "0/7 nodes are available: 1 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate, 6 Insufficient nvidia.com/gpu.";

interface EventPlan {
  namespace: string;
  kind: string;
  apiVersion: string;
  name: string;
  reason: string;
  message: string;
  type?: 'Normal' | 'Warning';
  component: string;
  host?: string;
  at: number;
  count?: number;
  last?: number;
}

function event(c: SeedClock, e: EventPlan, i: number): SeedObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    resource: 'events',
    metadata: { name: `${e.name}.${(0x17a3c0de + i * 7919).toString(16)}`, namespace: e.namespace },
    involvedObject: {
      kind: e.kind,
      namespace: e.namespace,
      name: e.name,
      uid: uidOf(e.kind, e.namespace, e.name),
      apiVersion: e.apiVersion,
    },
    reason: e.reason,
    message: e.message,
    source: { component: e.component, ...(e.host ? { host: e.host } : {}) },
    firstTimestamp: c.at(e.at),
    lastTimestamp: c.at(e.last ?? e.at),
    count: e.count ?? 1,
    type: e.type ?? 'Normal',
    reportingComponent: '',
    reportingInstance: '',
  };
}

/** The scheduler's and kubelets' events of the pods that started, the unschedulable pod's, Kueue's. */
export function events(c: SeedClock, objects: SeedObject[]): SeedObject[] {
  const plans: EventPlan[] = [];
  for (const o of objects) {
    if (o.kind !== 'Pod') continue;
    const ns = o.metadata.namespace!;
    const name = o.metadata.name;
    const node = (o.spec as { nodeName?: string }).nodeName;
    const started = Date.parse((o.status as { startTime?: string }).startTime ?? '') || 0;
    const base = { namespace: ns, kind: 'Pod', apiVersion: 'v1', name };
    if (!node) {
      plans.push({
        ...base,
        reason: 'FailedScheduling',
        message: UNSCHEDULABLE,
        type: 'Warning',
        component: 'default-scheduler',
        at: 32,
        last: 1150,
        count: 14,
      });
      continue;
    }
    const s = (started - Date.parse(c.at(0))) / 1000;
    const image = (o.spec as { containers: Array<{ image: string }> }).containers[0].image;
    plans.push(
      {
        ...base,
        reason: 'Scheduled',
        message: `Successfully assigned ${ns}/${name} to ${node}`,
        component: 'default-scheduler',
        at: s,
      },
      { ...base, reason: 'Pulling', message: `Pulling image "${image}"`, component: 'kubelet', host: node, at: s + 1 },
      {
        ...base,
        reason: 'Pulled',
        message: `Successfully pulled image "${image}" in 41.2s`,
        component: 'kubelet',
        host: node,
        at: s + 42,
      },
      { ...base, reason: 'Created', message: 'Created container main', component: 'kubelet', host: node, at: s + 55 },
      { ...base, reason: 'Started', message: 'Started container main', component: 'kubelet', host: node, at: s + 59 },
    );
  }
  plans.push({
    namespace: 'training',
    kind: 'PyTorchJob',
    apiVersion: 'kubeflow.org/v1',
    name: 'gpt-eval',
    reason: 'Pending',
    message:
      "couldn't assign flavors to pod set master: insufficient unused quota for nvidia.com/gpu in flavor h100, 4 more needed",
    component: 'kueue-admission',
    at: 901,
  });
  return plans.map((p, i) => event(c, p, i));
}
