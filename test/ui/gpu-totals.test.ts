// The header's GPU totals by kind (full and compact) and the node panel's GPU lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gpuHeadline } from '../../src/ui/render/header.js';
import { nodeGpuLines } from '../../src/ui/render/panels.js';
import { summariseNode, totalsOf } from '../../src/model/nodes.js';
import type { KubeObject } from '../../src/model/types.js';

function gpuNode(name: string, resources: Record<string, string>, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: name, labels },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

const GPU = ['nvidia.com/gpu'];
const mig = summariseNode(
  gpuNode(
    'mig',
    { 'nvidia.com/mig-1g.10gb': '56' },
    {
      'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB',
      'nvidia.com/mig.strategy': 'mixed',
      'nvidia.com/gpu.count': '8',
    },
  ),
  [{ gpus: 0, active: true, workload: null, resources: { 'nvidia.com/mig-1g.10gb': 1 } }],
  GPU,
);
const h100 = summariseNode(
  gpuNode('h100', { 'nvidia.com/gpu': '8' }),
  [{ gpus: 6, active: true, workload: null, resources: { 'nvidia.com/gpu': 6 } }],
  GPU,
);
const dra = summariseNode(
  gpuNode('dra', {}),
  [{ gpus: 1, active: true, workload: null, resources: { 'dra:gpu.nvidia.com': 1 } }],
  GPU,
  undefined,
  { 'dra:gpu.nvidia.com': 8 },
);

test('header: one GPU kind reads req/alloc; several, by kind (whole GPUs first), compact on a narrow screen', () => {
  const one = [h100];
  assert.equal(gpuHeadline({ totals: totalsOf(one, 1, 0), nodes: one }), '6/8 req/alloc  free 2  pending 0');
  const all = [dra, h100, mig];
  const totals = totalsOf(all, 3, 2);
  assert.equal(totals.gpuAllocatable, 16, 'DRA GPUs count with whole ones; MIG slices do not');
  assert.equal(
    gpuHeadline({ totals, nodes: all }, 160),
    '6/8 nvidia.com/gpu · 1/8 dra:gpu.nvidia.com · 1/56 mig-1g.10gb  pending 2',
  );
  assert.equal(gpuHeadline({ totals, nodes: all }, 80), '6/8 gpu · 1/8 dra:gpu · 1/56 1g.10gb  pending 2');
});

test('node panel: the model, MIG strategy and GPU count, then each kind; nothing for a node without GPUs', () => {
  assert.deepEqual(
    nodeGpuLines(mig).map((l) => l.text),
    [
      'GPU NVIDIA-A100-SXM4-80GB  mig.strategy mixed  gpu.count 8',
      '  mig-1g.10gb  capacity 56  allocatable 56  requested 1',
    ],
  );
  assert.deepEqual(
    nodeGpuLines(dra).map((l) => l.text),
    ['GPU -', '  dra:gpu.nvidia.com  capacity 8  allocatable 8  requested 1'],
  );
  const cpu = summariseNode(gpuNode('cpu', { cpu: '96' }), [], GPU);
  assert.deepEqual(nodeGpuLines(cpu), []);
});
