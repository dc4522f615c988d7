// Small hand-made cluster contents for the API server's tests: two nodes, two
// namespaces, pods in several kubectl states, a Job, a JobSet, events, and a
// log provider whose lines the test controls.
import { resourceKey, type ObjectStore, type StoredObject } from '../../demo/object-store.js';
import type { LogLine, LogProvider } from '../../demo/server/logs.js';

export const PODS = resourceKey('', 'v1', 'pods');
export const NODES = resourceKey('', 'v1', 'nodes');
export const EVENTS = resourceKey('', 'v1', 'events');
export const NAMESPACES = resourceKey('', 'v1', 'namespaces');
export const JOBS = resourceKey('batch', 'v1', 'jobs');
export const JOBSETS = resourceKey('jobset.x-k8s.io', 'v1alpha2', 'jobsets');

function meta(name: string, namespace?: string, labels?: Record<string, string>): StoredObject['metadata'] {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    uid: '',
    resourceVersion: '',
    creationTimestamp: '',
    ...(labels ? { labels } : {}),
  };
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');

export function node(
  name: string,
  opts: { ready?: boolean; unschedulable?: boolean; gpu?: boolean } = {},
): StoredObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: meta(name, undefined, {
      'kubernetes.io/hostname': name,
      ...(opts.gpu ? { 'node-role.kubernetes.io/gpu': '', 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3' } : {}),
    }),
    spec: opts.unschedulable ? { unschedulable: true } : {},
    status: {
      conditions: [
        {
          type: 'Ready',
          status: opts.ready === false ? 'False' : 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
        },
      ],
      addresses: [
        { type: 'InternalIP', address: `10.0.0.${name.length}` },
        { type: 'Hostname', address: name },
      ],
      capacity: { cpu: '96', memory: '1056000Mi', 'nvidia.com/gpu': '8', pods: '110' },
      allocatable: { cpu: '95', memory: '1050000Mi', 'nvidia.com/gpu': '8', pods: '110' },
      nodeInfo: {
        kubeletVersion: 'v1.32.0',
        osImage: 'Ubuntu 22.04.4 LTS',
        kernelVersion: '5.15.0-119-generic',
        containerRuntimeVersion: 'containerd://1.7.20',
        architecture: 'amd64',
        operatingSystem: 'linux',
        machineID: 'm',
        systemUUID: 's',
        bootID: 'b',
      },
    },
  };
}

export function namespace(name: string): StoredObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: meta(name, undefined, { 'kubernetes.io/metadata.name': name }),
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

export type PodState = 'running' | 'pending' | 'creating' | 'crashloop' | 'completed' | 'oomkilled' | 'init';

export function pod(
  name: string,
  ns: string,
  state: PodState,
  opts: { node?: string; labels?: Record<string, string>; containers?: string[] } = {},
): StoredObject {
  const containers = (opts.containers ?? ['main']).map((c) => ({
    name: c,
    image: 'nvcr.io/nvidia/pytorch:24.05-py3',
    resources: { limits: { 'nvidia.com/gpu': '8' } },
  }));
  const nodeName = state === 'pending' ? undefined : (opts.node ?? 'gpu-node-1');
  const cs = (c: { name: string }, st: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name: c.name,
    image: 'nvcr.io/nvidia/pytorch:24.05-py3',
    imageID: '',
    ready: 'running' in st,
    restartCount: 0,
    started: 'running' in st,
    state: st,
    ...extra,
  });
  let status: Record<string, unknown>;
  const spec: Record<string, unknown> = { containers, restartPolicy: 'Never', ...(nodeName ? { nodeName } : {}) };
  switch (state) {
    case 'running':
      status = {
        phase: 'Running',
        podIP: '10.244.1.7',
        podIPs: [{ ip: '10.244.1.7' }],
        startTime: minutesAgo(5),
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'PodScheduled', status: 'True' },
        ],
        containerStatuses: containers.map((c) => cs(c, { running: { startedAt: minutesAgo(4) } })),
      };
      break;
    case 'pending':
      status = {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.',
          },
        ],
      };
      break;
    case 'creating':
      status = {
        phase: 'Pending',
        containerStatuses: containers.map((c) => cs(c, { waiting: { reason: 'ContainerCreating' } })),
      };
      break;
    case 'crashloop':
      status = {
        phase: 'Running',
        podIP: '10.244.1.8',
        containerStatuses: containers.map((c) =>
          cs(
            c,
            { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
            { restartCount: 3, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: minutesAgo(2) } } },
          ),
        ),
      };
      break;
    case 'completed':
      status = {
        phase: 'Succeeded',
        containerStatuses: containers.map((c) => cs(c, { terminated: { exitCode: 0, reason: 'Completed' } })),
      };
      break;
    case 'oomkilled':
      status = {
        phase: 'Failed',
        containerStatuses: containers.map((c) => cs(c, { terminated: { exitCode: 137, reason: 'OOMKilled' } })),
      };
      break;
    case 'init':
      spec.initContainers = [{ name: 'fetch-model', image: 'busybox' }];
      status = {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'fetch-model', ready: false, restartCount: 0, state: { running: { startedAt: minutesAgo(1) } } },
        ],
        containerStatuses: containers.map((c) => cs(c, { waiting: { reason: 'PodInitializing' } })),
      };
      break;
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(name, ns, opts.labels ?? { app: name.replace(/-\d+$/, '') }),
    spec,
    status,
  };
}

