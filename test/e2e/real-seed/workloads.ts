// The seed's workloads as their controllers leave them: a JobSet with its Jobs
// and pods, PyTorchJobs with their Kueue Workloads, a LeaderWorkerSet with its
// StatefulSets and pods, a plain Job, a bare pod, and Kueue's queues.
import { container, H100, ownerRef, pod, uidOf, type Json, type SeedClock, type SeedObject } from './objects.js';

const JS = 'jobset.sigs.k8s.io/';

/** JobSet llama-pretrain: replicatedJobs leader (1 Job) and workers (2 Jobs), one 8-GPU pod per Job. */
export function jobset(c: SeedClock): SeedObject[] {
  const ns = 'training';
  const name = 'llama-pretrain';
  const podTemplate = (rjob: string): Json => ({
    spec: {
      parallelism: 1,
      completions: 1,
      backoffLimit: 0,
      template: { spec: { restartPolicy: 'Never', containers: [container(8)] } },
    },
    metadata: { labels: { app: name, role: rjob } },
  });
  const out: SeedObject[] = [
    {
      apiVersion: 'jobset.x-k8s.io/v1alpha2',
      kind: 'JobSet',
      resource: 'jobsets',
      metadata: { name, namespace: ns, labels: { team: 'llm', 'kueue.x-k8s.io/queue-name': 'training-queue' } },
      spec: {
        replicatedJobs: [
          { name: 'leader', replicas: 1, template: podTemplate('leader') },
          { name: 'workers', replicas: 2, template: podTemplate('workers') },
        ],
        network: { enableDNSHostnames: true, subdomain: name },
        successPolicy: { operator: 'All' },
        failurePolicy: { maxRestarts: 2 },
      },
      status: {
        restarts: 0,
        replicatedJobsStatus: [
          { name: 'leader', ready: 1, succeeded: 0, failed: 0, active: 1, suspended: 0 },
          { name: 'workers', ready: 1, succeeded: 0, failed: 0, active: 2, suspended: 0 },
        ],
      },
    },
  ];
  const jobs: Array<[string, number, string | undefined, string]> = [
    ['leader', 0, 'gpu-a1', 'x7k2p'],
    ['workers', 0, 'gpu-a2', 'q9m4d'],
    ['workers', 1, undefined, 'h3v8n'],
  ];
  jobs.forEach(([rjob, index, node, suffix], global) => {
    const job = `${name}-${rjob}-${index}`;
    const labels = {
      [`${JS}jobset-name`]: name,
      [`${JS}replicatedjob-name`]: rjob,
      [`${JS}replicatedjob-replicas`]: rjob === 'leader' ? '1' : '2',
      [`${JS}job-index`]: String(index),
      [`${JS}job-global-index`]: String(global),
      [`${JS}restart-attempt`]: '0',
    };
    out.push({
      apiVersion: 'batch/v1',
      kind: 'Job',
      resource: 'jobs',
      metadata: {
        name: job,
        namespace: ns,
        labels,
        annotations: { ...labels },
        ownerReferences: [ownerRef('jobset.x-k8s.io/v1alpha2', 'JobSet', ns, name)],
      },
      spec: {
        parallelism: 1,
        completions: 1,
        backoffLimit: 0,
        completionMode: 'Indexed',
        template: {
          metadata: { labels: { ...labels, app: name, role: rjob }, annotations: { ...labels } },
          spec: {
            restartPolicy: 'Never',
            subdomain: name,
            containers: [container(8)],
          },
        },
      },
      status: { active: 1, startTime: c.at(30) },
    });
    out.push(
      pod(c, {
        namespace: ns,
        name: `${job}-0-${suffix}`,
        labels: {
          ...labels,
          app: name,
          role: rjob,
          'controller-uid': uidOf('Job', ns, job),
          'job-name': job,
          'batch.kubernetes.io/job-completion-index': '0',
        },
        annotations: { ...labels, 'batch.kubernetes.io/job-completion-index': '0' },
        owner: ownerRef('batch/v1', 'Job', ns, job),
        gpus: 8,
        node,
        created: 31,
        restartPolicy: 'Never',
        hostname: `${job}-0`,
        subdomain: name,
      }),
    );
  });
  return out;
}

const TK = 'training.kubeflow.org/';

