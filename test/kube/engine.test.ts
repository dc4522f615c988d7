// The engine over the demo API server (real HTTP, real client-node auth path,
// real ClusterStore and built-in definitions), with objects the test writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { startDemoCluster, type DemoCluster } from '../../demo/index.js';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { startEngine, type ClusterEngine, type EngineOptions } from '../../src/kube/engine.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import type { ModelSnapshot, WorkloadTree, RoleTree } from '../../src/model/types.js';
import { KEYS, putJobSet, putJobSetPods, putNode, putPod, tfjobKarta } from './fixtures.js';
import { until, transportFor, startDemoEngine } from './helpers.js';

function engineFor(cluster: DemoCluster, extra: Partial<EngineOptions> = {}): Promise<ClusterEngine> {
  return startDemoEngine(cluster, {
    flushIntervalMs: 20,
    reflector: { backoff: { initialMs: 20, maxMs: 200, factor: 2, jitter: 0.2 } },
    ...extra,
  });
}

function allPods(w: WorkloadTree): string[] {
  const walk = (roles: RoleTree[]): string[] => roles.flatMap((r) => [...r.pods.map((p) => p.name), ...walk(r.roles)]);
  return [...walk(w.roles), ...w.unattributedPods.map((p) => p.name)].sort();
}

test('engine: lists, builds trees, hides nested Jobs, streams changes to subscribers', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const { jobset, jobs } = putJobSet(cluster.store, 'training', 'llama', ['leader', 'worker'], 4);
  const pods = putJobSetPods(cluster.store, 'llama', jobs);
  const engine = await engineFor(cluster);
  t.after(() => engine.stop());
  await engine.whenSynced();
  let snap = engine.getSnapshot();
  assert.deepEqual(
    snap.workloads.map((w) => `${w.kind}/${w.namespace}/${w.name}`),
    ['JobSet/training/llama'],
    "the JobSet's Jobs are not separate workloads",
  );
  const w = snap.workloads[0];
  assert.equal(w.uid, jobset.metadata.uid);
  assert.equal(w.definitionSource, 'builtin');
  assert.deepEqual(w.roles.map((r) => r.instance ?? r.component).sort(), ['leader', 'worker']);
  assert.deepEqual(allPods(w), pods.map((p) => p.metadata.name).sort());
  assert.equal(w.gpus.allocated, 8);
  assert.equal(snap.nodes.length, 1);
  assert.equal(snap.nodes[0].gpuRequested, 8);
  assert.equal(snap.totals.gpuAllocatable, 8);
  assert.ok(snap.kinds.some((k) => k.resource === 'pods' && k.state === 'live' && k.count === 2));
  assert.ok(snap.kinds.some((k) => k.resource === 'jobsets.jobset.x-k8s.io' && k.state === 'live'));
  assert.equal(engine.getConnectionInfo().serverVersion, 'v1.32.0');
  assert.equal(engine.getNodePods('gpu-node-01').length, 2);

  // A new pod of the worker Job arrives: subscribers get a new snapshot naming the changed workload.
  const seen: ModelSnapshot[] = [];
  const unsubscribe = engine.subscribe((s) => seen.push(s));
  const extra = putPod(
    cluster.store,
    'training',
    'llama-worker-0-1-fghij',
    jobs[1],
    {
      'jobset.sigs.k8s.io/jobset-name': 'llama',
      'jobset.sigs.k8s.io/replicatedjob-name': 'worker',
    },
    { node: null },
  );
  await until(() => seen.some((s) => s.changedWorkloads.includes(jobset.metadata.uid)), 'a snapshot with the change');
  snap = engine.getSnapshot();
  assert.ok(allPods(snap.workloads[0]).includes('llama-worker-0-1-fghij'));
  assert.equal(snap.totals.gpuPending, 4);
  assert.ok(Object.isFrozen(snap), 'snapshots are immutable');
  const versions = seen.map((s) => s.version);
  assert.deepEqual(
    versions,
    [...versions].sort((a, b) => a - b),
    'versions increase',
  );

  // Deleted: gone from the tree.
  cluster.store.delete(KEYS.pods, 'training', extra.metadata.name);
  await until(() => !allPods(engine.getSnapshot().workloads[0]).includes('llama-worker-0-1-fghij'), 'pod removed');
  unsubscribe();

  // Requests were GETs only.
  assert.ok(cluster.requests().length > 0);
  assert.deepEqual([...new Set(cluster.requests().map((r) => r.method))], ['GET']);
});

