// The DCGM overlay against trees and nodes: pod, role and workload rollups,
// stragglers judged within a role, idle counts, node and cluster means, and
// null (never 0) without metrics; GPU kinds by name on pods and nodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GpuMetrics, PodSummary, RoleTree, WorkloadTree } from '../../src/model/types.js';
import { indexReadings, DEFAULT_IDLE_RULE } from '../../src/model/utilisation.js';
import {
  clusterGpuUtilisation,
  nodeGpuUtilisation,
  podGpuRollup,
  roleGpu,
  workloadGpu,
} from '../../src/model/gpu-overlay.js';
import { ClusterStore } from '../../src/model/cluster-store.js';
import { gpuReading } from './gpu-fixtures.js';
import { node, pod } from './fixtures.js';

const NOW = 1_000_000;

function metrics(readings: ReturnType<typeof gpuReading>[]): GpuMetrics {
  return { readings: indexReadings(readings), notice: null, scrapedAt: NOW, idle: DEFAULT_IDLE_RULE };
}

const summary = (name: string): PodSummary =>
  ({ namespace: 'training', name, uid: name, status: 'Running', gpus: 1 }) as PodSummary;

function role(component: string, pods: PodSummary[], roles: RoleTree[] = []): RoleTree {
  return {
    component,
    instance: null,
    replica: null,
    replicas: { desired: pods.length, current: pods.length, ready: pods.length },
    gpus: { desired: pods.length, requested: pods.length, allocated: pods.length },
    nodes: [],
    pods,
    roles,
  };
}

const workers = role('worker', ['w-0', 'w-1', 'w-2', 'w-3'].map(summary));
const launcher = role('launcher', [summary('launcher')]);
const workload = { roles: [launcher, workers], unattributedPods: [] } as unknown as WorkloadTree;

const readings = [
  gpuReading('n1/a', 90, ['training/w-0']),
  gpuReading('n1/b', 88, ['training/w-1']),
  gpuReading('n2/c', 86, ['training/w-2']),
  gpuReading('n2/d', 20, ['training/w-3']),
  // The launcher idles (under 5 % for two minutes): idle, and not a straggler of the workers.
  gpuReading('n3/e', 1, ['training/launcher'], NOW - 120_000),
  gpuReading('n3/free', 0, []),
];

test('pod, role and workload rollups; stragglers within their role; idle GPUs counted', () => {
  const m = metrics(readings);
  assert.equal(podGpuRollup(m, summary('w-0'))?.utilisation, 90);
  assert.equal(podGpuRollup(m, summary('absent')), null, 'no reading: null, never 0');
  const r = roleGpu(m, workers);
  assert.equal(r.utilisation, (90 + 88 + 86 + 20) / 4);
  assert.deepEqual(
    r.stragglers.map((s) => s.pod),
    ['training/w-3'],
  );
  assert.equal(r.idle, 0);
  const w = workloadGpu(m, workload);
  assert.equal(w.idle, 1, 'the launcher');
  assert.equal(w.idleForMs, 120_000);
  assert.deepEqual(
    w.stragglers.map((s) => s.pod),
    ['training/w-3'],
    'the idle launcher is judged alone, not against the workers',
  );
});

test('node and cluster means: each GPU once; no metrics: null everywhere', () => {
  const m = metrics(readings);
  assert.equal(nodeGpuUtilisation(m, { name: 'n3' }), 0.5);
  assert.equal(nodeGpuUtilisation(m, { name: 'cpu' }), null);
  assert.equal(clusterGpuUtilisation(m), (90 + 88 + 86 + 20 + 1 + 0) / 6);
  assert.equal(clusterGpuUtilisation(undefined), null);
  assert.equal(roleGpu(undefined, workers).utilisation, null);
  assert.equal(workloadGpu(undefined, workload).idle, null, 'no metrics: idle unknown, not 0');
  assert.equal(nodeGpuUtilisation(undefined, { name: 'n1' }), null);
});

