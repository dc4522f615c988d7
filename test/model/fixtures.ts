// Plain-object definitions and cluster objects for the model tests: shaped
// like the upstream catalog's JobSet, LeaderWorkerSet and PyTorchJob
// definitions and like the objects their controllers create.
import type { Definition, Component, StatusDefinition, GangGroup, Gvk } from '../../src/definitions/types.js';
import type { KubeObject } from '../../src/model/types.js';

type Obj = Record<string, unknown>;

export function definition(
  name: string,
  rootGvk: Gvk,
  root: Omit<Component, 'isRoot' | 'kind'>,
  children: Omit<Component, 'isRoot'>[] = [],
  gangs: GangGroup[] = [],
): Definition {
  const rootComponent: Component = { ...root, kind: rootGvk, isRoot: true };
  return {
    name,
    format: 'Karta',
    source: { kind: 'builtin', location: `${name}.yaml` },
    rootGvk,
    root: rootComponent,
    components: [rootComponent, ...children.map((c) => ({ ...c, isRoot: false }))],
    additionalChildKinds: [],
    gangs,
  };
}

export const JOBSET_GVK: Gvk = { group: 'jobset.x-k8s.io', version: 'v1alpha2', kind: 'JobSet' };
export const LWS_GVK: Gvk = { group: 'leaderworkerset.x-k8s.io', version: 'v1', kind: 'LeaderWorkerSet' };
export const PYTORCH_GVK: Gvk = { group: 'kubeflow.org', version: 'v1', kind: 'PyTorchJob' };
export const STS_GVK: Gvk = { group: 'apps', version: 'v1', kind: 'StatefulSet' };

const conditionsStatus = (mappings: StatusDefinition['statusMappings']): StatusDefinition => ({
  conditionsDefinition: {
    path: '.status.conditions',
    typeFieldName: 'type',
    statusFieldName: 'status',
    messageFieldName: 'message',
  },
  statusMappings: mappings,
});

export function jobsetDefinition(): Definition {
  return definition(
    'jobset',
    JOBSET_GVK,
    {
      name: 'jobset',
      statusDefinition: conditionsStatus({
        completed: [{ byConditions: [{ type: 'Completed', status: 'True' }] }],
        failed: [{ byConditions: [{ type: 'Failed', status: 'True' }] }],
        running: [{ byExpression: { expression: '(.status.conditions // []) | length == 0', expectedResult: 'true' } }],
      }),
    },
    [
      {
        name: 'replicatedjob',
        kind: { group: 'batch', version: 'v1', kind: 'Job' },
        ownerRef: 'jobset',
        specDefinition: { podTemplateSpecPath: '.spec.replicatedJobs[].template.spec.template' },
        scaleDefinition: { replicasPath: '.spec.replicatedJobs[].replicas' },
        instanceIdPath: '.spec.replicatedJobs[].name',
        podSelector: {
          componentInstanceSelector: { idPath: '.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]' },
        },
      },
    ],
    [
      {
        name: 'job',
        members: [
          {
            componentName: 'replicatedjob',
            groupByKeyPaths: ['.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]'],
            filters: [],
          },
        ],
      },
    ],
  );
}

export function lwsDefinition(): Definition {
  return definition(
    'lws',
    LWS_GVK,
    { name: 'leaderworkerset' },
    [
      {
        name: 'group',
        ownerRef: 'leaderworkerset',
        scaleDefinition: { replicasPath: '.spec.leaderWorkerTemplate.size' },
        podSelector: { replicaSelector: { keyPath: '.metadata.labels["leaderworkerset.sigs.k8s.io/group-index"]' } },
      },
      {
        name: 'leader',
        kind: STS_GVK,
        ownerRef: 'group',
        specDefinition: { podTemplateSpecPath: '.spec.leaderWorkerTemplate.leaderTemplate' },
        scaleDefinition: { replicasPath: '.spec.replicas // 1' },
        podSelector: {
          componentTypeSelector: {
            keyPath: '.metadata.labels["leaderworkerset.sigs.k8s.io/worker-index"]',
            value: '0',
          },
        },
      },
      {
        name: 'worker',
        kind: STS_GVK,
        ownerRef: 'group',
        specDefinition: { podTemplateSpecPath: '.spec.leaderWorkerTemplate.workerTemplate' },
        scaleDefinition: { replicasPath: '(.spec.replicas // 1) * ((.spec.leaderWorkerTemplate.size // 1) - 1)' },
        podSelector: {
          componentTypeSelector: { keyPath: '.metadata.annotations["leaderworkerset.sigs.k8s.io/leader-name"]' },
        },
      },
    ],
    [
      {
        name: 'group',
        members: [
          {
            componentName: 'group',
            groupByKeyPaths: [
              '.metadata.labels["leaderworkerset.sigs.k8s.io/name"]',
              '.metadata.labels["leaderworkerset.sigs.k8s.io/group-index"] // "0"',
            ],
            filters: [],
          },
        ],
      },
    ],
  );
}

