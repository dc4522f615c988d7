// Plain-object model fixtures and an in-memory ModelSource for UI tests:
// a small cluster shaped like the demo's default scenario.
import type {
  ConnectionInfo,
  KindState,
  PodScope,
  ResourceInfo,
  ModelSnapshot,
  NodePodEntry,
  NodeSummary,
  PodSummary,
  RoleTree,
  WorkloadTree,
} from '../../src/model/types.js';
import type { ModelSource, ObjectAccess } from '../../src/model/source.js';
import type { Definition } from '../../src/definitions/types.js';

const T0 = '2026-01-01T00:00:00Z';

export function pod(name: string, over: Partial<PodSummary> = {}): PodSummary {
  return {
    namespace: 'training',
    name,
    status: 'Running',
    phase: 'Running',
    ready: true,
    node: 'gpu-node-01',
    gpus: 4,
    restarts: 0,
    reason: null,
    uid: `uid-${name}`,
    readyContainers: '1/1',
    message: null,
    createdAt: T0,
    ...over,
  };
}

export function role(component: string, pods: PodSummary[], over: Partial<RoleTree> = {}): RoleTree {
  const gpus = pods.reduce((s, p) => s + p.gpus, 0);
  return {
    component,
    instance: null,
    replica: null,
    replicas: { desired: pods.length, current: pods.length, ready: pods.filter((p) => p.ready).length },
    gpus: { desired: gpus, requested: gpus, allocated: pods.filter((p) => p.node).reduce((s, p) => s + p.gpus, 0) },
    nodes: [...new Set(pods.map((p) => p.node).filter((n): n is string => !!n))],
    pods,
    roles: [],
    ...over,
  };
}

export function workload(name: string, roles: RoleTree[], over: Partial<WorkloadTree> = {}): WorkloadTree {
  const sum = (f: (r: RoleTree) => number) => roles.reduce((s, r) => s + f(r), 0);
  return {
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    namespace: 'training',
    name,
    uid: `uid-${name}`,
    definition: 'jobset',
    definitionSource: 'builtin',
    status: ['Running'],
    replicas: {
      desired: sum((r) => r.replicas.desired),
      current: sum((r) => r.replicas.current),
      ready: sum((r) => r.replicas.ready),
    },
    gpus: {
      desired: sum((r) => r.gpus.desired),
      requested: sum((r) => r.gpus.requested),
      allocated: sum((r) => r.gpus.allocated),
    },
    roles,
    unattributedPods: [],
    gangs: [],
    createdAt: T0,
    statusMessage: null,
    errors: [],
    ...over,
  };
}

export function node(name: string, over: Partial<NodeSummary> = {}): NodeSummary {
  return {
    name,
    ready: true,
    gpuCapacity: 8,
    gpuAllocatable: 8,
    gpuRequested: 0,
    pods: 0,
    unschedulable: false,
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'MemoryPressure', status: 'False' },
    ],
    taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
    labels: {},
    createdAt: T0,
    workloads: [],
    ...over,
  };
}

export const HOSTILE_NAME = 'innocent-\u001b[2J\u001b]0;pwned\u0007-\u202eevil';

/** llama-pretrain (leader + 2 workers), bert-finetune, a failed one, a stuck one, and a hostile pod. */
export function defaultSnapshot(version = 1): ModelSnapshot {
  const llama = workload('llama-pretrain', [
    role('leader', [pod('llama-pretrain-leader-0-0', { node: 'gpu-node-01' })]),
    role('worker', [
      pod('llama-pretrain-worker-0-0', { node: 'gpu-node-02' }),
      pod('llama-pretrain-worker-1-0', { node: 'gpu-node-03' }),
    ]),
  ]);
  const bert = workload(
    'bert-finetune',
    [
      role('Master', [pod('bert-master-0', { gpus: 1, node: 'gpu-node-04' })]),
      role(
        'Worker',
        [0, 1, 2].map((i) => pod(`bert-worker-${i}`, { gpus: 1, node: 'gpu-node-04' })),
      ),
    ],
    { kind: 'PyTorchJob', apiVersion: 'kubeflow.org/v1', definition: 'pytorchjob', createdAt: '2026-01-01T00:05:00Z' },
  );
  const broken = workload(
    'broken-finetune',
    [
      role('Worker', [
        pod('broken-worker-0', {
          status: 'CrashLoopBackOff',
          ready: false,
          restarts: 5,
          reason: 'OOMKilled',
          gpus: 1,
          readyContainers: '0/1',
        }),
      ]),
    ],
    {
      kind: 'PyTorchJob',
      status: ['Failed'],
      statusMessage: 'pod broken-worker-0 failed',
      createdAt: '2026-01-01T00:10:00Z',
    },
  );
  const stuck = workload(
    'stuck-pretrain',
    [
      role(
        'worker',
        [0, 1, 2].map((i) =>
          pod(
            `stuck-worker-${i}`,
            i === 0
              ? { gpus: 8, node: 'gpu-node-05' }
              : {
                  gpus: 8,
                  node: null,
                  status: 'Pending',
                  phase: 'Pending',
                  ready: false,
                  reason: 'Unschedulable',
                  message: '0/14 nodes are available: 14 Insufficient nvidia.com/gpu.',
                  readyContainers: '0/1',
                },
          ),
        ),
      ),
    ],
    {
      status: ['Initializing'],
      gangs: [{ name: 'worker', key: 'stuck-pretrain', members: 3, scheduled: 1, ready: 1 }],
    },
  );
  const hostilePod = pod(HOSTILE_NAME, {
    namespace: 'default',
    uid: 'uid-hostile',
    node: 'gpu-node-06',
    gpus: 0,
    message: 'msg \u001b[31mred\u001b[0m \u202eright-to-left',
  });
  const hostile = workload(HOSTILE_NAME, [role('main', [hostilePod])], {
    kind: 'Job',
    namespace: 'default',
    uid: 'uid-hostile-wl',
    statusMessage: 'cond \u001b]0;pwned\u0007',
  });
  const workloads = [llama, bert, broken, stuck, hostile];
  const nodes = Array.from({ length: 6 }, (_, i) => node(`gpu-node-0${i + 1}`));
  nodes[0].gpuRequested = 4;
  nodes[0].pods = 1;
  nodes[0].workloads = ['training/llama-pretrain'];
  const kinds: KindState[] = [
    { gvk: { group: '', version: 'v1', kind: 'Pod' }, resource: 'pods', state: 'live', since: T0, count: 12 },
    {
      gvk: { group: 'jobset.x-k8s.io', version: 'v1alpha2', kind: 'JobSet' },
      resource: 'jobsets',
      state: 'live',
      since: T0,
      count: 2,
    },
  ];
  return {
    version,
    workloads,
    nodes,
    totals: { gpuCapacity: 48, gpuAllocatable: 48, gpuRequested: 28, gpuFree: 20, gpuPending: 16, pods: 12, nodes: 6 },
    kinds,
    connection: { state: 'live', since: T0, synced: kinds.length, total: kinds.length, failing: [], forbidden: [] },
    definitions: [
      {
        name: 'jobset',
        kind: 'jobset.x-k8s.io/v1alpha2/JobSet',
        source: 'builtin',
        location: 'definitions/jobset.yaml',
        valid: true,
        workloads: 2,
        problems: [],
      },
      {
        name: 'broken-def',
        kind: 'example.com/v1/Thing',
        source: 'file',
        location: 'x.yaml',
        valid: false,
        workloads: 0,
        problems: [
          {
            file: 'x.yaml',
            line: 3,
            field: 'spec.structure.rootComponent',
            message: 'missing kind',
            severity: 'error',
          },
        ],
      },
    ],
    problems: [],
    changedWorkloads: [],
    orphanPods: [],
  };
}