export function pytorchJob(
  c: SeedClock,
  name: string,
  workers: number,
  admitted: boolean,
  created: number,
): SeedObject[] {
  const ns = 'training';
  const template = { spec: { containers: [{ ...container(4), name: 'pytorch' }] } };
  const out: SeedObject[] = [
    {
      apiVersion: 'kubeflow.org/v1',
      kind: 'PyTorchJob',
      resource: 'pytorchjobs',
      metadata: { name, namespace: ns, labels: { 'kueue.x-k8s.io/queue-name': 'training-queue', team: 'nlp' } },
      spec: {
        runPolicy: { suspend: !admitted, cleanPodPolicy: 'None' },
        pytorchReplicaSpecs: {
          Master: { replicas: 1, restartPolicy: 'OnFailure', template },
          Worker: { replicas: workers, restartPolicy: 'OnFailure', template },
        },
      },
      status: admitted
        ? {
            conditions: [
              {
                type: 'Created',
                status: 'True',
                reason: 'PyTorchJobCreated',
                message: `PyTorchJob ${name} is created.`,
                lastUpdateTime: c.at(created),
                lastTransitionTime: c.at(created),
              },
              {
                type: 'Running',
                status: 'True',
                reason: 'PyTorchJobRunning',
                message: `PyTorchJob ${ns}/${name} is running.`,
                lastUpdateTime: c.at(created + 70),
                lastTransitionTime: c.at(created + 70),
              },
            ],
            replicaStatuses: { Master: { active: 1 }, Worker: { active: workers } },
            startTime: c.at(created + 5),
          }
        : {
            conditions: [
              {
                type: 'Created',
                status: 'True',
                reason: 'PyTorchJobCreated',
                message: `PyTorchJob ${name} is created.`,
                lastUpdateTime: c.at(created),
                lastTransitionTime: c.at(created),
              },
              {
                type: 'Suspended',
                status: 'True',
                reason: 'PyTorchJobSuspended',
                message: `PyTorchJob ${name} is suspended.`,
                lastUpdateTime: c.at(created),
                lastTransitionTime: c.at(created),
              },
            ],
            replicaStatuses: { Master: {}, Worker: {} },
          },
    },
  ];
  const wl = `pytorchjob-${name}-${admitted ? '5d2f1' : '8c7e0'}`;
  const podSet = (set: string, count: number) => ({
    name: set,
    count,
    template: { spec: { containers: [{ ...container(4), name: 'pytorch' }], restartPolicy: 'OnFailure' } },
  });
  const usage = (count: number) => ({
    cpu: String(16 * count),
    memory: `${128 * count}Gi`,
    'nvidia.com/gpu': String(4 * count),
  });
  out.push({
    apiVersion: 'kueue.x-k8s.io/v1beta2',
    kind: 'Workload',
    resource: 'workloads',
    metadata: {
      name: wl,
      namespace: ns,
      labels: { 'kueue.x-k8s.io/job-uid': uidOf('PyTorchJob', ns, name) },
      ownerReferences: [ownerRef('kubeflow.org/v1', 'PyTorchJob', ns, name)],
    },
    spec: {
      active: true,
      queueName: 'training-queue',
      priority: 0,
      podSets: [podSet('master', 1), podSet('worker', workers)],
    },
    status: admitted
      ? {
          conditions: [
            {
              type: 'QuotaReserved',
              status: 'True',
              reason: 'QuotaReserved',
              message: 'Quota reserved in ClusterQueue gpu-cluster-queue',
              lastTransitionTime: c.at(created + 1),
            },
            {
              type: 'Admitted',
              status: 'True',
              reason: 'Admitted',
              message: 'The workload is admitted',
              lastTransitionTime: c.at(created + 1),
            },
          ],
          admission: {
            clusterQueue: 'gpu-cluster-queue',
            podSetAssignments: [
              {
                name: 'master',
                flavors: { cpu: 'h100', memory: 'h100', 'nvidia.com/gpu': 'h100' },
                resourceUsage: usage(1),
                count: 1,
              },
              {
                name: 'worker',
                flavors: { cpu: 'h100', memory: 'h100', 'nvidia.com/gpu': 'h100' },
                resourceUsage: usage(workers),
                count: workers,
              },
            ],
          },
        }
      : {
          conditions: [
            {
              type: 'QuotaReserved',
              status: 'False',
              reason: 'Pending',
              message: `couldn't assign flavors to pod set master: insufficient unused quota for nvidia.com/gpu in flavor h100, 4 more needed`,
              lastTransitionTime: c.at(created + 1),
            },
          ],
        },
  });
  if (!admitted) return out;
  const nodes = ['gpu-a3', 'gpu-a3', 'gpu-b1'];
  const pods: Array<[string, number]> = [
    ['master', 0],
    ...Array.from({ length: workers }, (_, i) => ['worker', i] as [string, number]),
  ];
  pods.forEach(([type, index], i) => {
    out.push(
      pod(c, {
        namespace: ns,
        name: `${name}-${type}-${index}`,
        labels: {
          [`${TK}job-name`]: name,
          [`${TK}operator-name`]: 'pytorchjob-controller',
          [`${TK}replica-type`]: type,
          [`${TK}replica-index`]: String(index),
          ...(type === 'master' ? { [`${TK}job-role`]: 'master' } : {}),
        },
        owner: ownerRef('kubeflow.org/v1', 'PyTorchJob', ns, name),
        gpus: 4,
        node: nodes[i],
        created: created + 6,
        restartPolicy: 'OnFailure',
      }),
    );
  });
  return out;
}