test('the store counts GPU kinds by name: a MIG slice on the pod and on its node, --gpu-resource names added', () => {
  const store = new ClusterStore({ definitions: [], gpuResources: ['example.com/vgpu'] });
  const n = node('mig-node', 0);
  n.metadata.labels = { ...n.metadata.labels, 'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-80GB' };
  n.status = {
    ...n.status,
    capacity: { 'nvidia.com/mig-1g.10gb': '56', 'example.com/vgpu': '4' },
    allocatable: { 'nvidia.com/mig-1g.10gb': '56', 'example.com/vgpu': '4' },
  };
  store.apply('node', 'ADDED', n);
  const p = pod('embedder', { node: 'mig-node', namespace: 'inference' });
  p.spec = { ...p.spec, containers: [{ name: 'main', resources: { limits: { 'nvidia.com/mig-1g.10gb': 1 } } }] };
  store.apply('pod', 'ADDED', p);
  store.flush();
  assert.deepEqual(store.orphanPods()[0]?.gpuResources ?? store.getNodePods('mig-node')[0]?.pod.gpuResources, {
    'nvidia.com/mig-1g.10gb': 1,
  });
  const summaryOf = store.nodes().find((x) => x.name === 'mig-node');
  assert.equal(summaryOf?.gpuModel, 'NVIDIA-A100-SXM4-80GB');
  assert.deepEqual(summaryOf?.gpuResources, {
    'nvidia.com/mig-1g.10gb': { capacity: 56, allocatable: 56, requested: 1 },
    'example.com/vgpu': { capacity: 4, allocatable: 4, requested: 0 },
  });
  assert.equal([...store.podObjects()].length, 1);
});

test('idle is unknown (null) while a running pod with GPUs has no reading, or a GPU is low since first seen', () => {
  const running = (name: string): PodSummary => ({ ...summary(name), phase: 'Running' });
  const pair = role('worker', [running('w-0'), running('w-1')]);
  const both = [gpuReading('n1/a', 90, ['training/w-0']), gpuReading('n1/b', 85, ['training/w-1'])];
  assert.equal(roleGpu(metrics(both), pair).idle, 0, 'both busy: known not idle');
  assert.equal(roleGpu(metrics(both.slice(0, 1)), pair).idle, null, 'w-1 runs with a GPU but no reading');
  // One DCGM scrape of a low GPU: first seen now, low since now.
  const fresh = [both[0], gpuReading('n1/b', 1, ['training/w-1'], NOW, NOW)];
  const g = roleGpu(metrics(fresh), pair);
  assert.equal(g.idle, null);
  assert.equal(g.idleForMs, null);
  assert.equal(g.utilisation, (90 + 1) / 2, 'the mean is known all the same');
});

test('a group names its least busy pod, sums power and counts GPUs with XID errors; the workload panel says so', async () => {
  const { gpuPanelLines } = await import('../../src/ui/render/panels.js');
  const withPower = readings.map((r, i) => ({ ...r, powerWatts: 300 + i, xid: r.key === 'n2/d' ? 79 : 0 }));
  const w = workloadGpu(metrics(withPower), workload);
  assert.deepEqual(w.lowest, { pod: 'training/launcher', utilisation: 1 });
  assert.equal(w.powerWatts, 300 + 301 + 302 + 303 + 304, 'the workload GPUs, not the free one');
  assert.equal(w.xidErrors, 1);
  assert.deepEqual(
    gpuPanelLines(w).map((l) => [l.text, l.tone]),
    [
      ['GPU util 57% · least busy launcher 1% · 1.5 kW', 'normal'],
      ['XID errors on 1 GPU: driver-reported GPU faults, check the node', 'error'],
    ],
  );
  const none = workloadGpu(undefined, workload);
  assert.equal(none.xidErrors, null, 'no metrics: unknown, not 0');
  assert.deepEqual(gpuPanelLines(none), [], 'no metrics: no line');
});

test('no pod reported by any exporter: the group says unknown while a running GPU pod goes unread, never 0', () => {
  const none = metrics([gpuReading('n3/free', 0, [])]);
  const running = (name: string, over: Partial<PodSummary> = {}) => ({ ...summary(name), phase: 'Running', ...over });
  const unreadGroup = workloadGpu(none, {
    roles: [role('worker', [running('w-0', { gpus: 0 }), running('w-1')])],
    unattributedPods: [],
  } as unknown as WorkloadTree);
  assert.deepEqual(unreadGroup, {
    utilisation: null,
    idle: null,
    idleForMs: null,
    stragglers: [],
    lowest: null,
    powerWatts: null,
    xidErrors: 0,
  });
  const settled = workloadGpu(none, {
    roles: [role('worker', [running('w-0', { gpus: 0 }), running('w-1', { phase: 'Pending' })])],
    unattributedPods: [],
  } as unknown as WorkloadTree);
  assert.equal(settled.idle, 0, 'no running pod holds a GPU: none is idle, and that is known');
  assert.equal(settled.utilisation, null);
  const dra = workloadGpu(none, {
    roles: [role('worker', [running('w-0', { gpus: 0, gpuResources: { 'gpu.nvidia.com': 1 } })])],
    unattributedPods: [],
  } as unknown as WorkloadTree);
  assert.equal(dra.idle, null, 'a GPU by another resource name is held too');
});