test('engine: a Karta in the cluster defines a type (hot reload starts watching it); forbidden kinds are reported', async (t) => {
  const cluster = await startDemoCluster({ simulate: false, faults: { forbid: ['statefulsets.apps'] } });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const engine = await engineFor(cluster);
  t.after(() => engine.stop());
  await engine.whenSynced();
  assert.equal(engine.getSnapshot().workloads.length, 0);
  const sts = engine.getSnapshot().kinds.find((k) => k.gvk.kind === 'StatefulSet');
  assert.equal(sts?.state, 'forbidden');
  assert.ok(engine.getSnapshot().problems.some((p) => /statefulsets.*forbidden/i.test(p)));

  // A TFJob exists before anyone defines it; then a Karta for TFJob appears.
  const tf = cluster.store.put(KEYS.tfjobs, {
    apiVersion: 'kubeflow.org/v1',
    kind: 'TFJob',
    metadata: { name: 'resnet', namespace: 'research', uid: '', resourceVersion: '', creationTimestamp: '' },
    spec: {
      tfReplicaSpecs: {
        Worker: {
          replicas: 1,
          template: {
            spec: { containers: [{ name: 'tf', image: 'tf', resources: { limits: { 'nvidia.com/gpu': '1' } } }] },
          },
        },
      },
    },
    status: { conditions: [{ type: 'Running', status: 'True' }] },
  });
  putPod(
    cluster.store,
    'research',
    'resnet-worker-0',
    tf,
    { 'training.kubeflow.org/job-name': 'resnet', 'training.kubeflow.org/replica-type': 'worker' },
    { gpus: 1 },
  );
  cluster.store.put(KEYS.kartas, tfjobKarta());
  await until(
    () => engine.getSnapshot().workloads.some((w) => w.kind === 'TFJob'),
    'TFJob workload after the Karta arrived',
  );
  const w = engine.getSnapshot().workloads.find((x) => x.kind === 'TFJob')!;
  assert.equal(w.definitionSource, 'cluster');
  assert.deepEqual(w.status, ['Running']);
  assert.deepEqual(allPods(w), ['resnet-worker-0']);
  assert.ok(
    engine
      .getSnapshot()
      .definitions.some((d) => d.source === 'cluster' && d.kind === 'kubeflow.org/v1/TFJob' && d.workloads === 1),
  );
});

test('engine: list-only mode fails whenSynced with the server named when nothing listens', async () => {
  const cluster = await startDemoCluster({ simulate: false });
  const transport = transportFor(cluster);
  await cluster.stop();
  await assert.rejects(
    startDemoEngine(cluster, { transport, watch: false }),
    (err: Error) => err.message.includes(cluster.server) && /ECONNREFUSED/.test(err.message),
  );
});

