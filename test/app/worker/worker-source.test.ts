// The engine in a worker thread against the demo API server over HTTP: the
// UI-side mirror equals an in-thread engine's snapshot on the same server,
// updates arrive in order, holds reach the worker's engine, a killed worker is
// told and restarted, and a bad kubeconfig fails the open as in-thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoCluster, type DemoCluster } from '../../../demo/index.js';
import { openModelSource } from '../../../src/app/open.js';
import type { ModelSource } from '../../../src/model/source.js';
import type { OpenOptions } from '../../../src/app/connect.js';
import { openWorkerModelSource, type WorkerSource } from '../../../src/app/worker/worker-source.js';
import type { ModelSnapshot } from '../../../src/model/types.js';
import { KEYS, putJobSet, putJobSetPods, putNode, putPod } from '../../kube/fixtures.js';
import { withoutPods } from '../../../src/model/elided-pods.js';
import { treePods } from '../../../src/model/tree-pods.js';
import { workloadRow } from '../../../src/ui/render/workloads.js';
import { RowServer } from '../../../src/ui/state/row-server.js';
import { until } from '../../kube/helpers.js';

function optionsFor(cluster: DemoCluster): OpenOptions {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-worker-test-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, cluster.kubeconfig());
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return { kubeconfig, namespace: null, definitionPaths: [], definitionsEnv: '', gpuResources: [], demo: false };
}

/** What both engines must agree on (kind states carry their own timestamps). */
function model(s: ModelSnapshot) {
  return {
    workloads: s.workloads,
    nodes: s.nodes,
    totals: s.totals,
    orphanPods: s.orphanPods,
    podsWithoutWorkload: s.podsWithoutWorkload,
    definitions: s.definitions,
    problems: s.problems,
    scheduling: s.scheduling,
    kinds: s.kinds.map((k) => `${k.resource} ${k.state} ${k.count}`),
  };
}

test('worker: the mirror equals an in-thread engine on the same server, and follows its updates in order', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const { jobs } = putJobSet(cluster.store, 'training', 'llama', ['leader', 'worker'], 4);
  putJobSetPods(cluster.store, 'llama', jobs);
  // A DaemonSet's pod: no workload holds it, the node view still lists it.
  const daemonSet = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'dcgm', uid: 'ds-uid' } };
  putPod(cluster.store, 'gpu-operator', 'dcgm-x1', daemonSet as never, {}, { gpus: 0 });
  const options = optionsFor(cluster);
  const worker = (await openModelSource({ ...options, engineThread: 'worker' })) as WorkerSource;
  t.after(() => worker.stop());
  const inline = await openModelSource(options);
  t.after(() => inline.stop());
  await Promise.all([worker.whenSynced(), inline.whenSynced()]);
  const agree = () => assert.deepStrictEqual(model(worker.getSnapshot()), model(inline.getSnapshot()));
  await until(
    () => worker.getSnapshot().workloads.length === 1 && inline.getSnapshot().workloads.length === 1,
    'trees',
  );
  agree();
  assert.deepStrictEqual(worker.getNodePods('gpu-node-01'), inline.getNodePods('gpu-node-01'));
  assert.deepEqual(
    worker.getNodePods('gpu-node-01').map((e) => `${e.pod.name}:${e.workload?.name ?? '-'}`),
    ['dcgm-x1:-', 'llama-leader-0-0-abcde', 'llama-worker-0-0-abcde'].map((n) => (n.includes(':') ? n : `${n}:llama`)),
  );
  assert.equal(worker.getConnectionInfo().serverVersion, 'v1.32.0');
  assert.ok(worker.definitions().some((d) => d.rootGvk.kind === 'JobSet'));
  assert.ok(worker.resources().some((r) => r.resource === 'pods'));

  // Updates, one after another: every published version is newer, and the end state agrees.
  const seen: ModelSnapshot[] = [];
  worker.subscribe((s) => seen.push(s));
  const before = worker.getSnapshot().workloads[0];
  for (let i = 1; i <= 5; i++)
    putPod(cluster.store, 'training', `llama-worker-0-${i}-xyz`, jobs[1], {
      'jobset.sigs.k8s.io/jobset-name': 'llama',
      'jobset.sigs.k8s.io/replicatedjob-name': 'worker',
    });
  cluster.store.delete(KEYS.pods, 'gpu-operator', 'dcgm-x1');
  const podsOf = (s: ModelSnapshot) => s.workloads[0]?.replicas.current ?? 0;
  await until(() => podsOf(worker.getSnapshot()) === 7 && podsOf(inline.getSnapshot()) === 7, 'the new pods', 10_000);
  await until(() => worker.getSnapshot().podsWithoutWorkload?.length === 0, 'the DaemonSet pod gone');
  await until(() => inline.getSnapshot().podsWithoutWorkload?.length === 0, 'the DaemonSet pod gone (inline)');
  agree();
  const versions = seen.map((s) => s.version);
  assert.deepEqual(
    versions,
    [...versions].sort((a, b) => a - b),
    'in order',
  );
  assert.ok(seen.length > 0);
  const after = worker.getSnapshot().workloads[0];
  assert.equal(
    after.roles.find((r) => r.component === 'leader' || r.instance === 'leader'),
    before.roles.find((r) => r.component === 'leader' || r.instance === 'leader'),
    'the unchanged role keeps its identity on the UI side',
  );
  assert.deepStrictEqual(worker.getNodePods('gpu-node-01'), inline.getNodePods('gpu-node-01'));
});

