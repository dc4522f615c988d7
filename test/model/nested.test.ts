// Nested workloads (a JobSet's Jobs, a LeaderWorkerSet's StatefulSets, when
// their kinds are defined too): with buildNested false the store keeps no tree
// of their own (the engine hides them anyway), and moves them in and out of
// the top level as their parents come and go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterStore } from '../../src/model/cluster-store.js';
import { ObservedStore } from './observed-store.js';
import type { Definition } from '../../src/definitions/types.js';
import type { KubeObject } from '../../src/model/types.js';
import {
  definition,
  JOBSET_GVK,
  jobsetDefinition,
  jobsetWorld,
  lwsDefinition,
  lwsWorld,
  statefulsetDefinition,
  node,
} from './fixtures.js';

function jobDefinition(): Definition {
  return definition(
    'job',
    { group: 'batch', version: 'v1', kind: 'Job' },
    {
      name: 'job',
      specDefinition: { podTemplateSpecPath: '.spec.template' },
      scaleDefinition: { replicasPath: '.spec.parallelism // 1' },
    },
  );
}

function feedJobSet(store: ClusterStore, w: ReturnType<typeof jobsetWorld>, opts: { jobset?: boolean } = {}): void {
  if (opts.jobset !== false) store.apply('workload', 'ADDED', w.jobset);
  for (const j of w.jobs) store.apply('workload', 'ADDED', j);
  for (const p of w.pods) store.apply('pod', 'ADDED', p);
}

const names = (store: ClusterStore) => store.workloads().map((t) => `${t.kind}/${t.name}:${t.replicas.current}`);

test('a JobSet with Jobs of a defined kind builds only the JobSet tree; buildNested builds all', () => {
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 4, gpus: 1 }]);
  const lazy = new ObservedStore({ definitions: [jobsetDefinition(), jobDefinition()], buildNested: false });
  for (let i = 0; i < 4; i++) lazy.apply('node', 'ADDED', node(`node-${i}`, 8));
  feedJobSet(lazy, w);
  const r = lazy.flush();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.deepEqual(names(lazy), ['JobSet/train:4']);
  assert.equal(lazy.stats().treeBuilds, 1);
  assert.equal(lazy.stats().trees, 1);
  // The Jobs' pods still count for the JobSet, and nodes name the JobSet.
  assert.deepEqual(lazy.workloads()[0].gpus, { desired: 4, requested: 4, allocated: 4 });
  assert.deepEqual(lazy.nodes()[0].workloads, ['ml/train']);
  assert.deepEqual(
    lazy.getNodePods('node-0').map((e) => e.workload?.kind),
    ['JobSet'],
  );

  // Pod churn in a Job does not build the Job's tree either.
  const p = structuredClone(w.pods[0]);
  (p.status as { containerStatuses?: unknown[] }).containerStatuses = [
    { name: 'main', restartCount: 3, ready: true, state: { running: {} } },
  ];
  lazy.apply('pod', 'MODIFIED', p);
  assert.deepEqual(lazy.flush().changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(lazy.stats().treeBuilds, 1);
  assert.equal(lazy.stats().trees, 1);

  const all = new ObservedStore({ definitions: [jobsetDefinition(), jobDefinition()] });
  feedJobSet(all, w);
  all.flush();
  assert.deepEqual(names(all), [
    'Job/train-worker-0:1',
    'Job/train-worker-1:1',
    'Job/train-worker-2:1',
    'Job/train-worker-3:1',
    'JobSet/train:4',
  ]);
  assert.equal(all.stats().treeBuilds, 5);
});

test('nested workloads become top-level when their parent goes, and nested again when it returns', () => {
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  const jobUids = w.jobs.map((j) => j.metadata.uid).sort();
  const store = new ObservedStore({ definitions: [jobsetDefinition(), jobDefinition()], buildNested: false });
  // The Jobs arrive before their JobSet (its kind lists later): top-level for now.
  feedJobSet(store, w, { jobset: false });
  assert.deepEqual([...store.flush().changedWorkloads].sort(), jobUids);
  assert.deepEqual(names(store), ['Job/train-worker-0:1', 'Job/train-worker-1:1']);
  // The JobSet arrives: the Jobs' trees are removed.
  store.apply('workload', 'ADDED', w.jobset);
  let r = store.flush();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.deepEqual([...r.removedWorkloads].sort(), jobUids);
  assert.deepEqual(names(store), ['JobSet/train:2']);
  // The JobSet goes (orphaned Jobs): they are top-level again.
  store.apply('workload', 'DELETED', w.jobset);
  r = store.flush();
  assert.deepEqual(r.removedWorkloads, [w.jobset.metadata.uid]);
  assert.deepEqual([...r.changedWorkloads].sort(), jobUids);
  assert.deepEqual(names(store), ['Job/train-worker-0:1', 'Job/train-worker-1:1']);
  store.apply('workload', 'ADDED', w.jobset);
  store.flush();
  // One Job's controller reference goes (released): that one is top-level.
  const released: KubeObject = structuredClone(w.jobs[1]);
  delete released.metadata.ownerReferences;
  released.metadata.resourceVersion = '2';
  store.apply('workload', 'MODIFIED', released);
  r = store.flush();
  assert.ok(r.changedWorkloads.includes(released.metadata.uid));
  assert.deepEqual(names(store), ['Job/train-worker-1:1', 'JobSet/train:1']);
  // And back under the JobSet.
  const adopted = structuredClone(w.jobs[1]);
  adopted.metadata.resourceVersion = '3';
  store.apply('workload', 'MODIFIED', adopted);
  r = store.flush();
  assert.deepEqual(r.removedWorkloads, [released.metadata.uid]);
  assert.deepEqual(names(store), ['JobSet/train:2']);
});

