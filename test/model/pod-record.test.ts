// The store keeps one record per pod (src/model/pod-record.ts): its summary's
// properties, always all of them in one order, and the store's own state
// hidden beside them. Readers (JSON, the worker's delta codec, spreads,
// structured clone) must see exactly a summary, and an event must never change
// a pod that a snapshot already holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObservedStore } from './observed-store.js';
import { jobsetDefinition, jobsetWorld, node, pod } from './fixtures.js';
import type { KubeObject, PodSummary } from '../../src/model/types.js';

/** PodSummary's properties in the order JSON prints them (types.ts), `cluster` aside (the fleet's copies add it). */
const SUMMARY_KEYS = [
  'namespace',
  'name',
  'status',
  'phase',
  'ready',
  'node',
  'gpus',
  'restarts',
  'reason',
  'uid',
  'readyContainers',
  'message',
  'createdAt',
  'lastRestartAt',
  'lastFailure',
  'recentRestart',
  'gpuResources',
  'gpuSlices',
  'draClaims',
];

const NOW = Date.parse('2026-03-01T12:00:00Z');

function restarted(p: KubeObject, restarts: number, finishedAt: string): KubeObject {
  (p.status as Record<string, unknown>)['containerStatuses'] = [
    {
      name: 'main',
      ready: true,
      restartCount: restarts,
      state: { running: { startedAt: finishedAt } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt } },
    },
  ];
  return p;
}

test('every pod record has exactly the summary properties, in one order, with or without GPUs, slices or restarts', () => {
  const store = new ObservedStore({ definitions: [], now: () => NOW });
  const mig = pod('mig', { node: 'n1' });
  (mig.spec as { containers: unknown[] }).containers = [
    { name: 'main', resources: { limits: { 'nvidia.com/mig-1g.5gb': 2 } } },
  ];
  const pods = [
    pod('plain', { node: 'n1' }),
    pod('gpu', { node: 'n1', gpus: 4 }),
    pod('pending', { gpus: 1 }),
    mig,
    restarted(pod('crashing', { node: 'n1' }), 3, new Date(NOW - 60_000).toISOString()),
  ];
  store.apply('node', 'ADDED', node('n1', 8));
  for (const p of pods) store.apply('pod', 'ADDED', p);
  store.flush();
  const held = store.podsWithoutWorkload();
  assert.equal(held.length, pods.length);
  const byName = new Map(held.map((p) => [p.name, p]));
  assert.deepEqual(byName.get('gpu')!.gpuResources, { 'nvidia.com/gpu': 4 });
  assert.deepEqual(byName.get('mig')!.gpuSlices, { 'nvidia.com/mig-1g.5gb': 2 });
  assert.equal(byName.get('crashing')!.recentRestart, true);
  for (const p of held) {
    assert.deepEqual(Object.keys(p), SUMMARY_KEYS, p.name);
    assert.equal(Object.getPrototypeOf(p), Object.prototype, 'a plain object: the delta codec refuses class instances');
    // What crosses to the UI thread, what JSON prints and what a spread copies: the summary alone.
    assert.deepEqual(Object.keys(structuredClone(p)), SUMMARY_KEYS);
    assert.deepEqual(Object.keys({ ...p }), SUMMARY_KEYS);
    const json = JSON.parse(JSON.stringify(p)) as Record<string, unknown>;
    for (const k of Object.keys(json)) assert.ok(SUMMARY_KEYS.includes(k), `${p.name}: JSON prints ${k}`);
    assert.ok(!('obj' in json) && !('attributed' in json) && !('workloads' in json));
  }
});

function jobsetStore() {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('train', [
    { name: 'leader', replicas: 1, gpus: 1 },
    { name: 'worker', replicas: 3, gpus: 1 },
  ]);
  store.apply('workload', 'ADDED', w.jobset);
  for (const j of w.jobs) store.apply('owner', 'ADDED', j);
  for (const p of w.pods) store.apply('pod', 'ADDED', p);
  store.flush();
  return { store, w };
}

function podIn(tree: { roles: { pods: PodSummary[] }[] }, name: string): PodSummary {
  for (const r of tree.roles) for (const p of r.pods) if (p.name === name) return p;
  throw new Error(`no pod ${name}`);
}

test('an event never changes a pod a snapshot already holds: same summary keeps the record, a new one makes a new record', () => {
  const { store, w } = jobsetStore();
  const target = w.pods[2];
  const tree0 = store.workloads()[0];
  const copy0 = structuredClone(tree0);
  const pod0 = podIn(tree0, target.metadata.name);

  // Only what the summary does not show changes (resourceVersion, a label no expression reads).
  const quiet = structuredClone(target);
  quiet.metadata.resourceVersion = '20';
  quiet.metadata.labels = { ...quiet.metadata.labels, unrelated: 'x' };
  store.apply('pod', 'MODIFIED', quiet);
  store.flush();
  const tree1 = store.workloads()[0];
  assert.deepEqual(tree0, copy0, 'the tree handed out before is unchanged');
  assert.equal(podIn(tree1, target.metadata.name), pod0, 'the same summary is the same record');

  // The summary changes: a new record; the one the old tree holds stays as it was.
  const restarting = restarted(structuredClone(quiet), 5, '2026-03-01T11:00:00Z');
  restarting.metadata.resourceVersion = '21';
  store.apply('pod', 'MODIFIED', restarting);
  store.flush();
  const tree2 = store.workloads()[0];
  assert.deepEqual(tree0, copy0);
  assert.equal(pod0.restarts, 0);
  const pod2 = podIn(tree2, target.metadata.name);
  assert.notEqual(pod2, pod0);
  assert.equal(pod2.restarts, 5);
});

test('a record kept in place is placed by its new object: a label that moves the pod to another role moves it', () => {
  const { store, w } = jobsetStore();
  const target = w.pods[3];
  const moved = structuredClone(target);
  moved.metadata.resourceVersion = '30';
  moved.metadata.labels = { ...moved.metadata.labels, 'jobset.sigs.k8s.io/replicatedjob-name': 'leader' };
  const held = podIn(store.workloads()[0], target.metadata.name);
  store.apply('pod', 'MODIFIED', moved);
  store.flush();
  const tree = store.workloads()[0];
  const leader = tree.roles.find((r) => r.component === 'leader' || r.instance === 'leader')!;
  assert.ok(
    leader.pods.some((p) => p.name === target.metadata.name),
    'the pod is now in the leader role',
  );
  assert.equal(podIn(tree, target.metadata.name), held, 'its summary did not change: the same record');

  const fresh = new ObservedStore({ definitions: [jobsetDefinition()] });
  fresh.apply('workload', 'ADDED', w.jobset);
  for (const j of w.jobs) fresh.apply('owner', 'ADDED', j);
  for (const p of w.pods) fresh.apply('pod', 'ADDED', p === target ? moved : p);
  fresh.flush();
  assert.deepEqual(tree, fresh.workloads()[0]);
});