test("worker: a pod scope leaves the other trees' pods in the worker, with what the workloads list reads of them", async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const llama = putJobSet(cluster.store, 'training', 'llama', ['leader', 'worker'], 4);
  putJobSetPods(cluster.store, 'llama', llama.jobs);
  const bert = putJobSet(cluster.store, 'training', 'bert', ['worker'], 2);
  putJobSetPods(cluster.store, 'bert', bert.jobs);
  const daemonSet = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'dcgm', uid: 'ds-uid' } };
  putPod(cluster.store, 'gpu-operator', 'dcgm-x1', daemonSet as never, {}, { gpus: 0 });
  const options = optionsFor(cluster);
  const worker = (await openModelSource({ ...options, engineThread: 'worker' })) as WorkerSource;
  t.after(() => worker.stop());
  const inline = await openModelSource(options);
  t.after(() => inline.stop());
  await Promise.all([worker.whenSynced(), inline.whenSynced()]);
  const two = (s: ModelSnapshot) => s.workloads.length === 2 && s.workloads.every((w) => w.roles.length > 0);
  await until(() => two(worker.getSnapshot()) && two(inline.getSnapshot()), 'trees');
  assert.equal(worker.getSnapshot().podScope, undefined, 'every pod until a view says otherwise');

  // The workloads view: no pod crosses; each tree is the in-thread one without its pods.
  worker.setPodScope({ workloads: [] });
  await until(() => worker.getSnapshot().podScope !== undefined, 'the scope answered');
  const elided = worker.getSnapshot();
  assert.equal(elided.podsWithoutWorkload, undefined);
  for (const w of inline.getSnapshot().workloads) {
    const mirrored = elided.workloads.find((x) => x.uid === w.uid)!;
    assert.deepStrictEqual(mirrored, withoutPods(w, undefined), `${w.name} as elidePods makes it`);
    assert.deepStrictEqual(workloadRow(mirrored), workloadRow(w), `${w.name}: the row the user reads`);
  }
  assert.equal(treePods(elided.workloads[0]).length, 0);

  // A workload view: that tree whole, the other still elided; changes keep arriving while elided.
  const llamaUid = inline.getSnapshot().workloads.find((w) => w.name === 'llama')!.uid;
  worker.setPodScope({ workloads: [llamaUid] });
  await until(() => !worker.getSnapshot().workloads.find((w) => w.uid === llamaUid)!.podsElided, 'llama whole');
  putPod(cluster.store, 'training', 'bert-worker-0-1-xyz', bert.jobs[0], {
    'jobset.sigs.k8s.io/jobset-name': 'bert',
    'jobset.sigs.k8s.io/replicatedjob-name': 'worker',
  });
  const bertOf = (s: ModelSnapshot) => s.workloads.find((w) => w.name === 'bert')!;
  await until(() => bertOf(worker.getSnapshot()).podsElided?.pods === 2, 'the new pod counted in the elided tree');
  await until(() => treePods(bertOf(inline.getSnapshot())).length === 2, 'the new pod (inline)');
  const llamaTree = (s: ModelSnapshot) => s.workloads.find((w) => w.uid === llamaUid);
  assert.deepStrictEqual(llamaTree(worker.getSnapshot()), llamaTree(inline.getSnapshot()));
  assert.deepStrictEqual(bertOf(worker.getSnapshot()), withoutPods(bertOf(inline.getSnapshot()), undefined));

  // Every pod again (`:pods`, a node): the mirror equals the in-thread engine, the node view's pods included.
  worker.setPodScope('all');
  await until(() => worker.getSnapshot().podScope === undefined, 'every pod');
  assert.deepStrictEqual(model(worker.getSnapshot()), model(inline.getSnapshot()));
  assert.deepStrictEqual(worker.getNodePods('gpu-node-01'), inline.getNodePods('gpu-node-01'));
});

