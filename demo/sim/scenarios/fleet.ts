// The fleet scenario (`wlx demo serve --fleet`; documented in
// scenarios/README.md): three clusters, each its own store and control plane.
//
// manager — Kueue with MultiKueue and no GPU node: AdmissionCheck multikueue
//   (MultiKueueConfig multikueue-config: workers east and west, each a
//   MultiKueueCluster whose kubeconfig is a Secret), ClusterQueue
//   gpu-cluster-queue (64 GPUs of quota, the check), LocalQueue
//   training/training-queue, and two PyTorchJobs managed by MultiKueue:
//   training/llm-sft (Master 1 + Worker 1, 4 H100 GPUs each) runs on east;
//   training/llm-pretrain-70b (Worker 4 × 8 GPUs) has quota on the manager
//   but no worker has room, so it waits with its check Pending.
// east — 4 H100 nodes and a CPU node: inference/llama-70b (LeaderWorkerSet,
//   1 group of 2 × 8 GPUs, running for a day, not queued); Kueue's
//   gpu-cluster-queue (16 GPUs: llm-sft's 8 fit, llm-pretrain-70b's 32 do not).
// west — 2 A100 nodes, the MIG and DRA nodes of gpu-extras.ts and a CPU node
//   (region us-west-2): training/resnet-finetune (PyTorchJob, 3 × 4 A100 GPUs
//   through Kueue's gpu-cluster-queue of 16, leaving 4), the MIG and DRA pods.
// Both workers have a dcgm-exporter on every GPU node and the manager's
// LocalQueue (MultiKueue copies keep their queue name).
import type { LeaderWorkerSetObject } from '../controllers/lws.js';
import type { TrainingJobObject } from '../controllers/kubeflow.js';
import type { ControlPlane } from '../assemble.js';
import { Random } from '../clock.js';
import { R, type NodeObject } from '../types.js';
import { buildNode, createNamespaces, nvlinkClique } from './cluster.js';
import { buildSettled, clusterObject, gpuTemplate, workload } from './default.js';
import { addDcgmExporters, addGpuExtras } from './gpu-extras.js';
import { QUEUE_NAME_LABEL } from '../../kinds-queueing.js';
import { MULTIKUEUE_CONTROLLER, MULTIKUEUE_MANAGED_BY } from '../../kinds-multikueue.js';
import type { DraVersion } from '../../kinds-dra.js';

export type FleetMember = 'manager' | 'east' | 'west';

/** The MultiKueue admission check, its config, and the workers' MultiKueueCluster names. */
export const FLEET_ADMISSION_CHECK = 'multikueue';
export const FLEET_WORKERS = ['east', 'west'] as const;
/** The PyTorchJob that runs on east, and the one no worker has room for. */
export const FLEET_DISPATCHED = { namespace: 'training', name: 'llm-sft' } as const;
export const FLEET_WAITING = { namespace: 'training', name: 'llm-pretrain-70b' } as const;

const KUEUE = 'kueue.x-k8s.io/v1beta2';
const A100 = 'NVIDIA-A100-SXM4-80GB';
const A100_SELECTOR = { 'nvidia.com/gpu.product': A100 };
const PYTORCH = 'nvcr.io/nvidia/pytorch:24.07-py3';

function hoursAgo(plane: ControlPlane, hours: number): string {
  const clock = plane.rt.clock;
  return clock.iso(clock.now() - hours * 3_600_000 * clock.speed);
}

/** A cluster's Kueue: one flavor, gpu-cluster-queue with its GPU quota, the LocalQueue training/training-queue. */
function createKueue(plane: ControlPlane, flavor: string, gpus: number, at: string, checks: string[] = []): void {
  const rt = plane.rt;
  rt.create(R.resourceflavors, clusterObject(KUEUE, 'ResourceFlavor', flavor, at, {}));
  rt.create(
    R.clusterqueues,
    clusterObject(KUEUE, 'ClusterQueue', 'gpu-cluster-queue', at, {
      namespaceSelector: {},
      queueingStrategy: 'BestEffortFIFO',
      stopPolicy: 'None',
      ...(checks.length ? { admissionChecksStrategy: { admissionChecks: checks.map((name) => ({ name })) } } : {}),
      resourceGroups: [
        {
          coveredResources: ['cpu', 'memory', 'nvidia.com/gpu'],
          flavors: [
            {
              name: flavor,
              resources: [
                { name: 'cpu', nominalQuota: '1000' },
                { name: 'memory', nominalQuota: '16Ti' },
                { name: 'nvidia.com/gpu', nominalQuota: String(gpus) },
              ],
            },
          ],
        },
      ],
    }),
  );
  rt.create(
    R.localqueues,
    clusterObject(
      KUEUE,
      'LocalQueue',
      'training-queue',
      at,
      { clusterQueue: 'gpu-cluster-queue', stopPolicy: 'None' },
      'training',
    ),
  );
}

