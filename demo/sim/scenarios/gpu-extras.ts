// GPU kinds beyond whole nvidia.com/gpu devices, added beside the default
// scenario's nodes (gpu-node-01 … 12 keep their 96 GPUs and every workload
// its placement): two A100 nodes partitioned with MIG (mixed strategy), one
// H100 node whose GPUs are handed out by NVIDIA's DRA driver, a pod on a MIG
// slice, a pod whose GPU comes from a ResourceClaim (with its template, the
// DeviceClasses and the node's ResourceSlice), and a dcgm-exporter pod (as
// the GPU Operator's DaemonSet makes them) on every GPU node.
//
// Everything is built settled (bound, Running) with its own random stream,
// so the default scenario's names, uids and timings are the same with or
// without these extras: the extras draw nothing from the runtime's PRNG and
// request nothing the scheduler weighs for GPU pods (MIG and DRA nodes do
// not match the H100 nodeSelector; the exporters request no resources).
import { resourceKey, type StoredObject } from '../../object-store.js';
import { draResourceKeys, type DraVersion } from '../../kinds-dra.js';
import { DEMO_TOPOLOGY_LEVELS, KUEUE_GROUP, KUEUE_VERSION } from '../../kinds-queueing.js';
import { hash32, Random } from '../clock.js';
import { buildPod, runningPodStatus } from '../pods.js';
import type { Runtime } from '../runtime.js';
import { R, type ContainerSpec, type NodeObject, type Pod, type PodTemplate } from '../types.js';
import { simGpuUuid } from '../dcgm.js';
import { buildNode, GPU_TOLERATIONS } from './cluster.js';

export const MIG_NODES = ['gpu-mig-node-01', 'gpu-mig-node-02'] as const;
export const DRA_NODE = 'gpu-dra-node-01';
export const GPU_OPERATOR_NAMESPACE = 'gpu-operator';
export const MIG_POD = { namespace: 'inference', name: 'mig-embedder' } as const;
export const DRA_POD = { namespace: 'inference', name: 'dra-reranker' } as const;
export const DRA_DRIVER = 'gpu.nvidia.com';
const A100 = 'NVIDIA-A100-SXM4-80GB';

export interface GpuExtrasOptions {
  seed: number;
  /** The resource.k8s.io version the server serves (v1beta1 for the demo's 1.32). */
  draVersion: DraVersion;
  /** Nodes that get an exporter pod besides the extras' own (the default scenario's GPU nodes). */
  gpuNodes: readonly string[];
}

export interface GpuExtras {
  nodes: string[];
  exporters: { namespace: string; name: string; node: string }[];
  claim: { namespace: string; name: string };
}

/** A view of the runtime whose PRNG is the extras' own (buildNode and buildPod draw from it). */
function withRng(rng: Random): Runtime {
  return { rng } as Pick<Runtime, 'rng'> as Runtime;
}

function meta(rng: Random, name: string, at: string, namespace?: string): StoredObject['metadata'] {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    uid: rng.uid(),
    resourceVersion: '',
    creationTimestamp: at,
  };
}

/**
 * A pod as the kubelet leaves it after a while: Running and Ready since `at`
 * on `node`. Kubelet.settle does the same with the runtime's PRNG and its own
 * address counter; here both are the extras' own (an address high in the
 * node's pod CIDR, the kubelet hands them out from the bottom), so the
 * default scenario's pods keep their container ids and addresses.
 */
function settle(rt: Runtime, pod: Pod, node: string, at: string, rng: Random): Pod {
  const n = rt.store.get(R.nodes, undefined, node) as NodeObject | undefined;
  const ip = `${(n?.spec.podCIDR ?? '10.244.0.0/24').split('.').slice(0, 3).join('.')}.${250 - (hash32(pod.metadata.name) % 40)}`;
  const hostIP = n?.status.addresses.find((a) => a.type === 'InternalIP')?.address ?? '10.0.0.1';
  pod.spec = { ...pod.spec, nodeName: node };
  pod.status = runningPodStatus(pod, {
    at,
    hostIP,
    podIP: ip,
    qosClass: 'BestEffort',
    imageID: (image) => `${image.split(':')[0]}@sha256:${rng.hex(64)}`,
    containerID: () => `containerd://${rng.hex(64)}`,
  });
  return pod;
}

