// The default scenario (documented; tests and docs rely on it): 12 H100 nodes
// × 8 GPUs and 2 CPU nodes (startSimulation then adds issue 12's GPU extras:
// 2 MIG nodes, 1 DRA node, their 2 pods, 15 dcgm-exporters; gpu-extras.ts),
// five healthy AI workloads of five kinds, a gang that cannot fit, a
// crash-looping fine-tune that ends Failed, and one hostile pod whose texts
// carry terminal escapes and bidi controls.
//
// llama-70b, ray-tune and resnet-tf have been running for hours when the
// simulation starts: they are built settled (bound, Running, Ready,
// backdated, no events — those would have expired). llama-pretrain,
// bert-finetune, broken-finetune, stuck-pretrain and the hostile pod start
// live, so a user watches them schedule, pull, start, crash and get stuck.
//
// GPU arithmetic (96 in all): bert-finetune 4, ray-tune 4, resnet-tf 3,
// broken-finetune 3, llama-pretrain 12, llama-70b 32 → 58 used, and the
// scheduler bin-packs them onto gpu-node-01 … -08. stuck-pretrain wants 8 pods
// × 8 GPUs but only gpu-node-09 … -12 are whole: 4 pods run, 4 stay Pending
// (Unschedulable) for good. Its pods use the `preemptible` PriorityClass so
// every other workload is scheduled first and a recreated pod of another
// workload is never starved by it. gpu-node-01 … 12 stay the only nodes with
// the H100 product label GPU_SELECTOR matches (the extras' MIG and DRA nodes
// have none), so this arithmetic holds with the extras and the FitError still
// counts 12 H100 nodes short of GPUs (of 17 nodes).
//
// Queues (Kueue v1beta2, on the same clock): ResourceFlavor h100, ClusterQueue
// gpu-cluster-queue (BestEffortFIFO; nominal quota cpu 1500, memory 16Ti,
// nvidia.com/gpu 83 = exactly what the four training jobs use: 4 + 12 + 3 + 64),
// LocalQueues training/training-queue and research/research-queue. The
// training jobs carry the queue-name label and are created suspended (as
// Kueue's webhook leaves them); Kueue admits them at once, so they start as
// before. training/queued-sft (2 × 8 GPUs) and research/mmlu-eval (8 GPUs)
// then wait, suspended, at positions 0 and 1 of the ClusterQueue with
// "insufficient unused quota for nvidia.com/gpu in flavor h100, 16 (8) more
// needed"; when broken-finetune fails its 3 GPUs are released, still too few.
// research/vlm-pretrain is a KAI gang (schedulerName kai-scheduler, queue
// research): 8 pods × 8 GPUs, minMember 8, never placed; its PodGroup says why.
import type { StoredObject } from '../../object-store.js';
import type { JobSetObject } from '../controllers/jobset.js';
import type { LeaderWorkerSetObject } from '../controllers/lws.js';
import type { RayClusterObject } from '../controllers/raycluster.js';
import type { TrainingJobObject } from '../controllers/kubeflow.js';
import type { BehaviourFor } from '../kubelet.js';
import { buildPod } from '../pods.js';
import type { ControlPlane } from '../assemble.js';
import { R, type PodTemplate } from '../types.js';
import {
  buildNode,
  createNamespaces,
  GPU_SELECTOR,
  GPU_TOLERATIONS,
  guaranteed,
  nvlinkClique,
  type NodeShape,
} from './cluster.js';
import { tfJobKarta } from './karta.js';
import { KAI_QUEUE_LABEL, KAI_SCHEDULER_NAME, QUEUE_NAME_LABEL } from '../../kinds-queueing.js';

export const DEFAULT_NAMESPACES = ['default', 'kube-system', 'training', 'inference', 'research'];

const ESC = '\u001b';
const BEL = '\u0007';
const RLO = '\u202e';
/** Text a compromised image could write: clears the screen, retitles the terminal, recolours, reverses. */
export const HOSTILE_TEXT = `${ESC}[2J${ESC}[H${ESC}]0;pwned${BEL}${ESC}[31mSYSTEM COMPROMISED${ESC}[0m ${RLO}gnp.exe`;

export function workload<T extends StoredObject>(
  apiVersion: string,
  kind: string,
  namespace: string,
  name: string,
  createdAt: string,
  spec: T['spec'],
  labels: Record<string, string> = {},
): T {
  return {
    apiVersion,
    kind,
    metadata: { name, namespace, uid: '', resourceVersion: '', creationTimestamp: createdAt, generation: 1, labels },
    spec,
  } as unknown as T;
}

