// ClusterStore: incremental updates (owners after pods, pods moving nodes,
// deletions, relists, definitions hot reload), node and cluster totals,
// identity of unchanged outputs, robustness against malformed objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterStore } from '../../src/model/cluster-store.js';
import { ObservedStore } from './observed-store.js';
import type { KubeObject } from '../../src/model/types.js';
import {
  jobsetDefinition,
  jobsetWorld,
  lwsDefinition,
  lwsWorld,
  statefulsetDefinition,
  pytorchDefinition,
  node,
  pod,
  object,
  gpuTemplate,
} from './fixtures.js';

function feed(
  store: ClusterStore,
  w: { jobset?: KubeObject; lws?: KubeObject; jobs?: KubeObject[]; owners?: KubeObject[]; pods: KubeObject[] },
) {
  if (w.jobset) store.apply('workload', 'ADDED', w.jobset);
  if (w.lws) store.apply('workload', 'ADDED', w.lws);
  for (const o of [...(w.jobs ?? []), ...(w.owners ?? [])]) store.apply('owner', 'ADDED', o);
  for (const p of w.pods) store.apply('pod', 'ADDED', p);
}

const clone = <T>(x: T): T => structuredClone(x);

test('pods are attributed, nodes and totals summed', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  for (let i = 0; i < 4; i++) store.apply('node', 'ADDED', node(`node-${i}`, 8));
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 3, gpus: 4 }], {
    nodes: (i) => (i < 2 ? 'node-0' : null),
  });
  feed(store, w);
  const r = store.flush();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(r.nodesChanged, true);
  const [t] = store.workloads();
  assert.deepEqual(t.gpus, { desired: 12, requested: 12, allocated: 8 });
  const n0 = store.nodes()[0];
  assert.equal(n0.name, 'node-0');
  assert.equal(n0.gpuRequested, 8);
  assert.equal(n0.pods, 2);
  assert.deepEqual(n0.workloads, ['ml/train']);
  assert.deepEqual(store.totals(), {
    gpuCapacity: 32,
    gpuAllocatable: 32,
    gpuRequested: 8,
    gpuFree: 24,
    gpuPending: 4,
    pods: 3,
    nodes: 4,
  });
  const entries = store.getNodePods('node-0');
  assert.equal(entries.length, 2);
  assert.deepEqual(entries[0].workload, { kind: 'JobSet', namespace: 'ml', name: 'train', uid: w.jobset.metadata.uid });
});

test('owners arriving after their pods re-attribute them', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  store.apply('workload', 'ADDED', w.jobset);
  for (const p of w.pods) store.apply('pod', 'ADDED', p);
  store.flush();
  assert.equal(store.workloads()[0].replicas.current, 0);
  store.apply('owner', 'ADDED', w.jobs[0]);
  assert.deepEqual(store.flush().changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(store.workloads()[0].replicas.current, 1);
  store.apply('owner', 'ADDED', w.jobs[1]);
  store.flush();
  assert.equal(store.workloads()[0].replicas.current, 2);
  // The owner goes away: its pod's chain is broken again.
  store.apply('owner', 'DELETED', w.jobs[1]);
  store.flush();
  assert.equal(store.workloads()[0].replicas.current, 1);
});

test('a workload arriving after its pods and owners picks them up', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('late', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  for (const o of w.jobs) store.apply('owner', 'ADDED', o);
  for (const p of w.pods) store.apply('pod', 'ADDED', p);
  store.flush();
  assert.equal(store.workloads().length, 0);
  store.apply('workload', 'ADDED', w.jobset);
  store.flush();
  assert.equal(store.workloads()[0].replicas.current, 2);
});

test('LWS: the leader pod arriving after the worker StatefulSet re-attributes the workers', () => {
  const store = new ObservedStore({ definitions: [lwsDefinition()] });
  const w = lwsWorld('vllm', 1, 3, 1);
  const [leader, ...workers] = w.pods;
  store.apply('workload', 'ADDED', w.lws);
  for (const o of w.owners) store.apply('owner', 'ADDED', o);
  for (const p of workers) store.apply('pod', 'ADDED', p);
  store.flush();
  assert.equal(store.workloads()[0].replicas.current, 0);
  store.apply('pod', 'ADDED', leader);
  store.flush();
  const t = store.workloads()[0];
  assert.equal(t.replicas.current, 3);
  assert.deepEqual(
    t.roles[0].roles.map((r) => r.pods.length),
    [1, 2],
  );
});