function migNode(rng: Random, name: string, index: number, profile: string, perGpu: number, at: string): NodeObject {
  const node = buildNode(withRng(rng), { name, index, gpus: 8, zone: 'us-east-1b' }, at);
  const mig = `nvidia.com/mig-${profile}`;
  const strip = (q: Record<string, string>) => {
    const { ['nvidia.com/gpu']: _whole, ...rest } = q;
    return { ...rest, [mig]: String(8 * perGpu) };
  };
  node.status = { ...node.status, capacity: strip(node.status.capacity), allocatable: strip(node.status.allocatable) };
  node.metadata.labels = {
    ...node.metadata.labels,
    'beta.kubernetes.io/instance-type': 'p4de.24xlarge',
    'node.kubernetes.io/instance-type': 'p4de.24xlarge',
    'nvidia.com/gpu.product': A100,
    'nvidia.com/gpu.memory': '81920',
    'nvidia.com/gpu.family': 'ampere',
    'nvidia.com/mig.strategy': 'mixed',
    'nvidia.com/mig.config': `all-${profile}`,
    'nvidia.com/mig.config.state': 'success',
    [`nvidia.com/${mig.slice('nvidia.com/'.length)}.count`]: String(8 * perGpu),
  };
  return node;
}

function draNode(rng: Random, at: string): NodeObject {
  const node = buildNode(withRng(rng), { name: DRA_NODE, index: 15, gpus: 8, zone: 'us-east-1b' }, at);
  const strip = (q: Record<string, string>) => {
    const { ['nvidia.com/gpu']: _whole, ...rest } = q;
    return rest;
  };
  node.status = { ...node.status, capacity: strip(node.status.capacity), allocatable: strip(node.status.allocatable) };
  // No device plugin here: none of its labels, and above all not the H100 product label the default
  // scenario's GPU_SELECTOR matches, so stuck-pretrain's FitError still counts 12 whole H100 nodes.
  const {
    ['nvidia.com/gpu.product']: _product,
    ['nvidia.com/gpu.count']: _count,
    ...labels
  } = node.metadata.labels ?? {};
  node.metadata.labels = { ...labels, 'nvidia.com/dra-driver.present': 'true' };
  return node;
}

/** A v1 / v1beta2 request, or v1beta1's flat one. */
function request(version: DraVersion, name: string, deviceClassName: string, count: number): Record<string, unknown> {
  const body = { deviceClassName, allocationMode: 'ExactCount', count };
  return version === 'v1beta1' ? { name, ...body } : { name, exactly: body };
}

