// Small, realistic objects for engine tests, written into the demo server's
// store (the simulation is not used: tests decide every change).
import type { ObjectStore, StoredObject } from '../../demo/object-store.js';
import { resourceKey } from '../../demo/object-store.js';

export const KEYS = {
  pods: resourceKey('', 'v1', 'pods'),
  nodes: resourceKey('', 'v1', 'nodes'),
  jobs: resourceKey('batch', 'v1', 'jobs'),
  jobsets: resourceKey('jobset.x-k8s.io', 'v1alpha2', 'jobsets'),
  tfjobs: resourceKey('kubeflow.org', 'v1', 'tfjobs'),
  kartas: resourceKey('run.ai', 'v1alpha1', 'kartas'),
};

export function putNode(store: ObjectStore, name: string, gpus: number): StoredObject {
  return store.put(KEYS.nodes, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: '', resourceVersion: '', creationTimestamp: '', labels: { 'kubernetes.io/hostname': name } },
    spec: {},
    status: {
      capacity: { 'nvidia.com/gpu': String(gpus), cpu: '96' },
      allocatable: { 'nvidia.com/gpu': String(gpus), cpu: '96' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      nodeInfo: { kubeletVersion: 'v1.32.0' },
    },
  });
}

/** A JobSet with one Job per replicatedJob (1 pod each), and the Jobs. */
export function putJobSet(
  store: ObjectStore,
  namespace: string,
  name: string,
  rjobs: string[],
  gpus: number,
): { jobset: StoredObject; jobs: StoredObject[] } {
  const template = {
    spec: {
      containers: [{ name: 'main', image: 'trainer:1', resources: { limits: { 'nvidia.com/gpu': String(gpus) } } }],
    },
  };
  const jobset = store.put(KEYS.jobsets, {
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    metadata: { name, namespace, uid: '', resourceVersion: '', creationTimestamp: '' },
    spec: {
      replicatedJobs: rjobs.map((r) => ({ name: r, replicas: 1, template: { spec: { parallelism: 1, template } } })),
    },
    status: { replicatedJobsStatus: rjobs.map((r) => ({ name: r, ready: 1, succeeded: 0, failed: 0, active: 1 })) },
  });
  const jobs = rjobs.map((r) =>
    store.put(KEYS.jobs, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: `${name}-${r}-0`,
        namespace,
        uid: '',
        resourceVersion: '',
        creationTimestamp: '',
        labels: { 'jobset.sigs.k8s.io/jobset-name': name, 'jobset.sigs.k8s.io/replicatedjob-name': r },
        ownerReferences: [
          { apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name, uid: jobset.metadata.uid, controller: true },
        ],
      },
      spec: { parallelism: 1, template },
      status: { active: 1 },
    }),
  );
  return { jobset, jobs };
}

export function putPod(
  store: ObjectStore,
  namespace: string,
  name: string,
  owner: StoredObject | null,
  labels: Record<string, string>,
  options: { node?: string | null; gpus?: number; ready?: boolean; phase?: string } = {},
): StoredObject {
  const node = options.node === undefined ? 'gpu-node-01' : options.node;
  const ready = options.ready ?? node !== null;
  return store.put(KEYS.pods, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: '',
      resourceVersion: '',
      creationTimestamp: '',
      labels,
      ownerReferences: owner
        ? [
            {
              apiVersion: owner.apiVersion,
              kind: owner.kind,
              name: owner.metadata.name,
              uid: owner.metadata.uid,
              controller: true,
            },
          ]
        : undefined,
    },
    spec: {
      nodeName: node ?? undefined,
      containers: [
        { name: 'main', image: 'trainer:1', resources: { limits: { 'nvidia.com/gpu': String(options.gpus ?? 4) } } },
      ],
    },
    status: {
      phase: options.phase ?? (node ? 'Running' : 'Pending'),
      conditions: [
        {
          type: 'PodScheduled',
          status: node ? 'True' : 'False',
          ...(node ? {} : { reason: 'Unschedulable', message: '0/1 nodes are available' }),
        },
        { type: 'Ready', status: ready ? 'True' : 'False' },
      ],
      containerStatuses: node
        ? [{ name: 'main', ready, restartCount: 0, state: { running: { startedAt: '2026-12-01T10:00:00Z' } } }]
        : undefined,
    },
  });
}

/** Pods of a JobSet's Jobs, labelled as the JobSet controller does. */
export function putJobSetPods(
  store: ObjectStore,
  jobsetName: string,
  jobs: StoredObject[],
  options: { gpus?: number } = {},
): StoredObject[] {
  return jobs.map((job) => {
    const rjob = job.metadata.labels!['jobset.sigs.k8s.io/replicatedjob-name'];
    return putPod(
      store,
      job.metadata.namespace!,
      `${job.metadata.name}-0-abcde`,
      job,
      {
        'jobset.sigs.k8s.io/jobset-name': jobsetName,
        'jobset.sigs.k8s.io/replicatedjob-name': rjob,
        'batch.kubernetes.io/job-name': job.metadata.name,
      },
      { gpus: options.gpus },
    );
  });
}

/** A cluster Karta for TFJob (only in the cluster, not built in). */
export function tfjobKarta(): StoredObject {
  return {
    apiVersion: 'run.ai/v1alpha1',
    kind: 'Karta',
    metadata: { name: 'test-tfjob', uid: '', resourceVersion: '', creationTimestamp: '' },
    spec: {
      structureDefinition: {
        rootComponent: {
          name: 'tfjob',
          kind: { group: 'kubeflow.org', version: 'v1', kind: 'TFJob' },
          statusDefinition: {
            conditionsDefinition: {
              path: '.status.conditions',
              typeFieldName: 'type',
              statusFieldName: 'status',
              messageFieldName: 'message',
            },
            statusMappings: { running: [{ byConditions: [{ type: 'Running', status: 'True' }] }] },
          },
        },
        childComponents: [
          {
            name: 'replica',
            ownerRef: 'tfjob',
            specDefinition: { podTemplateSpecPath: '.spec.tfReplicaSpecs[].template' },
            scaleDefinition: { replicasPath: '.spec.tfReplicaSpecs[].replicas' },
            instanceIdPath: '.spec.tfReplicaSpecs | keys[] | ascii_downcase',
            podSelector: {
              componentTypeSelector: { keyPath: '.metadata.labels["training.kubeflow.org/job-name"]' },
              componentInstanceSelector: { idPath: '.metadata.labels["training.kubeflow.org/replica-type"]' },
            },
          },
        ],
      },
    },
  };
}