test("worker: served rows: `:pods`' window derived in the worker equals the UI derivation of an in-thread engine's snapshot", async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const llama = putJobSet(cluster.store, 'training', 'llama', ['leader', 'worker'], 4);
  putJobSetPods(cluster.store, 'llama', llama.jobs);
  const options = optionsFor(cluster);
  const worker = (await openModelSource({ ...options, engineThread: 'worker' })) as WorkerSource;
  t.after(() => worker.stop());
  const inline = await openModelSource(options);
  t.after(() => inline.stop());
  await Promise.all([worker.whenSynced(), inline.whenSynced()]);
  await until(
    () => treePods(inline.getSnapshot().workloads[0] ?? { roles: [], unattributedPods: [] }).length === 2,
    'pods',
  );
  worker.setPodScope({ workloads: [] });
  const request = {
    id: 7,
    namespace: null,
    sort: { key: 'name' as const, desc: true },
    filter: '',
    top: 0,
    page: 10,
    selected: 0,
    selectedKey: null,
  };
  worker.serveRows(request);
  await until(() => worker.rowWindow()?.request.id === 7 && worker.getSnapshot().podScope !== undefined, 'the window');
  const expected = new RowServer().window(inline.getSnapshot(), request);
  assert.deepStrictEqual(worker.rowWindow(), expected);
  assert.deepEqual(
    worker.rowWindow()!.rows.map((r) => r.pod?.name),
    ['llama-worker-0-0-abcde', 'llama-leader-0-0-abcde'],
  );
  assert.equal(treePods(worker.getSnapshot().workloads[0]).length, 0, 'the rows crossed, not the pods');
  // A change reaches the window with the next flush.
  putPod(cluster.store, 'training', 'llama-worker-0-1-xyz', llama.jobs[1], {
    'jobset.sigs.k8s.io/jobset-name': 'llama',
    'jobset.sigs.k8s.io/replicatedjob-name': 'worker',
  });
  await until(() => worker.rowWindow()?.total === 3, 'the new pod in the window');
  worker.serveRows(null);
  assert.equal(worker.rowWindow(), undefined, 'withdrawn');
  // The benchmark's probe reads a pod in the engine's model, whatever the scope.
  worker.probePod({ namespace: 'training', name: 'llama-worker-0-1-xyz' });
  await until(() => worker.lastProbe()?.restarts === 0, 'the probed pod, its restarts');
  worker.probePod({ namespace: 'training', name: 'no-such-pod' });
  await until(() => worker.lastProbe()?.name === 'no-such-pod', 'the second probe');
  assert.equal(worker.lastProbe()?.restarts, null, 'not there: null, not 0');
});