const LWS = 'leaderworkerset.sigs.k8s.io/';

/** LeaderWorkerSet vllm-70b: 2 groups of size 2 (leader + 1 worker), 2 GPUs a pod, on gpu-b1 and gpu-b2. */
export function leaderWorkerSet(c: SeedClock): SeedObject[] {
  const ns = 'inference';
  const name = 'vllm-70b';
  const hash = '7b9d4c6f5';
  const template = { spec: { containers: [{ ...container(2), name: 'vllm', image: 'vllm/vllm-openai:v0.6.3' }] } };
  const out: SeedObject[] = [
    {
      apiVersion: 'leaderworkerset.x-k8s.io/v1',
      kind: 'LeaderWorkerSet',
      resource: 'leaderworkersets',
      metadata: { name, namespace: ns, labels: { app: name } },
      spec: {
        replicas: 2,
        startupPolicy: 'LeaderCreated',
        leaderWorkerTemplate: { size: 2, restartPolicy: 'RecreateGroupOnPodRestart', workerTemplate: template },
      },
      status: {
        conditions: [
          {
            type: 'Available',
            status: 'True',
            reason: 'AllGroupsReady',
            message: 'All replicas are ready',
            lastTransitionTime: c.at(300),
          },
          {
            type: 'Progressing',
            status: 'False',
            reason: 'AllGroupsReady',
            message: 'All replicas are ready',
            lastTransitionTime: c.at(300),
          },
        ],
        replicas: 2,
        readyReplicas: 2,
        updatedReplicas: 2,
        hpaPodSelector: `${LWS}name=${name},${LWS}worker-index=0`,
      },
    },
  ];
  const stsStatus = (replicas: number) => ({
    observedGeneration: 1,
    replicas,
    readyReplicas: replicas,
    currentReplicas: replicas,
    updatedReplicas: replicas,
    currentRevision: `${name}-${hash}`,
    updateRevision: `${name}-${hash}`,
    collisionCount: 0,
  });
  const leaderLabels = { [`${LWS}name`]: name, [`${LWS}template-revision-hash`]: hash };
  out.push({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    resource: 'statefulsets',
    metadata: {
      name,
      namespace: ns,
      labels: leaderLabels,
      annotations: { [`${LWS}replicas`]: '2' },
      ownerReferences: [ownerRef('leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet', ns, name)],
    },
    spec: {
      replicas: 2,
      serviceName: name,
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { [`${LWS}name`]: name, [`${LWS}worker-index`]: '0' } },
      template: {
        metadata: { labels: { ...leaderLabels, [`${LWS}worker-index`]: '0' }, annotations: { [`${LWS}size`]: '2' } },
        spec: template.spec,
      },
    },
    status: stsStatus(2),
  });
  const placement: Array<[string, string]> = [
    ['gpu-b2', 'gpu-b2'],
    ['gpu-b2', 'gpu-b1'],
  ];
  placement.forEach(([leaderNode, workerNode], group) => {
    const leader = `${name}-${group}`;
    const groupKey = `${'0123456789abcdef'.repeat(2)}${group}${'f'.repeat(7)}`;
    out.push(
      pod(c, {
        namespace: ns,
        name: leader,
        labels: {
          ...leaderLabels,
          [`${LWS}worker-index`]: '0',
          [`${LWS}group-index`]: String(group),
          [`${LWS}group-key`]: groupKey,
          'controller-revision-hash': `${name}-${hash}`,
          'statefulset.kubernetes.io/pod-name': leader,
        },
        annotations: { [`${LWS}size`]: '2' },
        owner: ownerRef('apps/v1', 'StatefulSet', ns, name),
        gpus: 2,
        node: leaderNode,
        created: 200,
        hostname: leader,
        subdomain: name,
      }),
    );
    const groupLabels = { ...leaderLabels, [`${LWS}group-index`]: String(group), [`${LWS}group-key`]: groupKey };
    out.push({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      resource: 'statefulsets',
      metadata: {
        name: leader,
        namespace: ns,
        labels: groupLabels,
        ownerReferences: [ownerRef('v1', 'Pod', ns, leader)],
      },
      spec: {
        replicas: 1,
        serviceName: name,
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: { [`${LWS}name`]: name, [`${LWS}group-key`]: groupKey } },
        template: {
          metadata: { labels: groupLabels, annotations: { [`${LWS}size`]: '2', [`${LWS}leader-name`]: leader } },
          spec: template.spec,
        },
      },
      status: stsStatus(1),
    });
    out.push(
      pod(c, {
        namespace: ns,
        name: `${leader}-1`,
        labels: {
          ...groupLabels,
          [`${LWS}worker-index`]: '1',
          'controller-revision-hash': `${leader}-${hash}`,
          'statefulset.kubernetes.io/pod-name': `${leader}-1`,
        },
        annotations: { [`${LWS}size`]: '2', [`${LWS}leader-name`]: leader },
        owner: ownerRef('apps/v1', 'StatefulSet', ns, leader),
        gpus: 2,
        node: workerNode,
        created: 202,
        hostname: `${leader}-1`,
        subdomain: name,
      }),
    );
  });
  return out;
}