export function pytorchDefinition(): Definition {
  const role = (name: string, spec: string): Omit<Component, 'isRoot'> => ({
    name: name.toLowerCase(),
    kind: { group: '', version: 'v1', kind: 'Pod' },
    ownerRef: 'pytorchjob',
    specDefinition: { podTemplateSpecPath: `.spec.pytorchReplicaSpecs.${spec}.template` },
    scaleDefinition: { replicasPath: `.spec.pytorchReplicaSpecs.${spec}.replicas // 1` },
    podSelector: {
      componentTypeSelector: {
        keyPath: '.metadata.labels["training.kubeflow.org/replica-type"]',
        value: name.toLowerCase(),
      },
    },
  });
  return definition('pytorchjob', PYTORCH_GVK, { name: 'pytorchjob' }, [
    role('Master', 'Master'),
    role('Worker', 'Worker'),
  ]);
}

/** A StatefulSet definition like the catalog's: the root holds the pods itself, no selector. */
export function statefulsetDefinition(): Definition {
  return definition('statefulset', STS_GVK, {
    name: 'statefulset',
    specDefinition: { podTemplateSpecPath: '.spec.template' },
    scaleDefinition: { replicasPath: '.spec.replicas // 1' },
  });
}

let uidCounter = 0;
export function uid(prefix = 'uid'): string {
  uidCounter += 1;
  return `${prefix}-${uidCounter}`;
}

export function ownerRef(owner: KubeObject) {
  return {
    apiVersion: owner.apiVersion ?? 'v1',
    kind: owner.kind ?? 'X',
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller: true,
  };
}

export function object(
  apiVersion: string,
  kind: string,
  name: string,
  opts: {
    namespace?: string;
    owner?: KubeObject;
    spec?: Obj;
    status?: Obj;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    uid?: string;
  } = {},
): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      namespace: opts.namespace ?? 'ml',
      uid: opts.uid ?? uid(kind.toLowerCase()),
      creationTimestamp: '2026-01-01T00:00:00Z',
      ...(opts.labels ? { labels: opts.labels } : {}),
      ...(opts.annotations ? { annotations: opts.annotations } : {}),
      ...(opts.owner ? { ownerReferences: [ownerRef(opts.owner)] } : {}),
    },
    ...(opts.spec ? { spec: opts.spec } : {}),
    ...(opts.status ? { status: opts.status } : {}),
  };
}

export const gpuTemplate = (gpus: number) => ({
  spec: { containers: [{ name: 'main', resources: { limits: { 'nvidia.com/gpu': gpus } } }] },
});

export function pod(
  name: string,
  opts: {
    owner?: KubeObject;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    node?: string | null;
    gpus?: number;
    phase?: string;
    ready?: boolean;
    namespace?: string;
    deleting?: boolean;
    uid?: string;
  } = {},
): KubeObject {
  const p = object('v1', 'Pod', name, {
    namespace: opts.namespace,
    owner: opts.owner,
    labels: opts.labels,
    annotations: opts.annotations,
    uid: opts.uid,
    spec: {
      ...(opts.node ? { nodeName: opts.node } : {}),
      containers: [{ name: 'main', resources: { limits: { 'nvidia.com/gpu': opts.gpus ?? 0 } } }],
    },
    status: {
      phase: opts.phase ?? (opts.node ? 'Running' : 'Pending'),
      conditions: [
        {
          type: 'PodScheduled',
          status: opts.node ? 'True' : 'False',
          ...(opts.node
            ? {}
            : { reason: 'Unschedulable', message: '0/4 nodes are available: 4 Insufficient nvidia.com/gpu.' }),
        },
        { type: 'Ready', status: (opts.ready ?? !!opts.node) ? 'True' : 'False' },
      ],
    },
  });
  if (opts.deleting) p.metadata.deletionTimestamp = '2026-01-01T00:10:00Z';
  return p;
}