test('a pod moving node updates both nodes; deleting it updates the workload and the node', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  store.apply('node', 'ADDED', node('a', 8));
  store.apply('node', 'ADDED', node('b', 8));
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 1, gpus: 4 }], { nodes: () => null });
  feed(store, w);
  store.flush();
  assert.equal(store.totals().gpuPending, 4);
  const moved = clone(w.pods[0]);
  moved.spec!['nodeName'] = 'a';
  moved.status!['phase'] = 'Running';
  store.apply('pod', 'MODIFIED', moved);
  let r = store.flush();
  assert.equal(r.nodesChanged, true);
  assert.deepEqual(
    store.nodes().map((n) => [n.name, n.gpuRequested]),
    [
      ['a', 4],
      ['b', 0],
    ],
  );
  assert.equal(store.totals().gpuPending, 0);
  const again = clone(moved);
  again.spec!['nodeName'] = 'b';
  store.apply('pod', 'MODIFIED', again);
  store.flush();
  assert.deepEqual(
    store.nodes().map((n) => [n.name, n.gpuRequested]),
    [
      ['a', 0],
      ['b', 4],
    ],
  );
  assert.deepEqual(store.getNodePods('a'), []);
  store.apply('pod', 'DELETED', again);
  r = store.flush();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(store.workloads()[0].replicas.current, 0);
  assert.equal(store.nodes()[1].gpuRequested, 0);
  assert.equal(store.totals().pods, 0);
});

test('a pod that fails leaves current; its replacement joins it', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  feed(store, w);
  store.flush();
  assert.deepEqual(store.workloads()[0].replicas, { desired: 2, current: 2, ready: 2 });
  const failed = clone(w.pods[1]);
  failed.status = {
    phase: 'Failed',
    conditions: [{ type: 'Ready', status: 'False' }],
    containerStatuses: [
      { name: 'main', ready: false, restartCount: 0, state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } },
    ],
  };
  failed.metadata.resourceVersion = '2';
  store.apply('pod', 'MODIFIED', failed);
  const r = store.flush();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.deepEqual(store.workloads()[0].replicas, { desired: 2, current: 1, ready: 1 });
  assert.equal(store.workloads()[0].roles[0].pods.find((p) => p.name === failed.metadata.name)!.status, 'OOMKilled');
  const retry = pod('train-worker-1-1', {
    namespace: 'ml',
    owner: w.jobs[1],
    gpus: 1,
    labels: w.pods[1].metadata.labels,
  });
  store.apply('pod', 'ADDED', retry);
  store.flush();
  assert.deepEqual(store.workloads()[0].replicas, { desired: 2, current: 2, ready: 1 });
});

test('untouched workloads keep their tree identity; unchanged parts of a changed tree are shared', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const a = jobsetWorld('a', [
    { name: 'leader', replicas: 1, gpus: 1 },
    { name: 'worker', replicas: 2, gpus: 1 },
  ]);
  const b = jobsetWorld('b', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  feed(store, a);
  feed(store, b);
  store.flush();
  const [ta, tb] = store.workloads();
  const list = store.workloads();
  // A pod of `a` changes (a worker loses readiness).
  const p = clone(a.pods[2]);
  (p.status!['conditions'] as { type: string; status: string }[])[1].status = 'False';
  store.apply('pod', 'MODIFIED', p);
  const r = store.flush();
  assert.deepEqual(r.changedWorkloads, [a.jobset.metadata.uid]);
  const [ta2, tb2] = store.workloads();
  assert.notEqual(store.workloads(), list);
  assert.equal(tb2, tb);
  assert.notEqual(ta2, ta);
  assert.equal(ta2.roles[0], ta.roles[0], 'the leader role did not change');
  assert.notEqual(ta2.roles[1], ta.roles[1]);
  assert.equal(ta2.roles[1].pods[0], ta.roles[1].pods[0], 'the other worker pod did not change');
  // A MODIFIED event that changes nothing visible yields no change at all.
  const nodes = store.nodes();
  const totals = store.totals();
  store.apply('pod', 'MODIFIED', clone(p));
  assert.deepEqual(store.flush(), { changedWorkloads: [], removedWorkloads: [], nodesChanged: false });
  assert.equal(store.workloads()[0], ta2);
  assert.equal(store.nodes(), nodes);
  assert.equal(store.totals(), totals);
});