/** A condition as the object's controller last wrote it, long ago. */
function activeStatus(at: string, reason: string, message: string): Record<string, unknown> {
  return { conditions: [{ type: 'Active', status: 'True', reason, message, lastTransitionTime: at }] };
}

function trainingJob(
  plane: ControlPlane,
  name: string,
  specs: Record<string, { replicas: number; gpus: number }>,
  extra: { managedBy?: string; selector?: Record<string, string> },
): TrainingJobObject {
  const replicaSpecs: TrainingJobObject['spec']['pytorchReplicaSpecs'] = {};
  for (const [type, s] of Object.entries(specs))
    replicaSpecs[type] = {
      replicas: s.replicas,
      restartPolicy: 'OnFailure',
      template: gpuTemplate(
        'pytorch',
        PYTORCH,
        s.gpus,
        '32',
        '256Gi',
        extra.selector ? { nodeSelector: extra.selector } : {},
      ),
    };
  return workload<TrainingJobObject>(
    'kubeflow.org/v1',
    'PyTorchJob',
    'training',
    name,
    plane.rt.clock.iso(),
    {
      runPolicy: {
        cleanPodPolicy: 'None',
        suspend: true,
        backoffLimit: 3,
        ...(extra.managedBy ? { managedBy: extra.managedBy } : {}),
      },
      pytorchReplicaSpecs: replicaSpecs,
    },
    { team: 'nlp', [QUEUE_NAME_LABEL]: 'training-queue' },
  );
}

/** The manager: Kueue with MultiKueue, two CPU nodes, two jobs for the workers. */
export function createFleetManager(plane: ControlPlane): void {
  const rt = plane.rt;
  const long = hoursAgo(plane, 48);
  for (let i = 1; i <= 2; i++)
    rt.create(R.nodes, buildNode(rt, { name: `cpu-node-0${i}`, index: 100 + i, gpus: 0, zone: 'us-east-1a' }, long));
  createNamespaces(rt, ['default', 'kube-system', 'kueue-system', 'training'], long);
  const config = 'multikueue-config';
  const check = clusterObject(KUEUE, 'AdmissionCheck', FLEET_ADMISSION_CHECK, long, {
    controllerName: MULTIKUEUE_CONTROLLER,
    parameters: { apiGroup: 'kueue.x-k8s.io', kind: 'MultiKueueConfig', name: config },
  });
  rt.create(R.admissionchecks, { ...check, status: activeStatus(long, 'Active', 'The admission check is active') });
  rt.create(
    R.multikueueconfigs,
    clusterObject(KUEUE, 'MultiKueueConfig', config, long, { clusters: [...FLEET_WORKERS] }),
  );
  for (const worker of FLEET_WORKERS) {
    const cluster = clusterObject(KUEUE, 'MultiKueueCluster', worker, long, {
      clusterSource: { kubeConfig: { locationType: 'Secret', location: `${worker}-kubeconfig` } },
    });
    rt.create(R.multikueueclusters, { ...cluster, status: activeStatus(long, 'Active', 'Connected') });
  }
  createKueue(plane, 'default-flavor', 64, long, [FLEET_ADMISSION_CHECK]);
  const mk = { managedBy: MULTIKUEUE_MANAGED_BY };
  rt.create(
    R.pytorchjobs,
    trainingJob(
      plane,
      FLEET_DISPATCHED.name,
      {
        Master: { replicas: 1, gpus: 4 },
        Worker: { replicas: 1, gpus: 4 },
      },
      mk,
    ),
  );
  rt.create(R.pytorchjobs, trainingJob(plane, FLEET_WAITING.name, { Worker: { replicas: 4, gpus: 8 } }, mk));
  plane.kueue.sync();
}

