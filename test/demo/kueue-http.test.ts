// The simulated cluster's Kueue and KAI over real HTTP: discovery of the
// Kueue, visibility and scheduling.run.ai groups, the served CRDs, the
// visibility API's pendingworkloads (both versions, offset/limit, NotFound,
// RBAC), and the real kubectl: get workloads,clusterqueues -A with Kueue's
// printer columns, get --raw of pendingworkloads, and the restricted
// context's 403 on clusterqueues.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { DemoCluster } from '../../demo/index.js';
import { kubectl, kubectlDemoCluster } from '../e2e/kubectl-helpers.js';

type Json = Record<string, unknown>;

const VIS = '/apis/visibility.kueue.x-k8s.io';
const CQ_PENDING = `${VIS}/v1beta2/clusterqueues/gpu-cluster-queue/pendingworkloads`;
const LQ_PENDING = (version: string, ns: string, lq: string) =>
  `${VIS}/${version}/namespaces/${ns}/localqueues/${lq}/pendingworkloads`;
const RESTRICTED = ['--context', 'wlx-demo-restricted'];

function cluster(t: TestContext): Promise<{ c: DemoCluster; env: NodeJS.ProcessEnv }> {
  return kubectlDemoCluster(t, { speed: 20, seed: 5 });
}

