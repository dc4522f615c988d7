// Pods MODIFIED in place are patched into their workload's tree (only the
// roles on the pod's path and the rollups are recomputed): the result must be
// exactly the tree a rebuild from scratch gives, and the work must stay O(1
// role) per changed pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObservedStore } from './observed-store.js';
import type { Definition } from '../../src/definitions/types.js';
import type { KubeObject } from '../../src/model/types.js';
import {
  jobsetDefinition,
  jobsetWorld,
  lwsDefinition,
  lwsWorld,
  pytorchDefinition,
  object,
  pod,
  node,
} from './fixtures.js';

/** Feeds `objects` to a long-lived store (patched) and, after each step, compares with a store built from scratch. */
function check(
  definitions: () => Definition[],
  initial: [kind: 'workload' | 'owner' | 'pod' | 'node', obj: KubeObject][],
  steps: ((o: KubeObject) => void)[],
  target: KubeObject,
  rebuilt: number[] = [],
) {
  const live = new ObservedStore({ definitions: definitions() });
  for (const [k, o] of initial) live.apply(k, 'ADDED', o);
  live.flush();
  let current = structuredClone(target);
  let rv = 10;
  for (const step of steps) {
    current = structuredClone(current);
    step(current);
    current.metadata.resourceVersion = String(++rv);
    live.apply('pod', 'MODIFIED', current);
    const before = live.stats();
    live.flush();
    const after = live.stats();
    const fresh = new ObservedStore({ definitions: definitions() });
    for (const [k, o] of initial) fresh.apply(k, 'ADDED', o.metadata.uid === target.metadata.uid ? current : o);
    fresh.flush();
    assert.deepEqual(live.workloads(), fresh.workloads(), `after step ${steps.indexOf(step)}`);
    assert.deepEqual(live.nodes(), fresh.nodes());
    assert.deepEqual(live.totals(), fresh.totals());
    const i = steps.indexOf(step);
    assert.equal(
      after.treeBuilds - before.treeBuilds,
      rebuilt.includes(i) ? 1 : 0,
      `step ${i}: patched, or rebuilt when expected`,
    );
  }
}

const setStatus = (ready: boolean, restarts: number) => (p: KubeObject) => {
  const st = p.status as Record<string, unknown>;
  st['containerStatuses'] = [
    {
      name: 'main',
      restartCount: restarts,
      ready,
      state: ready ? { running: {} } : { waiting: { reason: 'CrashLoopBackOff' } },
    },
  ];
  st['conditions'] = [
    { type: 'PodScheduled', status: 'True' },
    { type: 'Ready', status: ready ? 'True' : 'False' },
  ];
};

test('JobSet pod status changes (ready, restarts, bind to a node, fail, terminate) patch to the rebuilt tree', () => {
  const w = jobsetWorld(
    'train',
    [
      { name: 'leader', replicas: 1, gpus: 1 },
      { name: 'worker', replicas: 12, gpus: 2 },
    ],
    { nodes: (i) => (i < 10 ? `node-${i % 3}` : null) },
  );
  const initial: ['workload' | 'owner' | 'pod' | 'node', KubeObject][] = [
    ...[0, 1, 2, 3].map((i) => ['node', node(`node-${i}`, 8)] as ['node', KubeObject]),
    ['workload', w.jobset],
    ...w.jobs.map((j) => ['owner', j] as ['owner', KubeObject]),
    ...w.pods.map((p) => ['pod', p] as ['pod', KubeObject]),
  ];
  const target = w.pods[11]; // pending, no node
  check(
    () => [jobsetDefinition()],
    initial,
    [
      (p) => {
        (p.spec as Record<string, unknown>)['nodeName'] = 'node-3';
        (p.status as Record<string, unknown>)['phase'] = 'Running';
      },
      setStatus(true, 0),
      setStatus(false, 1),
      setStatus(true, 1),
      (p) => {
        (p.status as Record<string, unknown>)['phase'] = 'Failed';
      },
      (p) => {
        (p.status as Record<string, unknown>)['phase'] = 'Running';
        p.metadata.deletionTimestamp = '2026-01-01T00:10:00Z';
      },
    ],
    target,
    [5],
  ); // a gang member starting to terminate leaves its gang: rebuilt
  // The leader (its own role) too.
  check(() => [jobsetDefinition()], initial, [setStatus(false, 4), setStatus(true, 4)], w.pods[0]);
});