export function gpuTemplate(
  container: string,
  image: string,
  gpus: number,
  cpu: string,
  memory: string,
  extra: Partial<PodTemplate['spec']> = {},
  labels: Record<string, string> = {},
): PodTemplate {
  return {
    metadata: { labels },
    spec: {
      containers: [
        {
          name: container,
          image,
          resources: guaranteed(cpu, memory, gpus),
          ...(gpus
            ? {
                env: [
                  { name: 'NCCL_DEBUG', value: 'INFO' },
                  { name: 'NCCL_IB_HCA', value: 'mlx5' },
                ],
              }
            : {}),
        },
      ],
      ...(gpus ? { tolerations: GPU_TOLERATIONS, nodeSelector: GPU_SELECTOR } : {}),
      ...extra,
    },
  };
}

/**
 * Where gpu-node-`i` sits: 2 racks, 3 NVLink domains. rack-1 (us-east-1a) is gpu-node-01 … 04, one
 * NVLink domain (llama-70b fills it); rack-2 (us-east-1b) is gpu-node-05 … 12, its NVLink fabric
 * partitioned into two cliques, 05 … 07 and 08 … 12. The scheduler bin-packs llama-pretrain's leader
 * and worker-0 onto gpu-node-07 and worker-1 onto gpu-node-08: its worker role spans two NVLink
 * domains although gpu-node-08 alone had room for both workers (the split rule's demo).
 */
export function defaultTopology(i: number): Pick<NodeShape, 'zone' | 'rack' | 'clique'> {
  if (i <= 4) return { zone: 'us-east-1a', rack: 'rack-1', clique: nvlinkClique('rack-1', 1) };
  return { zone: 'us-east-1b', rack: 'rack-2', clique: nvlinkClique('rack-2', i <= 7 ? 1 : 2) };
}

/**
 * Builds what `create` makes as it looks after running since `since`: no events, pods bound and Running
 * (backdated), as a scenario's workloads that started long before the simulation.
 */
export function buildSettled(plane: ControlPlane, since: string, create: (createdAt: string) => void): void {
  const rt = plane.rt;
  rt.quiet = true;
  rt.backdate = since;
  rt.admitPod = (pod) => {
    if (plane.scheduler.bindSettled(pod)) plane.kubelet.settle(pod, since);
  };
  try {
    create(since);
    rt.flush();
  } finally {
    rt.quiet = false;
    rt.backdate = undefined;
    rt.admitPod = undefined;
  }
}