export function addGpuExtras(rt: Runtime, options: GpuExtrasOptions): GpuExtras {
  const rng = new Random(options.seed ^ 0x67707578); // "gpux": a stream of its own
  const keys = draResourceKeys(options.draVersion);
  const apiVersion = `resource.k8s.io/${options.draVersion}`;
  const now = rt.clock.now();
  const at = (hoursAgo: number) => rt.clock.iso(now - hoursAgo * 3_600_000 * rt.clock.speed);
  const nodeAt = at(1);

  const nodes = [
    migNode(rng, MIG_NODES[0], 13, '1g.10gb', 7, nodeAt),
    migNode(rng, MIG_NODES[1], 14, '3g.40gb', 2, nodeAt),
    draNode(rng, nodeAt),
  ];
  for (const n of nodes) rt.create(R.nodes, n);
  rt.create(R.namespaces, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      ...meta(rng, GPU_OPERATOR_NAMESPACE, nodeAt),
      labels: { 'kubernetes.io/metadata.name': GPU_OPERATOR_NAMESPACE },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  });

  // NVIDIA's DRA driver: its DeviceClasses and the node's slice.
  for (const [name, type] of [
    ['gpu.nvidia.com', 'gpu'],
    ['mig.nvidia.com', 'mig'],
  ] as const)
    rt.create(keys.deviceClasses, {
      apiVersion,
      kind: 'DeviceClass',
      metadata: meta(rng, name, nodeAt),
      spec: {
        selectors: [
          {
            cel: {
              expression: `device.driver == '${DRA_DRIVER}' && device.attributes['${DRA_DRIVER}'].type == '${type}'`,
            },
          },
        ],
      },
    });
  const devices = Array.from({ length: 8 }, (_, i) => {
    const body = {
      attributes: {
        type: { string: 'gpu' },
        index: { int: i },
        uuid: { string: simGpuUuid(DRA_NODE, i) },
        productName: { string: 'NVIDIA H100 80GB HBM3' },
        architecture: { string: 'Hopper' },
        brand: { string: 'Nvidia' },
        driverVersion: { version: '550.90.7' },
        cudaComputeCapability: { version: '9.0.0' },
      },
      capacity: { memory: { value: '81559Mi' } },
    };
    return options.draVersion === 'v1beta1' ? { name: `gpu-${i}`, basic: body } : { name: `gpu-${i}`, ...body };
  });
  rt.create(keys.resourceSlices, {
    apiVersion,
    kind: 'ResourceSlice',
    metadata: meta(rng, `${DRA_NODE}-${DRA_DRIVER}-${rng.suffix(5)}`, nodeAt),
    spec: {
      driver: DRA_DRIVER,
      nodeName: DRA_NODE,
      pool: { name: DRA_NODE, generation: 1, resourceSliceCount: 1 },
      devices,
    },
  });

  // The MIG pod and the DRA pod (bare pods, running for 20 minutes).
  const podAt = at(1 / 3);
  const template = (
    container: string,
    image: string,
    limits: Record<string, string>,
    extra: Partial<PodTemplate['spec']> = {},
  ): PodTemplate => ({
    metadata: { labels: { app: container } },
    spec: {
      containers: [
        {
          name: container,
          image,
          resources: {
            requests: { cpu: '4', memory: '16Gi', ...limits },
            limits: { cpu: '4', memory: '16Gi', ...limits },
          },
        },
      ],
      tolerations: GPU_TOLERATIONS,
      ...extra,
    },
  });
  const migPod = buildPod(
    {
      ...MIG_POD,
      template: template(
        'embedder',
        'nvcr.io/nvidia/tritonserver:24.07-py3',
        { 'nvidia.com/mig-1g.10gb': '1' },
        {
          nodeSelector: { 'nvidia.com/mig.strategy': 'mixed', 'kubernetes.io/hostname': MIG_NODES[0] },
        },
      ),
    },
    rng,
  );
  migPod.metadata = { ...migPod.metadata, uid: rng.uid(), creationTimestamp: podAt };
  rt.create(R.pods, settle(rt, migPod, MIG_NODES[0], podAt, rng));

  const claimTemplate = 'single-h100';
  rt.create(keys.resourceClaimTemplates, {
    apiVersion,
    kind: 'ResourceClaimTemplate',
    metadata: meta(rng, claimTemplate, podAt, DRA_POD.namespace),
    spec: { spec: { devices: { requests: [request(options.draVersion, 'gpu', 'gpu.nvidia.com', 1)] } } },
  });
  const draTemplate = template('reranker', 'vllm/vllm-openai:v0.6.3.post1', {});
  // The container names the pod's claim (resources.claims, a field the sim's types do not spell).
  draTemplate.spec.containers[0].resources = {
    ...draTemplate.spec.containers[0].resources,
    claims: [{ name: 'gpu' }],
  } as ContainerSpec['resources'];
  draTemplate.spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: claimTemplate }];
  const draPod = buildPod({ ...DRA_POD, template: draTemplate }, rng);
  draPod.metadata = { ...draPod.metadata, uid: rng.uid(), creationTimestamp: podAt };
  const claimName = `${DRA_POD.name}-gpu-${rng.suffix(5)}`;
  settle(rt, draPod, DRA_NODE, podAt, rng);
  draPod.status = {
    ...draPod.status,
    resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: claimName }],
  } as Pod['status'];
  rt.create(R.pods, draPod);
  rt.create(keys.resourceClaims, {
    apiVersion,
    kind: 'ResourceClaim',
    metadata: {
      ...meta(rng, claimName, podAt, DRA_POD.namespace),
      annotations: { 'resource.kubernetes.io/pod-claim-name': 'gpu' },
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          name: DRA_POD.name,
          uid: draPod.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { devices: { requests: [request(options.draVersion, 'gpu', 'gpu.nvidia.com', 1)] } },
    status: {
      allocation: {
        devices: { results: [{ request: 'gpu', driver: DRA_DRIVER, pool: DRA_NODE, device: 'gpu-0' }] },
        nodeSelector: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [DRA_NODE] }] }],
        },
      },
      reservedFor: [{ resource: 'pods', name: DRA_POD.name, uid: draPod.metadata.uid }],
    },
  });

  // A dcgm-exporter on every GPU node, owned by the GPU Operator's DaemonSet.
  const exporters = addDcgmExporters(rt, rng, [...options.gpuNodes, ...nodes.map((n) => n.metadata.name)], at(1));

  // Kueue's topology of the GPU nodes (zone, rack, host), for topology-aware views.
  rt.create(resourceKey(KUEUE_GROUP, KUEUE_VERSION, 'topologies'), {
    apiVersion: `${KUEUE_GROUP}/${KUEUE_VERSION}`,
    kind: 'Topology',
    metadata: meta(rng, 'gpu-topology', nodeAt),
    spec: { levels: DEMO_TOPOLOGY_LEVELS.map((nodeLabel) => ({ nodeLabel })) },
  });

  return {
    nodes: nodes.map((n) => n.metadata.name),
    exporters,
    claim: { namespace: DRA_POD.namespace, name: claimName },
  };
}

