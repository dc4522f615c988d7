// The snapshot delta codec (src/app/worker/delta.ts, wire.ts): every delta
// goes through structuredClone, as it does between threads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serialize } from 'node:v8';
import { applyDelta, encodeDelta, type Delta } from '../../../src/app/worker/delta.js';
import { SnapshotEncoder, SnapshotMirror } from '../../../src/app/worker/wire.js';
import { indexReadings, DEFAULT_IDLE_RULE } from '../../../src/model/utilisation.js';
import type {
  GpuReading,
  ModelSnapshot,
  NodeSummary,
  PodSummary,
  RoleTree,
  WorkloadTree,
} from '../../../src/model/types.js';

function pod(name: string, node: string | null, status = 'Running'): PodSummary {
  return {
    namespace: 'ml',
    name,
    status,
    phase: 'Running',
    ready: status === 'Running',
    node,
    gpus: 8,
    restarts: 0,
    reason: null,
    uid: `uid-${name}`,
    readyContainers: '1/1',
    message: null,
    createdAt: '2026-01-01T00:00:00Z',
  };
}

function role(component: string, pods: PodSummary[]): RoleTree {
  return {
    component,
    instance: null,
    replica: null,
    replicas: { desired: pods.length, current: pods.length, ready: pods.length },
    gpus: { desired: 8 * pods.length, requested: 8 * pods.length, allocated: 8 * pods.length },
    nodes: [...new Set(pods.map((p) => p.node!))],
    pods,
    roles: [],
  };
}

function tree(name: string, pods = 4): WorkloadTree {
  const ps = Array.from({ length: pods }, (_, i) => pod(`${name}-${i}`, `node-${i}`));
  return {
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    namespace: 'ml',
    name,
    uid: `uid-${name}`,
    definition: 'jobset',
    definitionSource: 'builtin',
    status: ['Running'],
    replicas: { desired: pods, current: pods, ready: pods },
    gpus: { desired: 8 * pods, requested: 8 * pods, allocated: 8 * pods },
    roles: [role('leader', ps.slice(0, 1)), role('worker', ps.slice(1))],
    unattributedPods: [],
    gangs: [],
    createdAt: null,
    statusMessage: null,
    errors: [],
  };
}

function node(name: string): NodeSummary {
  return {
    name,
    ready: true,
    gpuCapacity: 8,
    gpuAllocatable: 8,
    gpuRequested: 8,
    pods: 1,
    unschedulable: false,
    conditions: [{ type: 'Ready', status: 'True' }],
    taints: [],
    labels: { 'nvidia.com/gpu.product': 'H100' },
    createdAt: null,
    workloads: [],
  };
}

/** Encode, cross the boundary (structured clone), decode. */
function roundTrip<T>(next: T, prevSent: unknown, prevMirror: unknown): { out: T; delta: Delta } {
  const delta = structuredClone(encodeDelta(next, prevSent));
  return { out: applyDelta(delta, prevMirror) as T, delta };
}

test('first message: the whole value, equal to the input', () => {
  const value = { workloads: [tree('a'), tree('b')], nodes: [node('n1')], n: 1, s: 'x', u: undefined, z: null };
  const { out } = roundTrip(value, undefined, undefined);
  assert.deepStrictEqual(out, value);
});

test('unchanged trees, roles, pods and nodes keep their identity; only the changed pod crosses', () => {
  const trees = Array.from({ length: 50 }, (_, i) => tree(`job-${i}`));
  const nodes = Array.from({ length: 100 }, (_, i) => node(`node-${i}`));
  const v1 = { version: 1, workloads: trees, nodes };
  const first = roundTrip(v1, undefined, undefined);
  const mirror1 = first.out;

  // One pod of job-7's worker role changes; the engine shares everything else (shareStructure).
  const old = trees[7];
  const worker = old.roles[1];
  const changedPod = { ...worker.pods[1], status: 'OOMKilled', ready: false };
  const tree7: WorkloadTree = {
    ...old,
    replicas: { ...old.replicas, ready: 3 },
    roles: [old.roles[0], { ...worker, pods: [worker.pods[0], changedPod, worker.pods[2]] }],
  };
  const v2 = { version: 2, workloads: trees.map((t, i) => (i === 7 ? tree7 : t)), nodes };
  const { out: mirror2, delta } = roundTrip(v2, v1, mirror1);

  assert.deepStrictEqual(mirror2, v2);
  assert.equal(mirror2.nodes, mirror1.nodes, 'the same nodes array');
  for (let i = 0; i < 50; i++) if (i !== 7) assert.equal(mirror2.workloads[i], mirror1.workloads[i]);
  const [m1, m2] = [mirror1.workloads[7], mirror2.workloads[7]];
  assert.notEqual(m2, m1);
  assert.equal(m2.roles[0], m1.roles[0], 'the unchanged role');
  assert.equal(m2.gpus, m1.gpus, 'an unchanged field object');
  assert.equal(m2.roles[1].pods[0], m1.roles[1].pods[0], 'an unchanged pod of the changed role');
  assert.equal(m2.roles[1].pods[2], m1.roles[1].pods[2]);
  assert.equal(m2.roles[1].pods[1].status, 'OOMKilled');

  const wire = JSON.stringify(delta);
  assert.ok(!wire.includes('job-3'), 'unchanged trees are not carried');
  assert.ok(!wire.includes('H100'), 'unchanged nodes are not carried');
  const [full, churn] = [serialize(first.delta).length, serialize(delta).length];
  assert.ok(churn * 50 < full, `a change of one pod is small: ${churn} B vs ${full} B whole`);
});