export function createDefaultScenario(plane: ControlPlane): void {
  const rt = plane.rt;
  const now = rt.clock.iso();
  const hourAgo = rt.clock.iso(rt.clock.now() - 3_600_000 * rt.clock.speed);
  for (let i = 1; i <= 12; i++) {
    const name = `gpu-node-${String(i).padStart(2, '0')}`;
    rt.create(R.nodes, buildNode(rt, { name, index: i, gpus: 8, ...defaultTopology(i) }, hourAgo));
  }
  for (let i = 1; i <= 2; i++)
    rt.create(R.nodes, buildNode(rt, { name: `cpu-node-0${i}`, index: 100 + i, gpus: 0, zone: 'us-east-1a' }, hourAgo));
  createNamespaces(rt, DEFAULT_NAMESPACES, hourAgo);
  rt.create(R.kartas, tfJobKarta(hourAgo));
  createQueues(rt, hourAgo);

  const nemo = 'nvcr.io/nvidia/nemo:24.07';
  const pytorch = 'nvcr.io/nvidia/pytorch:24.07-py3';

  // Settled workloads, each built as it looks after running for a while.
  const ago = (hours: number): string => rt.clock.iso(rt.clock.now() - hours * 3_600_000 * rt.clock.speed);
  const settled = (since: string, create: (createdAt: string) => void): void => buildSettled(plane, since, create);
  settled(ago(26), (createdAt) => {
    const vllm = gpuTemplate('vllm', 'vllm/vllm-openai:v0.6.3.post1', 8, '96', '1Ti');
    vllm.spec.containers[0].ports = [{ name: 'http', containerPort: 8080, protocol: 'TCP' }];
    rt.create(
      R.leaderworkersets,
      workload<LeaderWorkerSetObject>(
        'leaderworkerset.x-k8s.io/v1',
        'LeaderWorkerSet',
        'inference',
        'llama-70b',
        createdAt,
        {
          replicas: 2,
          startupPolicy: 'LeaderCreated',
          rolloutStrategy: { type: 'RollingUpdate', rollingUpdateConfiguration: { maxSurge: 0, maxUnavailable: 1 } },
          networkConfig: { subdomainPolicy: 'Shared' },
          leaderWorkerTemplate: {
            size: 2,
            restartPolicy: 'RecreateGroupOnPodRestart',
            leaderTemplate: vllm,
            workerTemplate: gpuTemplate('vllm', 'vllm/vllm-openai:v0.6.3.post1', 8, '96', '1Ti'),
          },
        },
        { app: 'llama-70b' },
      ),
    );
  });
  settled(ago(5), (createdAt) => {
    rt.create(
      R.rayclusters,
      workload<RayClusterObject>('ray.io/v1', 'RayCluster', 'research', 'ray-tune', createdAt, {
        rayVersion: '2.35.0',
        enableInTreeAutoscaling: false,
        headGroupSpec: {
          serviceType: 'ClusterIP',
          rayStartParams: { 'dashboard-host': '0.0.0.0' },
          template: gpuTemplate('ray-head', 'rayproject/ray:2.35.0', 0, '4', '16Gi'),
        },
        workerGroupSpecs: [
          {
            groupName: 'gpu-group',
            replicas: 2,
            minReplicas: 0,
            maxReplicas: 4,
            rayStartParams: {},
            template: gpuTemplate('ray-worker', 'rayproject/ray:2.35.0-gpu', 2, '16', '128Gi'),
          },
        ],
      }),
    );
  });
  settled(ago(0.75), (createdAt) => {
    rt.create(
      R.tfjobs,
      workload<TrainingJobObject>('kubeflow.org/v1', 'TFJob', 'research', 'resnet-tf', createdAt, {
        runPolicy: { cleanPodPolicy: 'None' },
        tfReplicaSpecs: {
          Chief: {
            replicas: 1,
            restartPolicy: 'OnFailure',
            template: gpuTemplate('tensorflow', 'tensorflow/tensorflow:2.15.0-gpu', 1, '8', '48Gi'),
          },
          Worker: {
            replicas: 2,
            restartPolicy: 'OnFailure',
            template: gpuTemplate('tensorflow', 'tensorflow/tensorflow:2.15.0-gpu', 1, '8', '48Gi'),
          },
        },
      }),
    );
  });

  // Live from here on.
  rt.create(
    R.pytorchjobs,
    workload<TrainingJobObject>(
      'kubeflow.org/v1',
      'PyTorchJob',
      'training',
      'bert-finetune',
      now,
      {
        runPolicy: { cleanPodPolicy: 'None', suspend: true, backoffLimit: 10 },
        pytorchReplicaSpecs: {
          Master: {
            replicas: 1,
            restartPolicy: 'OnFailure',
            template: gpuTemplate('pytorch', pytorch, 1, '8', '64Gi'),
          },
          Worker: {
            replicas: 3,
            restartPolicy: 'OnFailure',
            template: gpuTemplate('pytorch', pytorch, 1, '8', '64Gi'),
          },
        },
      },
      { team: 'nlp', [QUEUE_NAME_LABEL]: 'training-queue' },
    ),
  );
  rt.create(
    R.jobsets,
    workload<JobSetObject>(
      'jobset.x-k8s.io/v1alpha2',
      'JobSet',
      'training',
      'llama-pretrain',
      now,
      {
        failurePolicy: { maxRestarts: 3 },
        successPolicy: { operator: 'All', targetReplicatedJobs: [] },
        network: { enableDNSHostnames: true, subdomain: 'llama-pretrain', publishNotReadyAddresses: true },
        startupPolicy: { startupPolicyOrder: 'AnyOrder' },
        suspend: true,
        replicatedJobs: [
          {
            name: 'leader',
            replicas: 1,
            template: {
              spec: {
                parallelism: 1,
                completions: 1,
                backoffLimit: 0,
                template: gpuTemplate('trainer', nemo, 4, '48', '512Gi', { restartPolicy: 'Never' }),
              },
            },
          },
          {
            name: 'worker',
            replicas: 2,
            template: {
              spec: {
                parallelism: 1,
                completions: 1,
                backoffLimit: 0,
                template: gpuTemplate('trainer', nemo, 4, '48', '512Gi', { restartPolicy: 'Never' }),
              },
            },
          },
        ],
      },
      { team: 'foundation-models', [QUEUE_NAME_LABEL]: 'training-queue' },
    ),
  );

  rt.create(
    R.pytorchjobs,
    workload<TrainingJobObject>(
      'kubeflow.org/v1',
      'PyTorchJob',
      'training',
      'broken-finetune',
      now,
      {
        runPolicy: { cleanPodPolicy: 'None', suspend: true, backoffLimit: 4 },
        pytorchReplicaSpecs: {
          Master: {
            replicas: 1,
            restartPolicy: 'OnFailure',
            template: gpuTemplate('pytorch', pytorch, 1, '8', '64Gi'),
          },
          Worker: {
            replicas: 2,
            restartPolicy: 'OnFailure',
            template: gpuTemplate('pytorch', pytorch, 1, '8', '64Gi'),
          },
        },
      },
      { team: 'nlp', [QUEUE_NAME_LABEL]: 'training-queue' },
    ),
  );

  rt.create(
    R.jobsets,
    workload<JobSetObject>(
      'jobset.x-k8s.io/v1alpha2',
      'JobSet',
      'training',
      'stuck-pretrain',
      now,
      {
        failurePolicy: { maxRestarts: 0 },
        successPolicy: { operator: 'All', targetReplicatedJobs: [] },
        network: { enableDNSHostnames: true, subdomain: 'stuck-pretrain', publishNotReadyAddresses: true },
        suspend: true,
        replicatedJobs: [
          {
            name: 'worker',
            replicas: 1,
            template: {
              spec: {
                parallelism: 8,
                completions: 8,
                backoffLimit: 0,
                completionMode: 'Indexed',
                template: gpuTemplate('trainer', nemo, 8, '64', '768Gi', {
                  restartPolicy: 'Never',
                  priorityClassName: 'preemptible',
                }),
              },
            },
          },
        ],
      },
      { team: 'foundation-models', [QUEUE_NAME_LABEL]: 'training-queue' },
    ),
  );

  // Kueue admits the training jobs above now, before their controllers first
  // see them, so they start as they would without a queue.
  plane.kueue.sync();
  createQueuedJobs(rt, now, pytorch);

  // The hostile pod: no controller, escape sequences in an annotation, its
  // termination message, a readiness-gate condition message and an event.
  const hostile = buildPod(
    {
      namespace: 'default',
      name: 'innocent-looking',
      template: {
        metadata: {
          labels: { app: 'innocent-looking' },
          annotations: { description: `metrics sidecar ${HOSTILE_TEXT}` },
        },
        spec: {
          containers: [
            {
              name: 'exporter',
              image: 'ghcr.io/innocent-org/metrics-exporter:1.4.2',
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
            },
          ],
          readinessGates: [{ conditionType: 'example.com/healthy' }],
        },
      },
    },
    rt.rng,
  );
  hostile.metadata.annotations = { ...(hostile.metadata.annotations ?? {}), 'wlx.demo/log-style': 'hostile' };
  const created = rt.create(R.pods, hostile);
  rt.events.record(created, {
    type: 'Warning',
    reason: 'Compromised',
    message: `exporter says: ${HOSTILE_TEXT}`,
    component: 'innocent-controller',
  });
}

