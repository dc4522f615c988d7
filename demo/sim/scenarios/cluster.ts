// Nodes and namespaces as a kubelet and the namespace controller leave them:
// H100 GPU nodes (p5.48xlarge-like, 8 × nvidia.com/gpu, tainted
// nvidia.com/gpu=present:NoSchedule as the GPU operator's users commonly do)
// and plain CPU nodes, with the topology labels GPU clouds and NVIDIA's GPU
// feature discovery put on them (zone, rack, NVLink clique).
import { hash32 } from '../clock.js';
import type { Runtime } from '../runtime.js';
import { R, type NodeObject } from '../types.js';

export const GPU_PRODUCT = 'NVIDIA-H100-80GB-HBM3';
export const RACK_LABEL = 'network.topology.kubernetes.io/rack';
export const CLIQUE_LABEL = 'nvidia.com/gpu.clique';

export interface NodeShape {
  name: string;
  index: number; // for podCIDR and addresses
  gpus: number;
  zone: string;
  /** `network.topology.kubernetes.io/rack`; absent: unlabelled. */
  rack?: string;
  /** `nvidia.com/gpu.clique` (`nvlinkClique`), GPU nodes only; absent: unlabelled. */
  clique?: string;
}

/**
 * An NVLink domain's `nvidia.com/gpu.clique` value as GPU feature discovery writes it,
 * `<clusterUUID>.<cliqueID>`: the fabric's UUID (made from its name) and the clique within it.
 */
export function nvlinkClique(fabric: string, cliqueId: number): string {
  const hex = [1, 2, 3, 4].map((i) => hash32(`${fabric}#${i}`).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}.${cliqueId}`;
}

export function buildNode(rt: Runtime, shape: NodeShape, createdAt: string): NodeObject {
  const gpu = shape.gpus > 0;
  const n = shape.index;
  const ip = `10.0.${Math.floor(n / 250)}.${(n % 250) + 4}`;
  const h = (s: string): string => hash32(`${shape.name}/${s}`).toString(16).padStart(8, '0');
  const capacity: Record<string, string> = gpu
    ? {
        cpu: '192',
        'ephemeral-storage': '7498999640Ki',
        'hugepages-1Gi': '0',
        'hugepages-2Mi': '0',
        memory: '2097152000Ki',
        'nvidia.com/gpu': String(shape.gpus),
        pods: '110',
      }
    : {
        cpu: '32',
        'ephemeral-storage': '203056560Ki',
        'hugepages-1Gi': '0',
        'hugepages-2Mi': '0',
        memory: '131891712Ki',
        pods: '110',
      };
  const allocatable: Record<string, string> = gpu
    ? { ...capacity, cpu: '191450m', 'ephemeral-storage': '6910167258617', memory: '2085520384Ki' }
    : { ...capacity, cpu: '31850m', 'ephemeral-storage': '187136925592', memory: '127927296Ki' };
  const now = createdAt;
  const cond = (type: string, status: 'True' | 'False', reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
    reason,
    message,
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: shape.name,
      uid: rt.rng.uid(),
      resourceVersion: '',
      creationTimestamp: createdAt,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/instance-type': gpu ? 'p5.48xlarge' : 'm7i.8xlarge',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': shape.name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': gpu ? 'p5.48xlarge' : 'm7i.8xlarge',
        'topology.kubernetes.io/region': 'us-east-1',
        'topology.kubernetes.io/zone': shape.zone,
        ...(shape.rack ? { [RACK_LABEL]: shape.rack } : {}),
        ...(gpu && shape.clique ? { [CLIQUE_LABEL]: shape.clique } : {}),
        ...(gpu
          ? {
              'nvidia.com/gpu.present': 'true',
              'nvidia.com/gpu.product': GPU_PRODUCT,
              'nvidia.com/gpu.count': String(shape.gpus),
              'nvidia.com/gpu.memory': '81559',
              'nvidia.com/gpu.family': 'hopper',
              'nvidia.com/cuda.driver.major': '550',
              'nvidia.com/cuda.driver.minor': '90',
              'nvidia.com/cuda.runtime.major': '12',
              'nvidia.com/cuda.runtime.minor': '4',
              'nvidia.com/mig.capable': 'true',
              'feature.node.kubernetes.io/rdma.available': 'true',
            }
          : { 'node-role.kubernetes.io/system': '' }),
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        ...(gpu ? { 'nvidia.com/gpu-driver-upgrade-enabled': 'true' } : {}),
      },
    },
    spec: {
      podCIDR: `10.244.${n}.0/24`,
      podCIDRs: [`10.244.${n}.0/24`],
      providerID: `aws:///${shape.zone}/i-0${h('id')}${h('id2').slice(0, 8)}`,
      ...(gpu ? { taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }] } : {}),
    } as NodeObject['spec'],
    status: {
      capacity,
      allocatable,
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'InternalDNS', address: `ip-${ip.replace(/\./g, '-')}.ec2.internal` },
        { type: 'Hostname', address: shape.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: `${h('m1')}${h('m2')}${h('m3')}${h('m4')}`,
        systemUUID: `ec2${h('s1').slice(3)}-${h('s2').slice(0, 4)}-${h('s2').slice(4)}-${h('s3').slice(0, 4)}-${h('s3').slice(4)}${h('s4')}`,
        bootID: `${h('b1')}-${h('b2').slice(0, 4)}-${h('b2').slice(4)}-${h('b3').slice(0, 4)}-${h('b3').slice(4)}${h('b4')}`,
        kernelVersion: '6.8.0-1015-aws',
        osImage: 'Ubuntu 22.04.5 LTS',
        containerRuntimeVersion: 'containerd://1.7.22',
        kubeletVersion: 'v1.32.0',
        kubeProxyVersion: 'v1.32.0',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: [],
    },
  };
}

export function createNamespaces(rt: Runtime, names: string[], createdAt: string): void {
  for (const name of names) {
    rt.create(R.namespaces, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        uid: '',
        resourceVersion: '',
        creationTimestamp: createdAt,
        labels: { 'kubernetes.io/metadata.name': name },
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }
}

/** GPU pod scheduling constraints most GPU workloads carry. */
export const GPU_TOLERATIONS = [{ key: 'nvidia.com/gpu', operator: 'Exists' as const, effect: 'NoSchedule' }];
export const GPU_SELECTOR = { 'nvidia.com/gpu.product': GPU_PRODUCT };

/** requests == limits (Guaranteed QoS), as GPU jobs are usually written. */
export function guaranteed(
  cpu: string,
  memory: string,
  gpus: number,
): { requests: Record<string, string>; limits: Record<string, string> } {
  const r: Record<string, string> = { cpu, memory, ...(gpus ? { 'nvidia.com/gpu': String(gpus) } : {}) };
  return { requests: { ...r }, limits: { ...r } };
}
