import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/model/types.js';
import { gpuResourceMatcher } from '../../src/model/gpu.js';
import { draCapacity, type DraLookup } from '../../src/model/dra.js';
import { groupGpuTruth, nodeGpuTruth, podGpuTruth, type GpuTruthContext } from '../../src/model/gpu-truth.js';
import { indexReadings, type GpuReading } from '../../src/model/utilisation.js';
import { GiB, gpuReading } from './gpu-fixtures.js';

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

const ctx = (readings: GpuReading[]): GpuTruthContext => ({
  matches: gpuResourceMatcher(),
  readings: indexReadings(readings),
  draLookup: lookup,
  now: NOW,
});

test('a pod: util and memory from its GPUs, resources by name with its DRA claims; null without readings', () => {
  const c = ctx([gpuReading('n1/a', 80, ['ml/trainer']), gpuReading('n1/b', 60, ['ml/trainer'])]);
  assert.deepEqual(podGpuTruth(pod('trainer', limits({ 'nvidia.com/gpu': 2 })), c), {
    gpuUtilization: 70,
    gpuMemoryUsedBytes: 80 * GiB,
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
      gpuReading('m/a', 3, ['ml/a'], NOW - 120_000),
      gpuReading('n/b', 91, ['ml/b']),
      gpuReading('d/0', 50, ['ml/b', 'ml/c']),
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
    ctx([gpuReading('dra-1/x', 40, ['ml/b']), gpuReading('dra-1/y', 0, [])]),
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
