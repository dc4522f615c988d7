// The UTIL / MEM overlay on tables: no columns before any scrape, `-` where
// nothing reports, idle and slow marked in text, rows reused within a scrape,
// sortable by util; the header's mean and kinds; :nodes' GPU KIND.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GpuMetrics, NodeSummary, PodSummary, WorkloadTree } from '../../src/model/types.js';
import { DEFAULT_IDLE_RULE, indexReadings } from '../../src/model/utilisation.js';
import { GpuOverlayMemo, memText, utilText, withPodUtil, withWorkloadUtil } from '../../src/ui/render/gpu-columns.js';
import { podRow, POD_COLUMNS } from '../../src/ui/render/pods.js';
import { workloadRow, WORKLOAD_COLUMNS } from '../../src/ui/render/workloads.js';
import { gpuKindTotals } from '../../src/ui/render/header.js';
import { domainNodeTable, nodeGpuKinds, nodeTable } from '../../src/ui/render/nodes.js';
import { formatLine, layoutColumns } from '../../src/ui/render/table.js';
import { sortRows } from '../../src/ui/state/derive.js';
import { gpuReading, GiB } from '../model/gpu-fixtures.js';

const NOW = 500_000;
const metrics = (rs: ReturnType<typeof gpuReading>[]): GpuMetrics => ({
  readings: indexReadings(rs),
  notice: null,
  scrapedAt: NOW,
  idle: DEFAULT_IDLE_RULE,
});

const pod = (name: string): PodSummary => ({
  namespace: 'ml',
  name,
  uid: name,
  status: 'Running',
  phase: 'Running',
  ready: true,
  node: 'n1',
  gpus: 1,
  restarts: 0,
  reason: null,
  readyContainers: '1/1',
  message: null,
  createdAt: null,
});

test('pod lists under churn: the same rows keep their overlaid array; a patched copy is overlaid where it changed', () => {
  const pods = ['a', 'b', 'c'].map(pod);
  // The explorer's memo (its RowCache holds one): the same across calls.
  const memo = new GpuOverlayMemo();
  const rows = pods.map((p) => podRow(p, 'w', false));
  const table = { columns: POD_COLUMNS, rows };
  const m = metrics([gpuReading('n1/0', 80, ['ml/a']), gpuReading('n1/1', 40, ['ml/c'])]);
  const first = withPodUtil(table, m, memo);
  assert.equal(
    withPodUtil({ columns: POD_COLUMNS, rows }, m, memo).rows,
    first.rows,
    'nothing changed: the same array',
  );
  // c restarted: only its row is overlaid again, in place.
  const patched = rows.slice();
  patched[2] = podRow({ ...pods[2], restarts: 3 }, 'w', false);
  const second = withPodUtil({ columns: POD_COLUMNS, rows: patched }, m, memo);
  assert.notEqual(second.rows, first.rows);
  assert.equal(second.rows[0], first.rows[0]);
  assert.equal(second.rows[1], first.rows[1]);
  assert.notEqual(second.rows[2], first.rows[2]);
  const names = second.columns.map((c) => c.name);
  assert.equal(second.rows[2].cells[names.indexOf('UTIL')], '40%');
  assert.equal(second.rows[2].cells[names.indexOf('RESTARTS')], '3');
  // A new scrape overlays every row again.
  const m2 = metrics([gpuReading('n1/0', 10, ['ml/a'])]);
  const third = withPodUtil({ columns: POD_COLUMNS, rows: patched }, m2, memo);
  assert.equal(third.rows[0].cells[names.indexOf('UTIL')], '10%');
  assert.equal(third.rows[2].cells[names.indexOf('UTIL')], '-');
});

test('pod lists: UTIL and MEM after GPUS, `-` without a reading, idle marked, sorted by util', () => {
  const pods = ['a', 'b', 'c'].map(pod);
  // The explorer's memo (its RowCache holds one): the same across calls.
  const memo = new GpuOverlayMemo();
  const table = { columns: POD_COLUMNS, rows: pods.map((p) => podRow(p, 'w', false)) };
  assert.equal(withPodUtil(table, undefined), table, 'no scrape yet: the table as it was');
  const m = metrics([gpuReading('n1/0', 80, ['ml/a']), gpuReading('n1/1', 2, ['ml/b'], NOW - 90_000)]);
  const out = withPodUtil(table, m, memo);
  const names = out.columns.map((c) => c.name);
  assert.deepEqual(names.slice(names.indexOf('NODE'), names.indexOf('NODE') + 3), ['NODE', 'UTIL', 'MEM']);
  const cell = (i: number, col: string) => out.rows[i].cells[names.indexOf(col)];
  assert.equal(cell(0, 'UTIL'), '80%');
  assert.equal(cell(0, 'MEM'), '40/80G');
  assert.equal(cell(1, 'UTIL'), '2% idle');
  assert.equal(out.rows[1].tone, 'warn');
  assert.equal(cell(2, 'UTIL'), '-');
  assert.equal(withPodUtil(table, m, memo).rows[0], out.rows[0], 'one row per row and scrape');
  assert.notEqual(withPodUtil(table, m).rows[0], out.rows[0], 'another memo overlays afresh');
  assert.deepEqual(
    sortRows(out.rows, { key: 'util', desc: true }, true).map((r) => r.key),
    ['a', 'b', 'c'],
  );
});