test('an element inserted at the front: the others are matched by identity, not position', () => {
  const trees = Array.from({ length: 20 }, (_, i) => tree(`job-${i}`));
  const v1 = { workloads: trees };
  const mirror1 = roundTrip(v1, undefined, undefined).out;
  const v2 = { workloads: [tree('aaa'), ...trees] };
  const { out: mirror2, delta } = roundTrip(v2, v1, mirror1);
  assert.deepStrictEqual(mirror2, v2);
  for (let i = 0; i < 20; i++) assert.equal(mirror2.workloads[i + 1], mirror1.workloads[i]);
  assert.ok(!JSON.stringify(delta).includes('job-'), 'the moved trees are not carried');
});

test('removed elements and keys; a changed element is matched by uid after a removal', () => {
  const trees = Array.from({ length: 10 }, (_, i) => tree(`job-${i}`));
  const v1 = { workloads: trees, accessNotice: 'namespace-scoped', extra: { a: 1 } };
  const mirror1 = roundTrip(v1, undefined, undefined).out;
  const changed = { ...trees[6], status: ['Failed' as const] };
  const v2 = { workloads: [...trees.slice(0, 3), ...trees.slice(4, 6), changed, ...trees.slice(7)], extra: { a: 1 } };
  const { out: mirror2 } = roundTrip(v2, v1, mirror1);
  assert.deepStrictEqual(mirror2, v2);
  assert.ok(!('accessNotice' in mirror2), 'a key gone is gone');
  assert.equal(mirror2.workloads[3], mirror1.workloads[4]);
  // job-6 is now at index 5: diffed against job-6, its roles kept.
  assert.equal(mirror2.workloads[5].roles, mirror1.workloads[6].roles);
});

test('Maps (the scheduling view) cross by entry, unchanged values keep their identity', () => {
  const q1 = { queue: 'a', position: 1 };
  const q2 = { queue: 'b', position: 2 };
  const v1 = {
    queues: new Map([
      ['w1', q1],
      ['w2', q2],
      ['w3', { queue: 'c', position: 3 }],
    ]),
  };
  const mirror1 = roundTrip(v1, undefined, undefined).out;
  const v2 = {
    queues: new Map([
      ['w1', q1],
      ['w2', { ...q2, position: 1 }],
      ['w4', { queue: 'd', position: 9 }],
    ]),
  };
  const { out: mirror2 } = roundTrip(v2, v1, mirror1);
  assert.deepStrictEqual(mirror2, v2);
  assert.equal(mirror2.queues.get('w1'), mirror1.queues.get('w1'));
});

test('a class instance is refused by name, never sent without its prototype', () => {
  class Index {
    size = 1;
  }
  assert.throws(() => encodeDelta({ x: new Index() }, { x: { size: 0 } }), /Index instance cannot cross/);
  assert.throws(() => encodeDelta({ x: new Index() }, {}), /Index instance cannot cross/);
  assert.throws(() => encodeDelta({ f: () => 1 }, {}), /function cannot cross/);
});

function reading(key: string, node: string, podName: string | null): GpuReading {
  return {
    key,
    node,
    uuid: key,
    index: '0',
    model: 'H100',
    migProfile: null,
    migInstance: null,
    utilisation: 50,
    memoryUsedBytes: 1,
    memoryTotalBytes: 2,
    powerWatts: 300,
    xid: 0,
    pods: podName ? [{ namespace: 'ml', name: podName, container: null }] : [],
    at: 1,
    lowSince: null,
    coveredSince: 1,
  };
}

test('snapshots: gpuMetrics readings cross as a list and are indexed again on the UI side', () => {
  const readings = [reading('n1/a', 'n1', 'p1'), reading('n1/b', 'n1', 'p1'), reading('n2/c', 'n2', null)];
  const base = {
    version: 1,
    workloads: [tree('a')],
    nodes: [node('n1'), node('n2')],
    problems: [],
    gpuMetrics: { readings: indexReadings(readings), notice: null, scrapedAt: 5, idle: DEFAULT_IDLE_RULE },
  } as unknown as ModelSnapshot;
  const encoder = new SnapshotEncoder();
  const mirror = new SnapshotMirror();
  const m1 = mirror.apply(structuredClone(encoder.encode(base)));
  assert.deepStrictEqual(m1, base);
  assert.ok(Object.isFrozen(m1));
  assert.ok(m1.gpuMetrics!.readings.byPod.get('ml/p1')![0] === m1.gpuMetrics!.readings.byNode.get('n1')![0]);
  // A flush without a scrape: the metrics object is the same; so is the mirror's.
  const next = { ...base, version: 2, problems: ['x'] };
  const m2 = mirror.apply(structuredClone(encoder.encode(next)));
  assert.equal(m2.gpuMetrics, m1.gpuMetrics);
  assert.equal(m2.workloads, m1.workloads);
  assert.deepStrictEqual(m2, next);
});

test('a part rebuilt equal to the one before decodes to the mirror’s previous object (nothing carried)', () => {
  const v1 = { workloads: [tree('a'), tree('b')] };
  const mirror1 = roundTrip(v1, undefined, undefined).out;
  const v2 = { workloads: [structuredClone(v1.workloads[0]), v1.workloads[1]] };
  const { out: mirror2, delta } = roundTrip(v2, v1, mirror1);
  assert.equal(mirror2, mirror1, 'the whole value is the previous one');
  assert.deepEqual(delta, [0]);
  // Then a real change to the rebuilt tree is diffed from its equal value.
  const v3 = { workloads: [{ ...v2.workloads[0], statusMessage: 'late' }, v1.workloads[1]] };
  const { out: mirror3 } = roundTrip(v3, v2, mirror2);
  assert.deepStrictEqual(mirror3, v3);
  assert.equal(mirror3.workloads[0].roles, mirror1.workloads[0].roles);
});