test('LeaderWorkerSet (replica groups, nested roles) and unattributed pods patch to the rebuilt tree', () => {
  const w = lwsWorld('vllm', 3, 4, 1);
  const initial: ['workload' | 'owner' | 'pod' | 'node', KubeObject][] = [
    ['workload', w.lws],
    ...w.owners.map((o) => ['owner', o] as ['owner', KubeObject]),
    ...w.pods.map((p) => ['pod', p] as ['pod', KubeObject]),
  ];
  check(
    () => [lwsDefinition()],
    initial,
    [setStatus(false, 1), (p) => ((p.spec as Record<string, unknown>)['nodeName'] = 'node-9'), setStatus(true, 2)],
    w.pods[6],
  );
  check(() => [lwsDefinition()], initial, [setStatus(false, 1), setStatus(true, 1)], w.pods[4]);

  const job = object('kubeflow.org/v1', 'PyTorchJob', 'pt', {
    spec: { pytorchReplicaSpecs: { Master: { replicas: 1 }, Worker: { replicas: 2 } } },
  });
  const stray = pod('pt-odd-0', {
    owner: job,
    node: 'node-0',
    gpus: 1,
    labels: { 'training.kubeflow.org/replica-type': 'unknown' },
  });
  const master = pod('pt-master-0', {
    owner: job,
    node: 'node-1',
    gpus: 1,
    labels: { 'training.kubeflow.org/replica-type': 'master' },
  });
  const init2: ['workload' | 'owner' | 'pod' | 'node', KubeObject][] = [
    ['workload', job],
    ['pod', stray],
    ['pod', master],
  ];
  check(
    () => [pytorchDefinition()],
    init2,
    [setStatus(false, 2), (p) => ((p.spec as Record<string, unknown>)['nodeName'] = 'node-5')],
    stray,
  );
});

test('a status change in a 50-pod workload does O(1 role) work', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('big', [
    { name: 'leader', replicas: 1, gpus: 1 },
    { name: 'worker', replicas: 49, gpus: 1 },
  ]);
  store.apply('workload', 'ADDED', w.jobset);
  for (const j of w.jobs) store.apply('owner', 'ADDED', j);
  for (const p of w.pods) store.apply('pod', 'ADDED', p);
  store.flush();
  const tree = store.workloads()[0];
  const before = store.stats();
  const p = structuredClone(w.pods[30]);
  setStatus(false, 7)(p);
  store.apply('pod', 'MODIFIED', p);
  const r = store.flush();
  const after = store.stats();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(after.treeBuilds - before.treeBuilds, 0);
  assert.equal(after.treePatches - before.treePatches, 1);
  assert.equal(after.rolePatches - before.rolePatches, 1);
  assert.equal(after.podAttributions - before.podAttributions, 0, 'a status change is not placed again');
  const next = store.workloads()[0];
  assert.notEqual(next, tree);
  // The untouched role keeps its identity; the touched one is new.
  assert.equal(next.roles[0], tree.roles[0]);
  assert.notEqual(next.roles[1], tree.roles[1]);
  assert.equal(next.roles[1].replicas.ready, tree.roles[1].replicas.ready - 1);
  assert.equal(next.roles[1].pods.find((x) => x.uid === p.metadata.uid)!.restarts, 7);
});