export const CONNECTION: ConnectionInfo = {
  context: 'demo',
  cluster: 'wlx-demo',
  user: 'demo-user',
  server: 'http://127.0.0.1:1',
  serverVersion: 'v1.32.0',
  namespace: null,
};

/** In-memory ModelSource: publish() pushes a new snapshot to subscribers. */
export class FakeSource implements ModelSource {
  private listeners = new Set<(s: ModelSnapshot) => void>();
  constructor(
    public snapshot: ModelSnapshot = defaultSnapshot(),
    public connection: ConnectionInfo = CONNECTION,
  ) {}
  getSnapshot(): ModelSnapshot {
    return this.snapshot;
  }
  subscribe(listener: (s: ModelSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  get subscriberCount(): number {
    return this.listeners.size;
  }
  publish(next: ModelSnapshot): void {
    this.snapshot = next;
    for (const l of this.listeners) l(next);
  }
  getNodePods(nodeName: string): NodePodEntry[] {
    const out: NodePodEntry[] = [];
    const walk = (w: WorkloadTree, roles: RoleTree[]) => {
      for (const r of roles) {
        for (const p of r.pods)
          if (p.node === nodeName)
            out.push({ pod: p, workload: { kind: w.kind, namespace: w.namespace, name: w.name, uid: w.uid } });
        walk(w, r.roles);
      }
    };
    for (const w of this.snapshot.workloads) walk(w, w.roles);
    if (nodeName === 'gpu-node-01')
      out.push({ pod: pod('lonely-debug', { namespace: 'default', gpus: 0, uid: 'uid-lonely' }), workload: null });
    return out;
  }
  getConnectionInfo(): ConnectionInfo {
    return this.connection;
  }
  // In memory: synced from the start, nothing to scrape, ask or stop.
  access?: ObjectAccess;
  whenSynced(): Promise<void> {
    return Promise.resolve();
  }
  definitions(): Definition[] {
    return [];
  }
  resources(): ResourceInfo[] {
    return [];
  }
  holdQueuePositions(): () => void {
    return () => undefined;
  }
  refreshQueuePositions(): Promise<void> {
    return Promise.resolve();
  }
  holdGpuMetrics(): () => void {
    return () => undefined;
  }
  scrapeGpuMetrics(): Promise<void> {
    return Promise.resolve();
  }
  setPodScope(_scope: PodScope): void {}
  kubeconfigPath(): string | undefined {
    return undefined;
  }
  stop(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }
}

/**
 * `workloads` workloads with one role of `podsPerWorkload` running 1-GPU pods
 * each, named wl-<w>-pod-<p> (numbers zero-padded to `digits`), spread over
 * `nodes` nodes.
 */
export function manyPodsSnapshot(
  workloads: number,
  podsPerWorkload: number,
  digits: { workload: number; pod: number },
  nodes: number,
): ModelSnapshot {
  const s = defaultSnapshot();
  s.workloads = [];
  for (let w = 0; w < workloads; w++) {
    const name = `wl-${String(w).padStart(digits.workload, '0')}`;
    const pods = Array.from({ length: podsPerWorkload }, (_, i) =>
      pod(`${name}-pod-${String(i).padStart(digits.pod, '0')}`, { node: `gpu-node-${i % nodes}`, gpus: 1 }),
    );
    s.workloads.push(workload(name, [role('worker', pods)]));
  }
  s.totals = { ...s.totals, pods: workloads * podsPerWorkload };
  return s;
}
