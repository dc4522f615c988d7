import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podGpuRequest, nodeGpuAmount } from '../../src/model/gpu.js';
import { parseQuantity } from '../../src/model/quantity.js';

const gpu = (n: number | string, field: 'requests' | 'limits' = 'requests') => ({ [field]: { 'nvidia.com/gpu': n } });

test('app containers are summed; a request defaults to the limit', () => {
  assert.equal(podGpuRequest({ containers: [{ resources: gpu(2) }, { resources: gpu('3', 'limits') }] }), 5);
  // An explicit request wins over the limit.
  assert.equal(
    podGpuRequest({
      containers: [{ resources: { requests: { 'nvidia.com/gpu': 1 }, limits: { 'nvidia.com/gpu': 4 } } }],
    }),
    1,
  );
  assert.equal(podGpuRequest({ containers: [{ name: 'cpu-only' }] }), 0);
  assert.equal(podGpuRequest(undefined), 0);
});

test('the largest init container wins when it exceeds the app containers', () => {
  const spec = { initContainers: [{ resources: gpu(4) }, { resources: gpu(8) }], containers: [{ resources: gpu(2) }] };
  assert.equal(podGpuRequest(spec), 8);
  assert.equal(podGpuRequest({ ...spec, containers: [{ resources: gpu(9) }] }), 9);
});

test('sidecars (restartPolicy Always) add to the app containers and to later init containers', () => {
  const spec = {
    initContainers: [{ restartPolicy: 'Always', resources: gpu(1) }, { resources: gpu(4) }],
    containers: [{ resources: gpu(2) }],
  };
  // Init peak: 4 + 1 (sidecar already running) = 5; steady state 2 + 1 = 3.
  assert.equal(podGpuRequest(spec), 5);
  assert.equal(podGpuRequest({ ...spec, containers: [{ resources: gpu(6) }] }), 7);
});

test('pod overhead is added; a pod-level request replaces the container sum', () => {
  assert.equal(podGpuRequest({ containers: [{ resources: gpu(2) }], overhead: { 'nvidia.com/gpu': '1' } }), 3);
  assert.equal(podGpuRequest({ containers: [{ resources: gpu(2) }], resources: gpu(4) }), 4);
});

test('amd.com/gpu counts by default; custom resource names replace the defaults', () => {
  const spec = {
    containers: [{ resources: { limits: { 'amd.com/gpu': 2, 'nvidia.com/gpu': 1, 'habana.ai/gaudi': 8 } } }],
  };
  assert.equal(podGpuRequest(spec), 3);
  assert.equal(podGpuRequest(spec, ['habana.ai/gaudi']), 8);
  assert.equal(podGpuRequest(spec, ['nvidia.com/gpu']), 1);
});

test('quantities: integers, strings, suffixes; garbage reads as 0', () => {
  assert.equal(parseQuantity('8'), 8);
  assert.equal(parseQuantity(2), 2);
  assert.equal(parseQuantity('1k'), 1000);
  assert.equal(parseQuantity('1Ki'), 1024);
  assert.equal(parseQuantity('500m'), 0.5);
  assert.equal(parseQuantity('2e3'), 2000);
  assert.equal(parseQuantity('eight'), 0);
  assert.equal(parseQuantity({}), 0);
  assert.equal(nodeGpuAmount({ 'nvidia.com/gpu': '8', cpu: '96' }, ['nvidia.com/gpu', 'amd.com/gpu']), 8);
});