test('engine (live): a server unreachable at start is retried until it answers', async (t) => {
  const net = await import('node:net');
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as import('node:net').AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'late', cluster: 'c', user: 'u' }],
    currentContext: 'late',
  });
  const transport = new HttpKubeTransport(kc, `http://127.0.0.1:${port}`, 'late');
  const engine = await startEngine({
    transport,
    connection: { context: 'late', cluster: 'c', user: 'u', server: `http://127.0.0.1:${port}`, namespace: null },
    namespace: null,
    definitions: loadDefinitions({ envPaths: '' }),
    flushIntervalMs: 20,
  });
  t.after(() => engine.stop());
  assert.equal(engine.getConnectionInfo().serverVersion, null);
  // The cause and the next attempt, once for the cluster (not a problem line per kind).
  await until(() => engine.getSnapshot().connection.retryAt !== undefined, 'the connection state reported');
  const failing = engine.getSnapshot().connection;
  assert.equal(failing.state, 'retrying');
  assert.deepEqual(failing.cause, { kind: 'unreachable', text: 'connection refused' });
  assert.ok(Date.parse(failing.retryAt!) > Date.now() - 1000);
  await new Promise((r) => setTimeout(r, 300));
  const cluster = await startDemoCluster({ simulate: false, port });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  await engine.whenSynced();
  await until(() => engine.getSnapshot().nodes.length === 1, 'the node after the server came up');
  assert.equal(engine.getConnectionInfo().serverVersion, 'v1.32.0');
  assert.ok(engine.getSnapshot().kinds.some((k) => k.resource === 'pods' && k.state === 'live'));
  await until(() => engine.getSnapshot().connection.state === 'live', 'the connection live again');
  assert.equal(engine.getSnapshot().connection.cause, undefined);
  assert.doesNotMatch(engine.getSnapshot().problems.join('\n'), /ECONNREFUSED/);
});

test('engine: -l on a kind that can be nested is applied locally, and owner chains through unselected objects still work', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const a = putJobSet(cluster.store, 'training', 'red-one', ['worker'], 1);
  cluster.store.put(KEYS.jobsets, { ...a.jobset, metadata: { ...a.jobset.metadata, labels: { team: 'red' } } });
  putJobSetPods(cluster.store, 'red-one', a.jobs, { gpus: 1 });
  const b = putJobSet(cluster.store, 'training', 'blue-one', ['worker'], 1);
  putJobSetPods(cluster.store, 'blue-one', b.jobs, { gpus: 1 });
  const engine = await engineFor(cluster, { labelSelector: 'team=red' });
  t.after(() => engine.stop());
  await engine.whenSynced();
  const snap = engine.getSnapshot();
  assert.deepEqual(
    snap.workloads.map((w) => w.name),
    ['red-one'],
  );
  assert.deepEqual(allPods(snap.workloads[0]), ['red-one-worker-0-0-abcde']);
  // JobSets may sit under TrainJobs (built-in catalog), so they are listed whole.
  const jobsetLists = cluster
    .requests()
    .filter((r) => r.path.startsWith('/apis/jobset.x-k8s.io/v1alpha2/jobsets?') && r.path.includes('limit='));
  assert.ok(jobsetLists.length > 0 && jobsetLists.every((r) => !r.path.includes('labelSelector')));
  // The label is removed: the workload leaves the view.
  cluster.store.put(KEYS.jobsets, { ...a.jobset, metadata: { ...a.jobset.metadata, labels: {} } });
  await until(() => engine.getSnapshot().workloads.length === 0, 'unselected after relabel');
});