/** East: four H100 nodes, a day-old LeaderWorkerSet, Kueue with room for 16 GPUs. */
export function createFleetEast(plane: ControlPlane, seed: number): void {
  const rt = plane.rt;
  const long = hoursAgo(plane, 48);
  const gpuNodes: string[] = [];
  for (let i = 1; i <= 4; i++) {
    const name = `gpu-node-0${i}`;
    const shape = { name, index: i, gpus: 8, zone: 'us-east-1a', rack: 'rack-1', clique: nvlinkClique('east-1', 1) };
    rt.create(R.nodes, buildNode(rt, shape, long));
    gpuNodes.push(name);
  }
  rt.create(R.nodes, buildNode(rt, { name: 'cpu-node-01', index: 101, gpus: 0, zone: 'us-east-1a' }, long));
  createNamespaces(rt, ['default', 'kube-system', 'gpu-operator', 'training', 'inference'], long);
  createKueue(plane, 'h100', 16, long);
  buildSettled(plane, hoursAgo(plane, 26), (createdAt) => {
    const vllm = gpuTemplate('vllm', 'vllm/vllm-openai:v0.6.3.post1', 8, '96', '1Ti');
    rt.create(
      R.leaderworkersets,
      workload<LeaderWorkerSetObject>(
        'leaderworkerset.x-k8s.io/v1',
        'LeaderWorkerSet',
        'inference',
        'llama-70b',
        createdAt,
        {
          replicas: 1,
          startupPolicy: 'LeaderCreated',
          leaderWorkerTemplate: {
            size: 2,
            restartPolicy: 'RecreateGroupOnPodRestart',
            leaderTemplate: vllm,
            workerTemplate: vllm,
          },
        },
        { app: 'llama-70b' },
      ),
    );
  });
  addDcgmExporters(rt, new Random(seed ^ 0x65617374), gpuNodes, long);
}

/** A100 nodes: whole GPUs (device plugin), GFD's A100 labels. */
function a100Node(plane: ControlPlane, name: string, index: number, zone: string, at: string): NodeObject {
  const node = buildNode(
    plane.rt,
    { name, index, gpus: 8, zone, rack: 'rack-w1', clique: nvlinkClique('west-1', 1) },
    at,
  );
  node.metadata.labels = {
    ...node.metadata.labels,
    'beta.kubernetes.io/instance-type': 'p4de.24xlarge',
    'node.kubernetes.io/instance-type': 'p4de.24xlarge',
    'nvidia.com/gpu.product': A100,
    'nvidia.com/gpu.family': 'ampere',
  };
  return node;
}

/** West: A100 nodes, MIG and DRA nodes, a queued fine-tune (us-west-2). */
export function createFleetWest(plane: ControlPlane, seed: number, draVersion: DraVersion | undefined): void {
  const rt = plane.rt;
  const long = hoursAgo(plane, 48);
  const gpuNodes = ['a100-node-01', 'a100-node-02'];
  gpuNodes.forEach((name, i) => rt.create(R.nodes, a100Node(plane, name, i + 1, 'us-west-2a', long)));
  rt.create(R.nodes, buildNode(rt, { name: 'cpu-node-01', index: 101, gpus: 0, zone: 'us-west-2a' }, long));
  createNamespaces(rt, ['default', 'kube-system', 'training', 'inference', 'research'], long);
  if (draVersion) addGpuExtras(rt, { seed, draVersion, gpuNodes });
  else addDcgmExporters(rt, new Random(seed ^ 0x77657374), gpuNodes, long);
  // buildNode writes us-east-1: these nodes are in Oregon.
  for (const node of rt.store.list(R.nodes) as NodeObject[]) {
    const labels = node.metadata.labels ?? {};
    const zone = labels['topology.kubernetes.io/zone']?.replace('us-east-1', 'us-west-2');
    rt.update(
      R.nodes,
      node,
      {},
      {
        labels: {
          ...labels,
          'topology.kubernetes.io/region': 'us-west-2',
          ...(zone ? { 'topology.kubernetes.io/zone': zone } : {}),
        },
      },
    );
  }
  createKueue(plane, 'a100', 16, long);
  rt.create(
    R.pytorchjobs,
    trainingJob(plane, 'resnet-finetune', { Worker: { replicas: 3, gpus: 4 } }, { selector: A100_SELECTOR }),
  );
  plane.kueue.sync();
}