test('a workload object change that keeps its roles refreshes only the root; one that reshapes them rebuilds', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 3, gpus: 1 }]);
  store.apply('workload', 'ADDED', w.jobset);
  for (const j of w.jobs) store.apply('owner', 'ADDED', j);
  for (const p of w.pods) store.apply('pod', 'ADDED', p);
  store.flush();
  const tree = store.workloads()[0];
  assert.deepEqual(tree.status, ['Running']);

  const failed = structuredClone(w.jobset);
  failed.metadata.resourceVersion = '2';
  failed.status = { conditions: [{ type: 'Failed', status: 'True', message: 'worker-1 failed' }] };
  let before = store.stats();
  assert.deepEqual(store.flush().changedWorkloads, []);
  store.apply('workload', 'MODIFIED', failed);
  assert.deepEqual(store.flush().changedWorkloads, [w.jobset.metadata.uid]);
  let after = store.stats();
  assert.equal(after.treeBuilds - before.treeBuilds, 0);
  assert.equal(after.treeRefreshes - before.treeRefreshes, 1);
  const next = store.workloads()[0];
  assert.equal(next.roles, tree.roles, 'roles keep their identity');
  const fresh = new ObservedStore({ definitions: [jobsetDefinition()] });
  fresh.apply('workload', 'ADDED', failed);
  for (const j of w.jobs) fresh.apply('owner', 'ADDED', j);
  for (const p of w.pods) fresh.apply('pod', 'ADDED', p);
  fresh.flush();
  assert.deepEqual(next, fresh.workloads()[0]);

  // Only metadata moved (same facts): nothing changes, identity kept.
  const touched = structuredClone(failed);
  touched.metadata.resourceVersion = '3';
  store.apply('workload', 'MODIFIED', touched);
  assert.deepEqual(store.flush().changedWorkloads, []);
  assert.equal(store.workloads()[0], next);

  // Scaled: the roles' desired change, so it is rebuilt.
  const scaled = structuredClone(touched);
  scaled.metadata.resourceVersion = '4';
  (scaled.spec as { replicatedJobs: { replicas: number }[] }).replicatedJobs[0].replicas = 5;
  before = store.stats();
  store.apply('workload', 'MODIFIED', scaled);
  store.flush();
  after = store.stats();
  assert.equal(after.treeBuilds - before.treeBuilds, 1);
  assert.equal(store.workloads()[0].replicas.desired, 5);
});

test('placements are kept on status changes only when every pod expression reads just metadata', async () => {
  const { readsOnlyPodMetadata } = await import('../../src/model/plan.js');
  for (const yes of [
    '.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]',
    '.metadata.labels.app',
    '.metadata.labels["leaderworkerset.sigs.k8s.io/worker-index"] | select(. != "0")',
    '.metadata.annotations["a"] != null or .metadata.annotations["b"] != null',
    '{c: .metadata.labels["x"], p: (if .metadata.labels["y"] then .metadata.labels["y"] + "-" + .metadata.labels["z"] else .metadata.labels["w"] end)} | .c[(.p | length) + 1:]',
  ])
    assert.equal(readsOnlyPodMetadata(yes), true, yes);
  for (const no of [
    '.status.phase',
    '.spec.nodeName',
    'tostring',
    '. | tostring',
    '.metadata',
    '"\\(.status.phase)"',
    '.metadata.labels[.status.phase]',
    '[..]',
    '$__loc__',
    'length',
    'input',
    '.metadata.labels["a"] // .status.x',
    '.["status"]',
    '.metadata.labelsx',
  ]) {
    assert.equal(readsOnlyPodMetadata(no), false, no);
  }

  // A gang filter that reads the pod's phase: a status change must place the pod again.
  const def = (): Definition => {
    const d = jobsetDefinition();
    d.gangs[0].members[0].filters = ['.status.phase == "Running"'];
    return d;
  };
  const w = jobsetWorld('g', [{ name: 'worker', replicas: 3, gpus: 1 }], { nodes: (i) => (i === 2 ? null : 'node-0') });
  const initial: ['workload' | 'owner' | 'pod' | 'node', KubeObject][] = [
    ['node', node('node-0', 8)],
    ['workload', w.jobset],
    ...w.jobs.map((j) => ['owner', j] as ['owner', KubeObject]),
    ...w.pods.map((p) => ['pod', p] as ['pod', KubeObject]),
  ];
  // Pending → Running changes its gang membership: placed again and rebuilt, same as from scratch.
  check(
    () => [def()],
    initial,
    [
      (p) => {
        (p.spec as Record<string, unknown>)['nodeName'] = 'node-0';
        (p.status as Record<string, unknown>)['phase'] = 'Running';
      },
    ],
    w.pods[2],
    [0],
  );
});