export function job(name: string, ns: string): StoredObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta(name, ns, { 'jobset.sigs.k8s.io/jobset-name': 'trainer' }),
    spec: {
      completions: 2,
      parallelism: 2,
      completionMode: 'Indexed',
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'abc' } },
      template: { spec: { containers: [{ name: 'main', image: 'nvcr.io/nvidia/pytorch:24.05-py3' }] } },
    },
    status: { active: 2, succeeded: 0, startTime: minutesAgo(7), ready: 2 },
  };
}

export function jobset(name: string, ns: string): StoredObject {
  return {
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    metadata: meta(name, ns),
    spec: { suspend: false, replicatedJobs: [{ name: 'workers', replicas: 1, template: { spec: {} } }] },
    status: {
      restarts: 0,
      conditions: [{ type: 'Completed', status: 'False' }],
      replicatedJobsStatus: [{ name: 'workers', ready: 1, succeeded: 0, failed: 0, active: 1, suspended: 0 }],
    },
  };
}

export function event(
  name: string,
  ns: string,
  involved: StoredObject,
  reason: string,
  message: string,
  type = 'Normal',
): StoredObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta(name, ns),
    involvedObject: {
      kind: involved.kind,
      namespace: involved.metadata.namespace,
      name: involved.metadata.name,
      uid: involved.metadata.uid,
      apiVersion: involved.apiVersion,
    },
    reason,
    message,
    type,
    count: 1,
    source: { component: reason === 'Scheduled' ? 'default-scheduler' : 'kubelet', host: 'gpu-node-1' },
    firstTimestamp: minutesAgo(3),
    lastTimestamp: minutesAgo(3),
  };
}

/** Fills a store with the fixture cluster; returns the objects by name. */
export function populate(store: ObjectStore): Record<string, StoredObject> {
  const out: Record<string, StoredObject> = {};
  const put = (key: string, o: StoredObject) => (out[o.metadata.name] = store.put(key, o));
  put(NAMESPACES, namespace('default'));
  put(NAMESPACES, namespace('team-a'));
  put(NODES, node('gpu-node-1', { gpu: true }));
  put(NODES, node('gpu-node-2', { gpu: true, unschedulable: true }));
  put(PODS, pod('trainer-0', 'team-a', 'running', { labels: { app: 'trainer', role: 'worker' } }));
  put(PODS, pod('trainer-1', 'team-a', 'crashloop', { labels: { app: 'trainer', role: 'worker' } }));
  put(PODS, pod('trainer-2', 'team-a', 'pending', { labels: { app: 'trainer', role: 'launcher' } }));
  put(
    PODS,
    pod('infer-0', 'default', 'running', {
      labels: { app: 'infer' },
      containers: ['server', 'sidecar'],
      node: 'gpu-node-2',
    }),
  );
  put(PODS, pod('done-0', 'default', 'completed', { labels: { app: 'batch' } }));
  put(PODS, pod('oom-0', 'default', 'oomkilled', { labels: { app: 'batch' } }));
  put(PODS, pod('init-0', 'default', 'init', { labels: { app: 'init' } }));
  put(PODS, pod('creating-0', 'default', 'creating', { labels: { app: 'creating' } }));
  put(JOBS, job('trainer-workers-0', 'team-a'));
  put(JOBSETS, jobset('trainer', 'team-a'));
  put(
    EVENTS,
    event(
      'trainer-0.1',
      'team-a',
      out['trainer-0'],
      'Scheduled',
      'Successfully assigned team-a/trainer-0 to gpu-node-1',
    ),
  );
  put(EVENTS, event('trainer-0.2', 'team-a', out['trainer-0'], 'Started', 'Started container main'));
  put(
    EVENTS,
    event('gpu-node-1.1', 'default', out['gpu-node-1'], 'NodeReady', 'Node gpu-node-1 status is now: NodeReady'),
  );
  return out;
}

/** Logs the test writes: `append` adds a line and notifies followers. */
export class FixtureLogs implements LogProvider {
  private readonly current = new Map<string, LogLine[]>();
  private readonly previous = new Map<string, LogLine[]>();
  private readonly followers = new Map<string, Set<(l: LogLine) => void>>();

  constructor(private readonly store: ObjectStore) {}

  private key(ns: string, pod: string, container: string | undefined): string {
    return `${ns}/${pod}/${container ?? ''}`;
  }

  append(ns: string, pod: string, container: string, text: string, previous = false): void {
    const line = { time: new Date().toISOString(), text };
    const k = this.key(ns, pod, container);
    const map = previous ? this.previous : this.current;
    map.set(k, [...(map.get(k) ?? []), line]);
    if (!previous) for (const f of this.followers.get(k) ?? []) f(line);
  }

  read(
    ns: string,
    pod: string,
    container: string | undefined,
    previous: boolean,
  ): { lines: LogLine[] } | { error: string; code: number } {
    if (!this.store.get(PODS, ns, pod)) return { error: `pods "${pod}" not found`, code: 404 };
    const lines = (previous ? this.previous : this.current).get(this.key(ns, pod, container));
    if (!lines) {
      return previous
        ? { error: `previous terminated container "${container}" in pod "${pod}" not found`, code: 400 }
        : { error: `container "${container}" in pod "${pod}" is waiting to start: ContainerCreating`, code: 400 };
    }
    return { lines: [...lines] };
  }

  follow(ns: string, pod: string, container: string | undefined, onLine: (l: LogLine) => void): () => void {
    const k = this.key(ns, pod, container);
    let set = this.followers.get(k);
    if (!set) this.followers.set(k, (set = new Set()));
    set.add(onLine);
    return () => set.delete(onLine);
  }

  get followerCount(): number {
    let n = 0;
    for (const s of this.followers.values()) n += s.size;
    return n;
  }
}