/** Research: Job data-prep (one CPU pod on cpu-1) and a bare notebook pod with one GPU. */
export function research(c: SeedClock): SeedObject[] {
  const ns = 'research';
  return [
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      resource: 'jobs',
      metadata: { name: 'data-prep', namespace: ns, labels: { team: 'data' } },
      spec: {
        parallelism: 1,
        completions: 1,
        backoffLimit: 3,
        template: {
          metadata: { labels: { team: 'data' } },
          spec: { restartPolicy: 'OnFailure', containers: [container(0, '4', '16Gi')] },
        },
      },
      status: { active: 1, startTime: c.at(600) },
    },
    {
      ...pod(c, {
        namespace: ns,
        name: 'data-prep-5x8wq',
        labels: { team: 'data', 'controller-uid': uidOf('Job', ns, 'data-prep'), 'job-name': 'data-prep' },
        owner: ownerRef('batch/v1', 'Job', ns, 'data-prep'),
        gpus: 0,
        node: 'cpu-1',
        created: 600,
        restartPolicy: 'OnFailure',
      }),
      spec: {
        restartPolicy: 'OnFailure',
        nodeName: 'cpu-1',
        containers: [container(0, '4', '16Gi')],
      },
    },
    pod(c, {
      namespace: ns,
      name: 'notebook',
      labels: { app: 'jupyter', team: 'research' },
      gpus: 1,
      node: 'gpu-b1',
      created: 120,
    }),
  ];
}

export function queues(c: SeedClock): SeedObject[] {
  const kueue = 'kueue.x-k8s.io/v1beta2';
  return [
    {
      apiVersion: kueue,
      kind: 'ResourceFlavor',
      resource: 'resourceflavors',
      metadata: { name: 'h100' },
      spec: { nodeLabels: { 'nvidia.com/gpu.product': H100 } },
    },
    {
      apiVersion: kueue,
      kind: 'ClusterQueue',
      resource: 'clusterqueues',
      metadata: { name: 'gpu-cluster-queue' },
      spec: {
        namespaceSelector: {},
        queueingStrategy: 'BestEffortFIFO',
        resourceGroups: [
          {
            coveredResources: ['cpu', 'memory', 'nvidia.com/gpu'],
            flavors: [
              {
                name: 'h100',
                resources: [
                  { name: 'cpu', nominalQuota: '400' },
                  { name: 'memory', nominalQuota: '4Ti' },
                  { name: 'nvidia.com/gpu', nominalQuota: '12' },
                ],
              },
            ],
          },
        ],
      },
      status: {
        pendingWorkloads: 1,
        reservingWorkloads: 1,
        admittedWorkloads: 1,
        flavorsReservation: [
          {
            name: 'h100',
            resources: [
              { name: 'cpu', total: '48', borrowed: '0' },
              { name: 'memory', total: '384Gi', borrowed: '0' },
              { name: 'nvidia.com/gpu', total: '12', borrowed: '0' },
            ],
          },
        ],
        flavorsUsage: [
          {
            name: 'h100',
            resources: [
              { name: 'cpu', total: '48', borrowed: '0' },
              { name: 'memory', total: '384Gi', borrowed: '0' },
              { name: 'nvidia.com/gpu', total: '12', borrowed: '0' },
            ],
          },
        ],
        conditions: [
          {
            type: 'Active',
            status: 'True',
            reason: 'Ready',
            message: 'Can admit new workloads',
            lastTransitionTime: c.at(0),
          },
        ],
      },
    },
    {
      apiVersion: kueue,
      kind: 'LocalQueue',
      resource: 'localqueues',
      metadata: { name: 'training-queue', namespace: 'training' },
      spec: { clusterQueue: 'gpu-cluster-queue' },
      status: {
        pendingWorkloads: 1,
        reservingWorkloads: 1,
        admittedWorkloads: 1,
        conditions: [
          {
            type: 'Active',
            status: 'True',
            reason: 'Ready',
            message: 'Can submit new workloads to localQueue',
            lastTransitionTime: c.at(0),
          },
        ],
      },
    },
  ];
}
