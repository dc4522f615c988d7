import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/model/types.js';
import { gpuResourceMatcher } from '../../src/model/gpu.js';
import { draCapacity, type DraLookup } from '../../src/model/dra.js';
import { groupGpuTruth, nodeGpuTruth, podGpuTruth, type GpuTruthContext } from '../../src/model/gpu-truth.js';
import { indexReadings, type GpuReading } from '../../src/model/utilisation.js';

const GiB = 1024 ** 3;
const NOW = 10_000_000;

function pod(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ml', uid: `uid-${name}` }, spec };
}
const limits = (r: Record<string, number>) => ({ containers: [{ name: 'main', resources: { limits: r } }] });
const withClaim = (claim: string) => ({
  containers: [{ name: 'main', resources: { claims: [{ name: 'g' }] } }],
  resourceClaims: [{ name: 'g', resourceClaimName: claim }],
});

const sharedClaim: KubeObject = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name: 'shared', namespace: 'ml', uid: 'c1' },
  spec: { devices: { requests: [{ name: 'g', exactly: { deviceClassName: 'gpu.nvidia.com', count: 1 } }] } },
  status: {
    allocation: { devices: { results: [{ request: 'g', driver: 'gpu.nvidia.com', pool: 'dra-1', device: 'gpu-0' }] } },
  },
};
const lookup: DraLookup = (kind, ns, name) =>
  kind === 'ResourceClaim' && ns === 'ml' && name === 'shared' ? sharedClaim : undefined;

function reading(
  key: string,
  node: string,
  utilisation: number,
  pods: string[],
  lowSince: number | null = null,
): GpuReading {
  return {
    key,
    node,
    uuid: key,
    index: null,
    model: null,
    migProfile: null,
    migInstance: null,
    utilisation,
    memoryUsedBytes: 10 * GiB,
    memoryTotalBytes: 80 * GiB,
    powerWatts: null,
    xid: null,
    pods: pods.map((name) => ({ namespace: 'ml', name, container: 'main' })),
    at: NOW,
    lowSince,
  };
}

const ctx = (readings: GpuReading[]): GpuTruthContext => ({
  matches: gpuResourceMatcher(),
  readings: indexReadings(readings),
  draLookup: lookup,
  now: NOW,
});

test('a pod: util and memory from its GPUs, resources by name with its DRA claims; null without readings', () => {
  const c = ctx([reading('n1/a', 'n1', 80, ['trainer']), reading('n1/b', 'n1', 60, ['trainer'])]);
  assert.deepEqual(podGpuTruth(pod('trainer', limits({ 'nvidia.com/gpu': 2 })), c), {
    gpuUtilization: 70,
    gpuMemoryUsedBytes: 20 * GiB,
    gpuResources: { 'nvidia.com/gpu': 2 },
    draClaims: [],
  });
  const dra = podGpuTruth(pod('reranker', withClaim('shared')), c);
  assert.deepEqual(dra.gpuResources, { 'dra:gpu.nvidia.com': 1 });
  assert.equal(dra.gpuUtilization, null);
  assert.equal(dra.gpuMemoryUsedBytes, null);
});

test('a group: MIG and whole GPUs by name, a shared claim once, mean and idle over its GPUs', () => {
  const pods = [
    pod('a', limits({ 'nvidia.com/mig-1g.10gb': 1 })),
    pod('b', {
      ...withClaim('shared'),
      containers: [{ name: 'main', resources: { limits: { 'nvidia.com/gpu': 1 } } }],
    }),
    pod('c', withClaim('shared')),
  ];
  const g = groupGpuTruth(
    pods,
    ctx([
      reading('m/a', 'm', 3, ['a'], NOW - 120_000),
      reading('n/b', 'n', 91, ['b']),
      reading('d/0', 'd', 50, ['b', 'c']),
    ]),
  );
  assert.deepEqual(g.resources, { 'nvidia.com/mig-1g.10gb': 1, 'nvidia.com/gpu': 1, 'dra:gpu.nvidia.com': 1 });
  assert.equal(g.utilisation, (3 + 91 + 50) / 3);
  assert.equal(g.idle, 1);
  assert.equal(g.idleForMs, 120_000);
  assert.deepEqual(g.lowest, { pod: 'ml/a', utilisation: 3 });
});

test('a node: device-plugin and DRA capacity, requested by its pods, the model, its util', () => {
  const node: KubeObject = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'dra-1', uid: 'n', labels: { 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3' } },
    status: { capacity: { 'nvidia.com/gpu': '2' }, allocatable: { 'nvidia.com/gpu': '2' } },
  };
  const slice: KubeObject = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: 's', uid: 's' },
    spec: {
      driver: 'gpu.nvidia.com',
      nodeName: 'dra-1',
      pool: { name: 'dra-1', generation: 1, resourceSliceCount: 1 },
      devices: [{ name: 'gpu-0' }, { name: 'gpu-1' }],
    },
  };
  const truth = nodeGpuTruth(
    node,
    [
      pod('b', { ...limits({ 'nvidia.com/gpu': 1 }), resourceClaims: withClaim('shared').resourceClaims }),
      pod('c', withClaim('shared')),
    ],
    ctx([reading('dra-1/x', 'dra-1', 40, ['b']), reading('dra-1/y', 'dra-1', 0, [])]),
    draCapacity([slice], []),
  );
  assert.deepEqual(truth, {
    gpuUtilization: 20,
    gpuModel: 'NVIDIA-H100-80GB-HBM3',
    gpuResources: {
      'nvidia.com/gpu': { capacity: 2, allocatable: 2, requested: 1 },
      'dra:gpu.nvidia.com': { capacity: 2, allocatable: 2, requested: 1 },
    },
  });
  const bare = nodeGpuTruth({ metadata: { name: 'cpu', uid: 'c' } }, [], ctx([]), null);
  assert.deepEqual(bare, { gpuUtilization: null, gpuModel: null, gpuResources: {} });
});