test('definitions hot reload: without the parent kind defined the nested ones are top-level', () => {
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  const store = new ObservedStore({ definitions: [jobsetDefinition(), jobDefinition()], buildNested: false });
  feedJobSet(store, w);
  store.flush();
  assert.deepEqual(names(store), ['JobSet/train:2']);
  store.setDefinitions([jobDefinition()]);
  let r = store.flush();
  assert.deepEqual(r.removedWorkloads, [w.jobset.metadata.uid]);
  assert.deepEqual(names(store), ['Job/train-worker-0:1', 'Job/train-worker-1:1']);
  store.setDefinitions([jobsetDefinition(), jobDefinition()]);
  r = store.flush();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(r.removedWorkloads.length, 2);
  assert.deepEqual(names(store), ['JobSet/train:2']);
});

test('LeaderWorkerSet: StatefulSets below it (also through the leader pod) build no tree; the LWS arriving last removes theirs', () => {
  const w = lwsWorld('vllm', 2, 2, 1);
  const store = new ObservedStore({ definitions: [lwsDefinition(), statefulsetDefinition()], buildNested: false });
  for (const o of w.owners) store.apply('workload', 'ADDED', o);
  for (const p of w.pods) store.apply('pod', 'ADDED', p);
  store.flush();
  // Without the LWS the leader StatefulSet is top-level; the worker ones hang off its pods.
  assert.deepEqual(names(store), ['StatefulSet/vllm:4']);
  store.apply('workload', 'ADDED', w.lws);
  const r = store.flush();
  assert.deepEqual(r.changedWorkloads, [w.lws.metadata.uid]);
  assert.deepEqual(r.removedWorkloads, [w.owners[0].metadata.uid]);
  assert.deepEqual(names(store), ['LeaderWorkerSet/vllm:4']);
  assert.equal(store.stats().trees, 1);
  assert.deepEqual(
    store.getNodePods('node-1').map((e) => e.workload?.kind),
    ['LeaderWorkerSet', 'LeaderWorkerSet'],
  );
});

test('listing kinds: a workload whose owner kind is still listing gets no tree until that kind has listed', () => {
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  const orphan = jobsetWorld('gone', [{ name: 'worker', replicas: 1, gpus: 1 }]);
  // As the engine says while JobSets are in their first list.
  const store = new ObservedStore({ definitions: [jobsetDefinition(), jobDefinition()], buildNested: false });
  store.setListingKinds([{ group: JOBSET_GVK.group, kind: JOBSET_GVK.kind }]);
  // Jobs (and their pods) list first: no tree is built for them.
  for (const j of [...w.jobs, ...orphan.jobs]) store.apply('workload', 'ADDED', j);
  for (const p of [...w.pods, ...orphan.pods]) store.apply('pod', 'ADDED', p);
  let r = store.flush();
  assert.deepEqual(r.changedWorkloads, []);
  assert.equal(store.stats().treeBuilds, 0);
  // The JobSets list (one of them is gone: its Job's reference dangles).
  store.apply('workload', 'ADDED', w.jobset);
  r = store.flush();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(store.stats().treeBuilds, 1);
  // Listing done: the orphan Job is top-level and gets its tree at the next flush.
  store.setListingKinds([]);
  r = store.flush();
  assert.deepEqual(r.changedWorkloads, [orphan.jobs[0].metadata.uid]);
  assert.deepEqual(names(store), ['Job/gone-worker-0:1', 'JobSet/train:2']);
  assert.equal(store.stats().treeBuilds, 2);
  assert.equal(store.stats().workloadEvaluations, 2);
});