test('worker: a GPU metrics hold reaches the engine (exporters scraped); the readings are indexed on the UI side', async (t) => {
  const cluster = await startDemoCluster({});
  t.after(() => cluster.stop());
  const source = await openWorkerModelSource(optionsFor(cluster));
  t.after(() => source.stop());
  await source.whenSynced();
  const scrapes = () => cluster.requests().filter((r) => r.path.endsWith('/proxy/metrics')).length;
  assert.equal(scrapes(), 0, 'nothing scraped while no view holds the metrics');
  const release = source.holdGpuMetrics();
  await until(() => source.getSnapshot().gpuMetrics !== undefined, 'GPU metrics in the mirror', 15_000);
  assert.ok(scrapes() > 0);
  const readings = source.getSnapshot().gpuMetrics!.readings;
  assert.ok(readings.byNode instanceof Map && readings.byNode.size > 0, 'a ReadingIndex again');
  release();
  release();
});

test('worker: a killed worker is told in the snapshot and restarted; the mirror recovers', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const { jobs } = putJobSet(cluster.store, 'training', 'llama', ['leader', 'worker'], 4);
  putJobSetPods(cluster.store, 'llama', jobs);
  const source = await openWorkerModelSource(optionsFor(cluster), {
    restartBackoff: { initialMs: 50, maxMs: 200, factor: 2, jitter: 0 },
  });
  t.after(() => source.stop());
  await source.whenSynced();
  await until(() => source.getSnapshot().workloads.length === 1, 'the tree');
  const release = source.holdQueuePositions();
  const first = source.currentWorker()!;
  const version = source.getSnapshot().version;
  await first.terminate();
  await until(() => source.getSnapshot().problems.some((p) => p.startsWith('engine crashed:')), 'the crash told');
  assert.match(source.getSnapshot().problems[0], /^engine crashed: the worker exited \(code 1\), restarting$/);
  await until(() => source.currentWorker() !== null && source.currentWorker() !== first, 'a new worker');
  putPod(cluster.store, 'training', 'llama-worker-0-9-new', jobs[1], {
    'jobset.sigs.k8s.io/jobset-name': 'llama',
    'jobset.sigs.k8s.io/replicatedjob-name': 'worker',
  });
  await until(() => source.getSnapshot().workloads[0]?.replicas.current === 3, 'the restarted engine live', 30_000);
  assert.ok(source.getSnapshot().version > version, 'versions keep increasing across workers');
  release();
});

test("worker: the engine's heap is measured in the worker, and one pending at a crash settles", async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const source = await openWorkerModelSource(optionsFor(cluster), {
    restartBackoff: { initialMs: 50, maxMs: 200, factor: 2, jitter: 0 },
  });
  t.after(() => source.stop());
  await source.whenSynced();
  const heap = await source.engineHeap(false);
  assert.ok(heap.usedBytes > 1e6 && heap.totalBytes >= heap.usedBytes, JSON.stringify(heap));
  const pending = source.engineHeap(false);
  // A crash right after asking: answered first or rejected, never left hanging.
  void source.currentWorker()!.terminate();
  const outcome = await Promise.race([
    pending.then(
      () => 'answered',
      (err: Error) => err.message,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('hung'), 5000)),
  ]);
  assert.match(outcome, /^(answered|engine crashed: .*)$/);
});

test('worker: a kubeconfig that cannot be read fails the open with its message, as in-thread', async () => {
  const options: OpenOptions = {
    kubeconfig: '/nonexistent/kubeconfig',
    namespace: null,
    definitionPaths: [],
    definitionsEnv: '',
    gpuResources: [],
    demo: false,
  };
  const inline = await openModelSource(options).then(
    () => null,
    (err: Error) => err.message,
  );
  const worker = await openModelSource({ ...options, engineThread: 'worker' }).then(
    (s: ModelSource) => s.stop().then(() => null),
    (err: Error) => err.message,
  );
  assert.ok(inline);
  assert.equal(worker, inline);
});