/** Which pods misbehave, and how. */
export const defaultBehaviour: BehaviourFor = (pod) => {
  const ns = pod.metadata.namespace;
  const name = pod.metadata.name;
  if (ns === 'training' && name === 'broken-finetune-worker-1') {
    return {
      crash: {
        afterMs: [6_000, 12_000],
        reason: 'OOMKilled',
        exitCode: 137,
        lastWords: ['[rank2] Loading tokenised dataset shards into host memory: 61/64 (118.3 GiB RSS)'],
      },
    };
  }
  if (ns === 'default' && name === 'innocent-looking') {
    return {
      crash: {
        afterMs: [20_000, 40_000],
        reason: 'Error',
        exitCode: 1,
        message: HOSTILE_TEXT,
        lastWords: [HOSTILE_TEXT],
      },
      extraConditions: [
        { type: 'example.com/healthy', status: 'False', reason: 'Pwned', message: `probe said ${HOSTILE_TEXT}` },
      ],
    };
  }
  return undefined;
};

/** GPUs of the ClusterQueue's nominal quota: exactly what the admitted training jobs use (4 + 12 + 3 + 64). */
export const TRAINING_GPU_QUOTA = 83;

export function clusterObject(
  apiVersion: string,
  kind: string,
  name: string,
  createdAt: string,
  spec: unknown,
  namespace?: string,
): StoredObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      uid: '',
      resourceVersion: '',
      creationTimestamp: createdAt,
      generation: 1,
    },
    spec,
  };
}

