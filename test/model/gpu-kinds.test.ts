import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addGpuResources,
  gpuResourceKind,
  gpuResourceMatcher,
  nodeGpuModel,
  nodeGpuResources,
  podGpuRequest,
  podGpuResources,
} from '../../src/model/gpu.js';

const lim = (r: Record<string, number | string>) => ({ resources: { limits: r } });

test('the built-in GPU resource names, by pattern; Intel fractional resources are not GPUs', () => {
  const m = gpuResourceMatcher();
  for (const yes of [
    'nvidia.com/gpu',
    'nvidia.com/gpu.shared',
    'nvidia.com/mig-1g.10gb',
    'nvidia.com/mig-3g.40gb',
    'amd.com/gpu',
    'gpu.intel.com/i915',
    'gpu.intel.com/xe',
  ])
    assert.equal(m(yes), true, yes);
  for (const no of [
    'nvidia.com/mig-',
    'cpu',
    'memory',
    'gpu.intel.com/millicores',
    'gpu.intel.com/memory.max',
    'habana.ai/gaudi',
  ])
    assert.equal(m(no), false, no);
  const custom = gpuResourceMatcher(['habana.ai/gaudi', 'example.com/gpu-*']);
  assert.equal(custom('habana.ai/gaudi'), true);
  assert.equal(custom('example.com/gpu-shared-4'), true);
  assert.equal(custom('nvidia.com/gpu'), true, 'configured names add to the built-in ones');
});

test('what a resource name is: vendor, whole / MIG slice / shared, MIG profile', () => {
  assert.deepEqual(gpuResourceKind('nvidia.com/gpu'), { vendor: 'nvidia', kind: 'gpu', migProfile: null });
  assert.deepEqual(gpuResourceKind('nvidia.com/mig-2g.20gb'), { vendor: 'nvidia', kind: 'mig', migProfile: '2g.20gb' });
  assert.deepEqual(gpuResourceKind('nvidia.com/gpu.shared'), { vendor: 'nvidia', kind: 'shared', migProfile: null });
  assert.deepEqual(gpuResourceKind('example.com/gpu-shared'), { vendor: 'other', kind: 'shared', migProfile: null });
  assert.deepEqual(gpuResourceKind('amd.com/gpu'), { vendor: 'amd', kind: 'gpu', migProfile: null });
  assert.deepEqual(gpuResourceKind('gpu.intel.com/xe'), { vendor: 'intel', kind: 'gpu', migProfile: null });
});

test('a pod’s request per resource name, by the scheduler’s rules; podGpuRequest is unchanged', () => {
  const m = gpuResourceMatcher();
  const spec = {
    initContainers: [lim({ 'nvidia.com/mig-1g.10gb': 2 })],
    containers: [
      lim({ 'nvidia.com/mig-1g.10gb': 1, cpu: 4 }),
      lim({ 'nvidia.com/gpu.shared': 1 }),
      lim({ 'amd.com/gpu': '2', 'gpu.intel.com/millicores': 500 }),
    ],
  };
  assert.deepEqual(podGpuResources(spec, m), {
    'amd.com/gpu': 2,
    'nvidia.com/gpu.shared': 1,
    'nvidia.com/mig-1g.10gb': 2,
  });
  assert.equal(podGpuRequest(spec), 2, 'the default list (nvidia.com/gpu, amd.com/gpu) as before');
  assert.deepEqual(podGpuResources({ containers: [{ name: 'cpu' }] }, m), {});
  assert.deepEqual(podGpuResources(undefined, m), {});
  assert.deepEqual(
    podGpuResources({ containers: [lim({ 'nvidia.com/gpu': 0 })] }, m),
    {},
    'a zero request is no GPU resource',
  );
});

test('a node’s GPU resources by name; rollups add by name', () => {
  const m = gpuResourceMatcher();
  const status = {
    capacity: { cpu: '128', 'nvidia.com/gpu': '0', 'nvidia.com/mig-1g.10gb': '14', 'nvidia.com/mig-3g.40gb': '4' },
    allocatable: { cpu: '127', 'nvidia.com/mig-1g.10gb': '13', 'nvidia.com/mig-3g.40gb': '4' },
  };
  assert.deepEqual(nodeGpuResources(status, m), {
    'nvidia.com/mig-1g.10gb': { capacity: 14, allocatable: 13 },
    'nvidia.com/mig-3g.40gb': { capacity: 4, allocatable: 4 },
  });
  assert.deepEqual(nodeGpuResources(undefined, m), {});
  const sum: Record<string, number> = {};
  addGpuResources(sum, { 'nvidia.com/gpu': 4 });
  addGpuResources(sum, { 'nvidia.com/gpu': 4, 'nvidia.com/mig-1g.10gb': 1 });
  assert.deepEqual(sum, { 'nvidia.com/gpu': 8, 'nvidia.com/mig-1g.10gb': 1 });
});

test('the GPU model from feature-discovery labels', () => {
  assert.deepEqual(
    nodeGpuModel({
      'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB',
      'nvidia.com/mig.strategy': 'mixed',
      'nvidia.com/gpu.count': '8',
      'nvidia.com/gpu.memory': '81920',
    }),
    { product: 'NVIDIA-A100-SXM4-80GB', migStrategy: 'mixed', count: 8, memoryMiB: 81920 },
  );
  assert.deepEqual(nodeGpuModel({ 'nvidia.com/gpu.count': 'eight' }), {
    product: null,
    migStrategy: null,
    count: null,
    memoryMiB: null,
  });
  assert.equal(nodeGpuModel({ 'gpu.intel.com/product': 'Max_1550' }).product, 'Max_1550');
  assert.equal(nodeGpuModel(undefined).product, null);
});