async function get(c: DemoCluster, path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${c.server}${path}`, { headers: { accept: 'application/json' } });
  return { status: res.status, body: (await res.json()) as Json };
}

function positions(body: Json): Array<[string, string, number, number]> {
  return (body.items as Json[]).map((i) => [
    (i.metadata as Json).namespace as string,
    i.localQueueName as string,
    i.positionInClusterQueue as number,
    i.positionInLocalQueue as number,
  ]);
}

test('discovery, CRDs and the visibility API over HTTP', async (t) => {
  const { c } = await cluster(t);
  const groups = (await get(c, '/apis')).body.groups as Array<{ name: string; preferredVersion: { version: string } }>;
  const names = groups.map((g) => g.name);
  assert.ok(names.indexOf('kueue.x-k8s.io') < names.indexOf('visibility.kueue.x-k8s.io'), 'CRD group first');
  assert.equal(groups.find((g) => g.name === 'visibility.kueue.x-k8s.io')?.preferredVersion.version, 'v1beta2');
  const vis = (await get(c, `${VIS}/v1beta1`)).body.resources as Json[];
  assert.deepEqual(
    vis.map((r) => [r.name, r.verbs]),
    [
      ['clusterqueues', []],
      ['clusterqueues/pendingworkloads', ['get']],
      ['localqueues', []],
      ['localqueues/pendingworkloads', ['get']],
    ],
  );
  const crd = (await get(c, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/workloads.kueue.x-k8s.io')).body;
  const version = (crd.spec as { versions: Json[] }).versions[0];
  assert.equal(version.name, 'v1beta2');
  assert.deepEqual(
    (version.additionalPrinterColumns as Json[]).map((col) => col.name),
    ['Queue', 'Reserved in', 'Admitted', 'Finished', 'Age'],
  );

  // v1beta1, deprecated, served from the same objects in its own spelling.
  assert.deepEqual(
    (crd.spec as { versions: Json[] }).versions.map((v) => [v.name, v.storage, v.deprecated ?? false]),
    [
      ['v1beta2', true, false],
      ['v1beta1', false, true],
    ],
  );
  const old = (await get(c, '/apis/kueue.x-k8s.io/v1beta1/namespaces/training/workloads')).body;
  assert.equal(old.apiVersion, 'kueue.x-k8s.io/v1beta1');
  const stuck = (old.items as Json[]).find((w) => (w.metadata as Json).name?.toString().startsWith('jobset-stuck-'))!;
  assert.equal(stuck.apiVersion, 'kueue.x-k8s.io/v1beta1');
  const stuckSpec = stuck.spec as Json;
  assert.deepEqual(
    [stuckSpec.priorityClassName, stuckSpec.priorityClassSource, stuckSpec.priorityClassRef],
    ['preemptible', 'scheduling.k8s.io/priorityclass', undefined],
  );
  const lqV1 = (await get(c, '/apis/kueue.x-k8s.io/v1beta1/namespaces/research/localqueues/research-queue')).body;
  assert.ok('flavorUsage' in (lqV1.status as Json) && !('flavorsUsage' in (lqV1.status as Json)));

  const cq = await get(c, CQ_PENDING);
  assert.equal(cq.status, 200);
  assert.equal(cq.body.kind, 'PendingWorkloadsSummary');
  assert.equal(cq.body.apiVersion, 'visibility.kueue.x-k8s.io/v1beta2');
  assert.deepEqual(positions(cq.body), [
    ['training', 'training-queue', 0, 0],
    ['research', 'research-queue', 1, 0],
  ]);
  const owner = ((cq.body.items as Json[])[0].metadata as { ownerReferences: Json[] }).ownerReferences[0];
  assert.deepEqual([owner.kind, owner.name], ['PyTorchJob', 'queued-sft']);
  assert.deepEqual(positions((await get(c, `${CQ_PENDING}?offset=1&limit=5`)).body), [
    ['research', 'research-queue', 1, 0],
  ]);
  const lq = await get(c, LQ_PENDING('v1beta1', 'research', 'research-queue'));
  assert.equal(lq.body.apiVersion, 'visibility.kueue.x-k8s.io/v1beta1');
  assert.deepEqual(positions(lq.body), [['research', 'research-queue', 1, 0]]);

  const missing = await get(c, `${VIS}/v1beta2/clusterqueues/nope/pendingworkloads`);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.message, 'clusterqueue.visibility.kueue.x-k8s.io "nope" not found');
  assert.equal((await get(c, `${VIS}/v1beta2/clusterqueues/gpu-cluster-queue`)).status, 405);
  assert.equal((await get(c, `${CQ_PENDING}?limit=-1`)).status, 400);

  // The restricted user: its LocalQueue's pending workloads, nothing cluster-scoped.
  const mine = await get(c, `/restricted${LQ_PENDING('v1beta2', 'training', 'training-queue')}`);
  assert.equal(mine.status, 200);
  assert.deepEqual(positions(mine.body), [['training', 'training-queue', 0, 0]]);
  const denied = await get(c, `/restricted${CQ_PENDING}`);
  assert.equal(denied.status, 403);
  assert.equal(denied.body.reason, 'Forbidden');
  assert.equal(
    denied.body.message,
    'clusterqueues.visibility.kueue.x-k8s.io "gpu-cluster-queue" is forbidden: User "researcher" cannot get resource "clusterqueues/pendingworkloads" in API group "visibility.kueue.x-k8s.io" at the cluster scope',
  );
  assert.equal((await get(c, `/restricted${LQ_PENDING('v1beta2', 'research', 'research-queue')}`)).status, 403);
  assert.equal((await get(c, '/restricted/apis/kueue.x-k8s.io/v1beta2/namespaces/training/workloads')).status, 200);
  assert.equal((await get(c, '/restricted/apis/kueue.x-k8s.io/v1beta2/workloads')).status, 403);
});

test('kubectl: get workloads,clusterqueues -A, get --raw pendingworkloads, and the restricted context', async (t) => {
  const { env } = await cluster(t);
  const [wl, raw, restricted, restrictedRaw, lq] = await Promise.all([
    kubectl(env, ['get', 'workloads,clusterqueues', '-A']),
    kubectl(env, ['get', '--raw', CQ_PENDING]),
    kubectl(env, [...RESTRICTED, 'get', 'clusterqueues']),
    // --raw ignores the server URL's path, so the restricted user's prefix is part of the path.
    kubectl(env, [...RESTRICTED, 'get', '--raw', `/restricted${LQ_PENDING('v1beta2', 'training', 'training-queue')}`]),
    kubectl(env, [...RESTRICTED, 'get', 'localqueues,workloads']),
  ]);
  assert.equal(wl.code, 0, wl.stderr);
  assert.match(wl.stdout, /^NAMESPACE\s+NAME\s+QUEUE\s+RESERVED IN\s+ADMITTED\s+FINISHED\s+AGE$/m);
  assert.match(
    wl.stdout,
    /^training\s+workload\.kueue\.x-k8s\.io\/jobset-llama-pretrain-\w{5}\s+training-queue\s+gpu-cluster-queue\s+True\s+/m,
  );
  assert.match(
    wl.stdout,
    /^training\s+workload\.kueue\.x-k8s\.io\/pytorchjob-queued-sft-\w{5}\s+training-queue\s+\S+$/m,
  );
  assert.match(wl.stdout, /^NAMESPACE\s+NAME\s+COHORT\s+PENDING WORKLOADS$/m);
  assert.match(wl.stdout, /^\s+clusterqueue\.kueue\.x-k8s\.io\/gpu-cluster-queue\s+2$/m);

  assert.equal(raw.code, 0, raw.stderr);
  assert.deepEqual(positions(JSON.parse(raw.stdout) as Json), [
    ['training', 'training-queue', 0, 0],
    ['research', 'research-queue', 1, 0],
  ]);

  assert.notEqual(restricted.code, 0);
  assert.match(
    restricted.stderr,
    /Error from server \(Forbidden\): clusterqueues\.kueue\.x-k8s\.io is forbidden: User "researcher" cannot list resource "clusterqueues" in API group "kueue\.x-k8s\.io" at the cluster scope/,
  );
  assert.equal(restrictedRaw.code, 0, restrictedRaw.stderr);
  assert.deepEqual(positions(JSON.parse(restrictedRaw.stdout) as Json), [['training', 'training-queue', 0, 0]]);
  assert.equal(lq.code, 0, lq.stderr);
  assert.match(lq.stdout, /^localqueue\.kueue\.x-k8s\.io\/training-queue\s+gpu-cluster-queue\s+1\s+[34]$/m);
});