/** Kueue's flavor, ClusterQueue and LocalQueues, and KAI's research queue, set up by the admins long ago. */
function createQueues(rt: ControlPlane['rt'], createdAt: string): void {
  const kueue = 'kueue.x-k8s.io/v1beta2';
  rt.create(R.resourceflavors, clusterObject(kueue, 'ResourceFlavor', 'h100', createdAt, {}));
  rt.create(
    R.clusterqueues,
    clusterObject(kueue, 'ClusterQueue', 'gpu-cluster-queue', createdAt, {
      namespaceSelector: {},
      queueingStrategy: 'BestEffortFIFO',
      stopPolicy: 'None',
      resourceGroups: [
        {
          coveredResources: ['cpu', 'memory', 'nvidia.com/gpu'],
          flavors: [
            {
              name: 'h100',
              resources: [
                { name: 'cpu', nominalQuota: '1500' },
                { name: 'memory', nominalQuota: '16Ti' },
                { name: 'nvidia.com/gpu', nominalQuota: String(TRAINING_GPU_QUOTA) },
              ],
            },
          ],
        },
      ],
    }),
  );
  for (const [namespace, name] of [
    ['training', 'training-queue'],
    ['research', 'research-queue'],
  ])
    rt.create(
      R.localqueues,
      clusterObject(
        kueue,
        'LocalQueue',
        name,
        createdAt,
        { clusterQueue: 'gpu-cluster-queue', stopPolicy: 'None' },
        namespace,
      ),
    );
  rt.create(
    R.kaiqueues,
    clusterObject('scheduling.run.ai/v2', 'Queue', 'research', createdAt, {
      displayName: 'Research',
      resources: {
        gpu: { quota: 16, limit: 32, overQuotaWeight: 1 },
        cpu: { quota: -1, limit: -1, overQuotaWeight: 1 },
        memory: { quota: -1, limit: -1, overQuotaWeight: 1 },
      },
    }),
  );
}

/**
 * Jobs that wait: training/queued-sft (2 × 8 GPUs) and research/mmlu-eval
 * (8 GPUs) queue behind the full ClusterQueue at positions 0 and 1, and
 * research/vlm-pretrain is a KAI gang of 8 pods × 8 GPUs that never fits.
 */
function createQueuedJobs(rt: ControlPlane['rt'], now: string, image: string): void {
  const queued = (
    namespace: string,
    name: string,
    queue: string,
    workers: number,
    labels: Record<string, string>,
  ): void => {
    rt.create(
      R.pytorchjobs,
      workload<TrainingJobObject>(
        'kubeflow.org/v1',
        'PyTorchJob',
        namespace,
        name,
        now,
        {
          runPolicy: { cleanPodPolicy: 'None', suspend: true, backoffLimit: 3 },
          pytorchReplicaSpecs: {
            Worker: {
              replicas: workers,
              restartPolicy: 'OnFailure',
              template: gpuTemplate('pytorch', image, 8, '48', '512Gi'),
            },
          },
        },
        { ...labels, [QUEUE_NAME_LABEL]: queue },
      ),
    );
  };
  queued('training', 'queued-sft', 'training-queue', 2, { team: 'nlp' });
  queued('research', 'mmlu-eval', 'research-queue', 1, { team: 'research' });

  const kai = (): PodTemplate =>
    gpuTemplate(
      'trainer',
      image,
      8,
      '64',
      '768Gi',
      { schedulerName: KAI_SCHEDULER_NAME },
      { [KAI_QUEUE_LABEL]: 'research' },
    );
  rt.create(
    R.pytorchjobs,
    workload<TrainingJobObject>(
      'kubeflow.org/v1',
      'PyTorchJob',
      'research',
      'vlm-pretrain',
      now,
      {
        runPolicy: {
          cleanPodPolicy: 'None',
          backoffLimit: 3,
          schedulingPolicy: { minAvailable: 8, queue: 'research' },
        },
        pytorchReplicaSpecs: {
          Master: { replicas: 1, restartPolicy: 'OnFailure', template: kai() },
          Worker: { replicas: 7, restartPolicy: 'OnFailure', template: kai() },
        },
      },
      { team: 'research', [KAI_QUEUE_LABEL]: 'research' },
    ),
  );
}