/**
 * A dcgm-exporter pod on each node (as the GPU Operator's DaemonSet makes them), settled since `at`,
 * drawing names and uids from `rng`.
 */
export function addDcgmExporters(
  rt: Runtime,
  rng: Random,
  gpuNodes: readonly string[],
  at: string,
): GpuExtras['exporters'] {
  const daemonSetUid = rng.uid();
  const exporters: GpuExtras['exporters'] = [];
  for (const node of gpuNodes) {
    const pod = buildPod(
      {
        namespace: GPU_OPERATOR_NAMESPACE,
        name: `nvidia-dcgm-exporter-${rng.suffix(5)}`,
        labels: {
          app: 'nvidia-dcgm-exporter',
          'controller-revision-hash': '6b9f7c8d5',
          'pod-template-generation': '1',
        },
        template: {
          spec: {
            containers: [
              {
                name: 'nvidia-dcgm-exporter',
                image: 'nvcr.io/nvidia/k8s/dcgm-exporter:3.3.7-3.5.0-ubuntu22.04',
                ports: [{ name: 'metrics', containerPort: 9400, protocol: 'TCP' }],
                env: [
                  { name: 'DCGM_EXPORTER_LISTEN', value: ':9400' },
                  { name: 'DCGM_EXPORTER_KUBERNETES', value: 'true' },
                  { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
                ],
              },
            ],
            tolerations: GPU_TOLERATIONS,
            priorityClassName: 'system-node-critical',
          },
        },
      },
      rng,
    );
    pod.metadata = {
      ...pod.metadata,
      uid: rng.uid(),
      creationTimestamp: at,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: 'nvidia-dcgm-exporter',
          uid: daemonSetUid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    };
    rt.create(R.pods, settle(rt, pod, node, at, rng));
    exporters.push({ namespace: GPU_OPERATOR_NAMESPACE, name: pod.metadata.name, node });
  }
  return exporters;
}