test('50 events on one workload in a batch: one patch of one role, one change reported, the latest state wins', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('busy', [{ name: 'worker', replicas: 3, gpus: 1 }]);
  const other = jobsetWorld('quiet', [{ name: 'worker', replicas: 3, gpus: 1 }]);
  feed(store, w);
  feed(store, other);
  for (let i = 0; i < 4; i++) store.apply('node', 'ADDED', node(`node-${i}`, 8));
  store.flush();
  const before = store.stats();
  for (let i = 0; i < 50; i++) {
    const p = clone(w.pods[0]);
    p.status!['containerStatuses'] = [{ name: 'main', restartCount: i, ready: true, state: { running: {} } }];
    store.apply('pod', 'MODIFIED', p);
  }
  const r = store.flush();
  const after = store.stats();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(store.workloads()[0].roles[0].pods[0].restarts, 49);
  // Only the touched workload is patched, once, in the one role holding the pod (no
  // rebuild); the pod is not placed again (only its status changed and the
  // definition's pod expressions read labels); the workload object did not
  // change so it is not re-evaluated; GPUs did not move, so no node.
  assert.equal(after.treeBuilds - before.treeBuilds, 0);
  assert.equal(after.treePatches - before.treePatches, 1);
  assert.equal(after.rolePatches - before.rolePatches, 1);
  assert.equal(after.podAttributions - before.podAttributions, 0);
  assert.equal(after.workloadEvaluations - before.workloadEvaluations, 0);
  assert.equal(after.nodeSummaries - before.nodeSummaries, 0);
});

test('workload MODIFIED re-evaluates status and desired; DELETED removes the tree', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  feed(store, w);
  store.flush();
  const js = clone(w.jobset);
  js.status = { conditions: [{ type: 'Failed', status: 'True', message: 'worker failed' }] };
  (js.spec!['replicatedJobs'] as { replicas: number }[])[0].replicas = 5;
  store.apply('workload', 'MODIFIED', js);
  store.flush();
  const t = store.workloads()[0];
  assert.deepEqual(t.status, ['Failed']);
  assert.equal(t.statusMessage, 'worker failed');
  assert.equal(t.replicas.desired, 5);
  store.apply('workload', 'DELETED', js);
  const r = store.flush();
  assert.deepEqual(r.removedWorkloads, [js.metadata.uid]);
  assert.deepEqual(store.workloads(), []);
  // The node view no longer names it.
  assert.equal(store.getNodePods('node-0')[0].workload, null);
});

test('definitions hot reload: changed definition recomputes its workloads only; removed definition removes them', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition(), pytorchDefinition()] });
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  feed(store, w);
  const job = object('kubeflow.org/v1', 'PyTorchJob', 'pt', {
    spec: { pytorchReplicaSpecs: { Master: { replicas: 1, template: gpuTemplate(1) } } },
  });
  store.apply('workload', 'ADDED', job);
  store.flush();
  const ptTree = store.workloads().find((t) => t.kind === 'PyTorchJob')!;
  // Same definitions again (fresh objects): nothing changes.
  store.setDefinitions([jobsetDefinition(), pytorchDefinition()]);
  assert.deepEqual(store.flush().changedWorkloads, []);
  const changed = jobsetDefinition();
  changed.components[1].scaleDefinition = { replicasPath: '.spec.replicatedJobs[].replicas * 2' };
  store.setDefinitions([changed, pytorchDefinition()]);
  const r = store.flush();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(store.workloads().find((t) => t.kind === 'JobSet')!.replicas.desired, 4);
  assert.equal(
    store.workloads().find((t) => t.kind === 'PyTorchJob'),
    ptTree,
  );
  store.setDefinitions([pytorchDefinition()]);
  assert.deepEqual(store.flush().removedWorkloads, [w.jobset.metadata.uid]);
  assert.deepEqual(
    store.workloads().map((t) => t.kind),
    ['PyTorchJob'],
  );
  // And back: the workload object was kept, its tree returns.
  store.setDefinitions([jobsetDefinition(), pytorchDefinition()]);
  assert.deepEqual(store.flush().changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(store.workloads().find((t) => t.kind === 'JobSet')!.replicas.current, 2);
});