export function node(name: string, gpus: number, opts: { ready?: boolean } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: uid('node'), labels: { 'kubernetes.io/hostname': name } },
    spec: {},
    status: {
      capacity: { 'nvidia.com/gpu': String(gpus), cpu: '96' },
      allocatable: { 'nvidia.com/gpu': String(gpus), cpu: '95' },
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  };
}

/** A JobSet with replicated jobs (name, replicas, GPUs per pod), its Jobs and one pod per Job. */
export function jobsetWorld(
  name: string,
  rjobs: { name: string; replicas: number; gpus: number }[],
  opts: { namespace?: string; nodes?: (i: number) => string | null } = {},
) {
  const namespace = opts.namespace ?? 'ml';
  const js = object('jobset.x-k8s.io/v1alpha2', 'JobSet', name, {
    namespace,
    spec: {
      replicatedJobs: rjobs.map((r) => ({
        name: r.name,
        replicas: r.replicas,
        template: { spec: { template: gpuTemplate(r.gpus) } },
      })),
    },
    status: { conditions: [] },
  });
  const jobs: KubeObject[] = [];
  const pods: KubeObject[] = [];
  let n = 0;
  for (const r of rjobs) {
    for (let i = 0; i < r.replicas; i++) {
      const job = object('batch/v1', 'Job', `${name}-${r.name}-${i}`, { namespace, owner: js });
      jobs.push(job);
      pods.push(
        pod(`${name}-${r.name}-${i}-0`, {
          namespace,
          owner: job,
          gpus: r.gpus,
          node: opts.nodes ? opts.nodes(n) : `node-${n % 4}`,
          labels: { 'jobset.sigs.k8s.io/jobset-name': name, 'jobset.sigs.k8s.io/replicatedjob-name': r.name },
        }),
      );
      n++;
    }
  }
  return { jobset: js, jobs, pods };
}

/** A LeaderWorkerSet: leader StatefulSet, one worker StatefulSet per group, pods labelled as LWS does. */
export function lwsWorld(name: string, groups: number, size: number, gpus: number, opts: { namespace?: string } = {}) {
  const namespace = opts.namespace ?? 'ml';
  const lws = object('leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet', name, {
    namespace,
    spec: {
      replicas: groups,
      leaderWorkerTemplate: { size, leaderTemplate: gpuTemplate(gpus), workerTemplate: gpuTemplate(gpus) },
    },
  });
  const leaderSts = object('apps/v1', 'StatefulSet', name, { namespace, owner: lws });
  const owners: KubeObject[] = [leaderSts];
  const pods: KubeObject[] = [];
  for (let g = 0; g < groups; g++) {
    const labels = (w: number) => ({
      'leaderworkerset.sigs.k8s.io/name': name,
      'leaderworkerset.sigs.k8s.io/group-index': String(g),
      'leaderworkerset.sigs.k8s.io/worker-index': String(w),
    });
    const leader = pod(`${name}-${g}`, { namespace, owner: leaderSts, gpus, node: `node-${g}`, labels: labels(0) });
    pods.push(leader);
    const workerSts = object('apps/v1', 'StatefulSet', `${name}-${g}`, { namespace, owner: leader });
    owners.push(workerSts);
    for (let w = 1; w < size; w++) {
      pods.push(
        pod(`${name}-${g}-${w}`, {
          namespace,
          owner: workerSts,
          gpus,
          node: `node-${g}`,
          labels: labels(w),
          annotations: { 'leaderworkerset.sigs.k8s.io/leader-name': `${name}-${g}` },
        }),
      );
    }
  }
  return { lws, owners, pods };
}