test('workloads: the mean with idle and slow markers', () => {
  const w = {
    uid: 'u1',
    namespace: 'ml',
    name: 'train',
    kind: 'PyTorchJob',
    status: ['Running'],
    replicas: { desired: 3, current: 3, ready: 3 },
    gpus: { desired: 3, requested: 3, allocated: 3 },
    roles: [
      {
        component: 'worker',
        instance: null,
        replica: null,
        replicas: { desired: 3, current: 3, ready: 3 },
        gpus: { desired: 3, requested: 3, allocated: 3 },
        nodes: [],
        pods: ['a', 'b', 'c'].map(pod),
        roles: [],
      },
    ],
    unattributedPods: [],
    gangs: [],
    createdAt: null,
    statusMessage: null,
    errors: [],
  } as unknown as WorkloadTree;
  const table = { columns: WORKLOAD_COLUMNS, rows: [workloadRow(w)] };
  const m = metrics([
    gpuReading('n1/0', 90, ['ml/a']),
    gpuReading('n1/1', 90, ['ml/b']),
    gpuReading('n1/2', 30, ['ml/c']),
  ]);
  const out = withWorkloadUtil(table, [w], m);
  assert.equal(out.rows[0].cells[out.columns.findIndex((c) => c.name === 'UTIL')], '70% slow');
});

test('formats, the header kinds and :nodes GPU KIND', () => {
  assert.equal(utilText(null), '-');
  assert.equal(utilText(87.4), '87%');
  assert.equal(memText(null, null), '-');
  assert.equal(memText(69 * GiB, 80 * GiB), '69/80G');
  const n = {
    name: 'mig-1',
    ready: true,
    gpuCapacity: 0,
    gpuAllocatable: 0,
    gpuRequested: 0,
    pods: 1,
    unschedulable: false,
    conditions: [],
    taints: [],
    labels: {},
    createdAt: null,
    workloads: [],
    gpuModel: 'NVIDIA-A100-SXM4-80GB',
    gpuResources: { 'nvidia.com/mig-1g.10gb': { capacity: 56, allocatable: 56, requested: 1 } },
  } as NodeSummary;
  const h100 = {
    ...n,
    name: 'h100',
    gpuModel: 'NVIDIA-H100-80GB-HBM3',
    gpuResources: { 'nvidia.com/gpu': { capacity: 8, allocatable: 8, requested: 8 } },
  };
  assert.equal(nodeGpuKinds(n), '56 mig-1g.10gb');
  assert.equal(nodeGpuKinds(h100), '8 H100-80GB-HBM3');
  assert.equal(gpuKindTotals([n, h100]), '  +56 mig-1g.10gb');
  assert.ok(!nodeTable([n]).columns.some((c) => c.name === 'UTIL'), 'no scrape: no GPU columns');
  const withMetrics = nodeTable([n], metrics([gpuReading('mig-1/0', 40, ['ml/x'])]));
  const names = withMetrics.columns.map((c) => c.name);
  assert.equal(withMetrics.rows[0].cells[names.indexOf('UTIL')], '40%');
  assert.equal(withMetrics.rows[0].cells[names.indexOf('GPU KIND')], '56 mig-1g.10gb');
});

test(':nodes grouped by domain at 120 columns: the domain label keeps its rack; WORKLOADS gives way', () => {
  const n = (name: string, over: Partial<NodeSummary> = {}): NodeSummary => ({
    name,
    ready: true,
    gpuCapacity: 8,
    gpuAllocatable: 8,
    gpuRequested: 8,
    pods: 2,
    unschedulable: false,
    conditions: [],
    taints: [],
    labels: {},
    createdAt: null,
    workloads: ['research/ray-tune', 'research/ray-tune-sweep-long-name'],
    gpuModel: 'NVIDIA-H100-80GB-HBM3',
    gpuResources: { 'nvidia.com/gpu': { capacity: 8, allocatable: 8, requested: 8 } },
    ...over,
  });
  const nodes = [n('gpu-node-01'), n('gpu-node-14', { unschedulable: true })];
  const table = domainNodeTable(
    [
      {
        key: 'us-east-1a/rack-1/2df6a1b2-0c3e-4d5f-8a9b-1c2d3e4f5a6b.1',
        path: ['us-east-1a', 'rack-1', '2df6a1b2-0c3e-4d5f-8a9b-1c2d3e4f5a6b.1'],
        nodes,
        gpuAllocatable: 16,
        gpuRequested: 16,
        notReady: 0,
      },
    ],
    metrics([gpuReading('gpu-node-01/GPU-0', 40, [])]),
    new Set(),
    (rows) => rows,
  );
  const layout = layoutColumns(table.columns, table.rows, 118);
  const header = formatLine(table.rows[0].cells, table.columns, layout);
  assert.match(header, /^▾ us-east-1a \/ rack-1 \/ 2df6….1 /);
  // The node rows still read: name, a status that starts with its state, the GPU kind.
  const cordoned = formatLine(table.rows[2].cells, table.columns, layout);
  assert.match(cordoned, /^gpu-node-14\s+Ready,Sched\S*\s+8\/8\s+0\s+\S+\s+8 H100-80GB-HBM3\s+2 research\//);
  // At 80 columns STATUS still tells a cordoned node apart.
  const narrow = layoutColumns(table.columns, table.rows, 78);
  assert.match(formatLine(table.rows[2].cells, table.columns, narrow), /^gpu-node-14\s+Ready,Sched/);
});