test('a pod in a StatefulSet under a LWS belongs to both; the node view names the outer workload', () => {
  const store = new ObservedStore({ definitions: [lwsDefinition(), statefulsetDefinition()] });
  const w = lwsWorld('vllm', 1, 2, 1);
  store.apply('workload', 'ADDED', w.lws);
  for (const o of w.owners) store.apply('workload', 'ADDED', o);
  for (const p of w.pods) store.apply('pod', 'ADDED', p);
  store.flush();
  const kinds = store.workloads().map((t) => `${t.kind}/${t.name}:${t.replicas.current}`);
  assert.deepEqual(kinds, ['LeaderWorkerSet/vllm:2', 'StatefulSet/vllm:2', 'StatefulSet/vllm-0:1']);
  assert.deepEqual(
    store.getNodePods('node-0').map((e) => e.workload?.kind),
    ['LeaderWorkerSet', 'LeaderWorkerSet'],
  );
});

test('replaceAll: a relist deletes vanished objects and updates the rest', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 3, gpus: 1 }]);
  feed(store, w);
  store.apply('node', 'ADDED', node('node-0', 8));
  store.flush();
  store.replaceAll('pod', [w.pods[0]]);
  store.replaceAll('node', []);
  const r = store.flush();
  assert.deepEqual(r.changedWorkloads, [w.jobset.metadata.uid]);
  assert.equal(r.nodesChanged, true);
  assert.equal(store.workloads()[0].replicas.current, 1);
  assert.deepEqual(store.nodes(), []);
  // Relisting one GVK of workloads leaves the others alone.
  store.replaceAll('workload', [], { group: 'kubeflow.org', version: 'v1', kind: 'PyTorchJob' });
  assert.deepEqual(store.flush().removedWorkloads, []);
  store.replaceAll('workload', [], { group: 'jobset.x-k8s.io', version: 'v1alpha2', kind: 'JobSet' });
  assert.deepEqual(store.flush().removedWorkloads, [w.jobset.metadata.uid]);
});

test('malformed objects are reported and skipped, never thrown', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const noUid = pod('x');
  delete (noUid.metadata as { uid?: string }).uid;
  assert.doesNotThrow(() => {
    store.apply('pod', 'ADDED', noUid);
    store.apply('pod', 'ADDED', { metadata: null } as unknown as KubeObject);
    store.apply('pod', 'ADDED', null as unknown as KubeObject);
    store.apply('workload', 'ADDED', {
      metadata: { name: 'w', uid: 'u', ownerReferences: 'nope' },
    } as unknown as KubeObject);
    store.apply('pod', 'ADDED', {
      metadata: { name: 'weird', uid: 'wu' },
      spec: 'not-an-object',
      status: 7,
    } as unknown as KubeObject);
  });
  store.flush();
  const problems = store.problems();
  assert.ok(
    problems.some((p) => p.includes('skipped malformed pod object ml/x: missing metadata.uid')),
    problems.join('\n'),
  );
  assert.ok(problems.some((p) => p.includes('missing metadata')));
  assert.ok(problems.some((p) => p.includes('metadata.ownerReferences is not a list')));
  assert.equal(store.stats().pods, 1, 'the odd but identifiable pod is kept');
});