test('engine: a cluster Karta that makes a watched owner kind a workload type re-watches it in its new role', async (t) => {
  const { readFileSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const yaml = (await import('js-yaml')).default;
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const { jobs } = putJobSet(cluster.store, 'training', 'llama', ['worker'], 2);
  putJobSetPods(cluster.store, 'llama', jobs, { gpus: 2 });
  // Only the JobSet definition: Jobs are owners (metadata only) at first.
  const engine = await engineFor(cluster, {
    includeNested: true,
    definitions: loadDefinitions({
      includeBuiltin: false,
      envPaths: '',
      userPaths: [`${root}definitions/jobset.x-k8s.io-jobset-v1alpha2.yaml`],
    }),
  });
  t.after(() => engine.stop());
  await engine.whenSynced();
  assert.deepEqual(
    engine.getSnapshot().workloads.map((w) => w.kind),
    ['JobSet'],
  );
  const jobKarta = yaml.load(readFileSync(`${root}definitions/batch-job-v1.yaml`, 'utf8')) as Record<string, unknown>;
  cluster.store.put(KEYS.kartas, {
    ...jobKarta,
    metadata: { name: 'cluster-jobs', uid: '', resourceVersion: '', creationTimestamp: '' },
  } as never);
  await until(() => engine.getSnapshot().workloads.some((w) => w.kind === 'Job'), 'Jobs as workloads');
  const snap = engine.getSnapshot();
  const job = snap.workloads.find((w) => w.kind === 'Job')!;
  assert.equal(job.definitionSource, 'cluster');
  assert.deepEqual(allPods(job), ['llama-worker-0-0-abcde']);
  const js = snap.workloads.find((w) => w.kind === 'JobSet')!;
  assert.deepEqual(allPods(js), ['llama-worker-0-0-abcde'], 'the JobSet still reaches its pods through the Job');
});

test('engine: a definition at a version the server does not serve watches the served version, told as a fact; one watch per kind', async (t) => {
  const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const { jobs } = putJobSet(cluster.store, 'training', 'llama', ['leader', 'worker'], 2);
  const pods = putJobSetPods(cluster.store, 'llama', jobs);
  // The built-in JobSet definition moved to a version the demo does not serve (v1alpha2 is served).
  const root = new URL('../../../', import.meta.url).pathname;
  const builtin = readFileSync(`${root}definitions/jobset.x-k8s.io-jobset-v1alpha2.yaml`, 'utf8');
  const dir = mkdtempSync(join(tmpdir(), 'wlx-version-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'jobset-v1beta9.yaml');
  writeFileSync(
    file,
    builtin.replace(/version: v1alpha2/g, 'version: v1beta9').replace(/name: jobset\S*/, 'name: jobset-future'),
  );
  const only = loadDefinitions({ includeBuiltin: false, envPaths: '', userPaths: [file] });
  assert.deepEqual(
    only.definitions.map((d) => d.rootGvk.version),
    ['v1beta9'],
  );
  const engine = await engineFor(cluster, { definitions: only });
  t.after(() => engine.stop());
  await engine.whenSynced();
  const snap = engine.getSnapshot();
  assert.deepEqual(
    snap.workloads.map((w) => `${w.apiVersion} ${w.kind}/${w.name} ${w.definition}`),
    ['jobset.x-k8s.io/v1alpha2 JobSet/llama jobset-future'],
  );
  assert.equal(allPods(snap.workloads[0]).length, pods.length);
  const jobsetKinds = snap.kinds.filter((k) => k.gvk.kind === 'JobSet');
  assert.deepEqual(
    jobsetKinds.map((k) => `${k.gvk.version} ${k.state}`),
    ['v1alpha2 live'],
  );
  // Watching the served version is a fact for :problems and `wlx get -v`, not a problem line.
  const fallback = 'JobSet jobset.x-k8s.io/v1beta9 is not served; watching jobset.x-k8s.io/v1alpha2 instead';
  assert.ok(!snap.problems.includes(fallback), JSON.stringify(snap.problems));
  assert.deepEqual(
    snap.problemEntries?.filter((e) => e.level === 'fact').map((e) => `${e.source}: ${e.text}`),
    [`served version: ${fallback}`],
  );
  assert.ok(
    snap.problems.some((p) =>
      p.startsWith(
        'JobSet jobset.x-k8s.io/v1alpha2: no definition at this version; read with definition jobset-future',
      ),
    ),
  );

  // Both definitions (the served version's and the other): one watch, the served version's definition.
  const both = loadDefinitions({ envPaths: '', userPaths: [file] });
  const engine2 = await engineFor(cluster, { definitions: both });
  t.after(() => engine2.stop());
  await engine2.whenSynced();
  const snap2 = engine2.getSnapshot();
  assert.deepEqual(
    snap2.kinds.filter((k) => k.gvk.kind === 'JobSet').map((k) => k.gvk.version),
    ['v1alpha2'],
  );
  assert.deepEqual(
    snap2.workloads.filter((w) => w.kind === 'JobSet').map((w) => w.definition),
    ['jobset.x-k8s.io-jobset-v1alpha2'],
  );
  assert.ok(!snap2.problems.some((p) => /v1beta9|no definition at this version/.test(p)), snap2.problems.join('\n'));
});