test('evaluation problems surface in problems() with the workload, component, field and expression', () => {
  const def = jobsetDefinition();
  def.components[1].scaleDefinition = { replicasPath: '.spec.replicatedJobs[].replicas | tonumber' };
  const store = new ObservedStore({ definitions: [def] });
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 1, gpus: 1 }]);
  (w.jobset.spec!['replicatedJobs'] as { replicas: unknown }[])[0].replicas = 'many';
  feed(store, w);
  store.flush();
  const problems = store.problems();
  assert.equal(problems.length, 1);
  assert.match(
    problems[0],
    /^ml\/train: component replicatedjob: scaleDefinition\.replicasPath `\.spec\.replicatedJobs\[\]\.replicas \| tonumber`: /,
  );
  // The workload is still shown, with its pods.
  assert.equal(store.workloads()[0].replicas.current, 1);
});

test('an expression that does not compile is a definition problem; other definitions keep working', () => {
  const bad = pytorchDefinition();
  bad.components[1].podSelector = { componentTypeSelector: { keyPath: '.metadata.labels[', value: 'x' } };
  const store = new ObservedStore({ definitions: [bad, jobsetDefinition()] });
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 1, gpus: 1 }]);
  feed(store, w);
  store.flush();
  assert.ok(
    store
      .problems()
      .some((p) =>
        p.startsWith(
          'definition pytorchjob: component master: podSelector.componentTypeSelector.keyPath `.metadata.labels[`',
        ),
      ),
    store.problems().join('\n'),
  );
  assert.equal(store.workloads()[0].replicas.current, 1);
});

test('custom GPU resource names apply to pods and nodes', () => {
  const store = new ObservedStore({ definitions: [statefulsetDefinition()], gpuResources: ['habana.ai/gaudi'] });
  const n = node('g', 0);
  n.status!['capacity'] = { 'habana.ai/gaudi': '8' };
  n.status!['allocatable'] = { 'habana.ai/gaudi': '8' };
  store.apply('node', 'ADDED', n);
  const sts = object('apps/v1', 'StatefulSet', 's', {
    spec: { replicas: 1, template: { spec: { containers: [{ resources: { limits: { 'habana.ai/gaudi': 2 } } }] } } },
  });
  store.apply('workload', 'ADDED', sts);
  const p = pod('s-0', { owner: sts, node: 'g' });
  p.spec!['containers'] = [{ name: 'main', resources: { limits: { 'habana.ai/gaudi': 2, 'nvidia.com/gpu': 1 } } }];
  store.apply('pod', 'ADDED', p);
  store.flush();
  // The NVIDIA GPU is outside the count the names give, but held: named beside it, not dropped.
  assert.deepEqual(store.workloads()[0].gpus, {
    desired: 2,
    requested: 2,
    allocated: 2,
    slices: { 'nvidia.com/gpu': 1 },
  });
  assert.deepEqual(store.totals().gpuCapacity, 8);
  assert.equal(store.nodes()[0].gpuRequested, 2);
});

test('a relist replaying objects with unchanged resourceVersions changes nothing', () => {
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const w = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 1 }]);
  let rv = 100;
  for (const o of [w.jobset, ...w.jobs, ...w.pods]) o.metadata.resourceVersion = String(rv++);
  feed(store, w);
  store.flush();
  const tree = store.workloads()[0];
  store.replaceAll('pod', w.pods.map(clone));
  store.replaceAll('owner', w.jobs.map(clone));
  assert.deepEqual(store.flush(), { changedWorkloads: [], removedWorkloads: [], nodesChanged: false });
  assert.equal(store.workloads()[0], tree);
  // A new resourceVersion with a real change is applied.
  const p = clone(w.pods[0]);
  p.metadata.resourceVersion = String(rv++);
  p.status!['phase'] = 'Failed';
  store.apply('pod', 'MODIFIED', p);
  assert.deepEqual(store.flush().changedWorkloads, [w.jobset.metadata.uid]);
});

test('pods by namespace', () => {
  const store = new ObservedStore({ definitions: [] });
  store.apply('pod', 'ADDED', pod('b-10', { namespace: 'x' }));
  store.apply('pod', 'ADDED', pod('b-9', { namespace: 'x' }));
  store.apply('pod', 'ADDED', pod('c', { namespace: 'y' }));
  assert.deepEqual(
    store.namespacePods('x').map((p) => p.name),
    ['b-9', 'b-10'],
  );
  assert.deepEqual(store.namespacePods('z'), []);
});
