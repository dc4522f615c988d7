// The real kubectl against the demo API server for what goes beyond get and
// describe: auth can-i for the admin and the restricted context, can-i --list,
// get crd, explain (OpenAPI v3), --server-print=false, get --raw /readyz, the
// restricted user's Forbidden, and read-only refusing a create. Each test has
// its own server, kubeconfig and discovery cache.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { customKinds } from '../../demo/kinds.js';
import { crdName } from '../../demo/server/crds.js';
import { PODS, pod } from '../demo/server-fixtures.js';
import type { Fixture } from '../demo/server-watch-helpers.js';
import { kubectl, kubectlFixture } from './kubectl-helpers.js';

const RESTRICTED = ['--context', 'wlx-demo-restricted'];

async function setup(t: TestContext): Promise<{ f: Fixture; env: NodeJS.ProcessEnv }> {
  const fixture = await kubectlFixture(t);
  fixture.f.store.put(PODS, pod('finetune-0', 'training', 'running'));
  return fixture;
}

test('kubectl auth can-i: yes for the admin, no for the restricted user cluster-wide, yes in training', async (t) => {
  const { f, env } = await setup(t);
  const [admin, restricted, inTraining, nodes, list] = await Promise.all([
    kubectl(env, ['auth', 'can-i', 'list', 'pods', '-A']),
    kubectl(env, [...RESTRICTED, 'auth', 'can-i', 'list', 'pods', '-A']),
    kubectl(env, [...RESTRICTED, 'auth', 'can-i', 'watch', 'jobsets.jobset.x-k8s.io', '-n', 'training']),
    kubectl(env, [...RESTRICTED, 'auth', 'can-i', 'get', 'nodes']),
    kubectl(env, [...RESTRICTED, 'auth', 'can-i', '--list', '-n', 'training']),
  ]);
  assert.deepEqual([admin.code, admin.stdout.trim()], [0, 'yes'], admin.stderr);
  assert.deepEqual([restricted.code, restricted.stdout.trim()], [1, 'no'], restricted.stderr);
  assert.deepEqual([inTraining.code, inTraining.stdout.trim()], [0, 'yes'], inTraining.stderr);
  assert.deepEqual([nodes.code, nodes.stdout.trim()], [1, 'no'], nodes.stderr);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
  assert.match(list.stdout, /^pods\/log\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  assert.match(list.stdout, /^jobsets\.jobset\.x-k8s\.io\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  assert.match(list.stdout, /^\s+\[\/version\]\s+\[\]\s+\[get\]$/m);
  assert.doesNotMatch(list.stdout, /^nodes/m);
  // The reviews are POSTs in the request record, answered in read-only mode.
  const reviews = f.cluster.requests().filter((r) => r.method === 'POST');
  assert.ok(reviews.length >= 5);
  for (const r of reviews) {
    assert.match(r.path, /\/apis\/authorization\.k8s\.io\/v1\/selfsubject(access|rules)reviews/);
    assert.equal(r.status, 201);
  }
});

test('kubectl as the restricted user: training readable, cluster-wide lists and nodes Forbidden', async (t) => {
  const { env } = await setup(t);
  const [mine, all, nodes] = await Promise.all([
    kubectl(env, [...RESTRICTED, 'get', 'pods']),
    kubectl(env, [...RESTRICTED, 'get', 'pods', '-A']),
    kubectl(env, [...RESTRICTED, 'get', 'nodes']),
  ]);
  assert.equal(mine.code, 0, mine.stderr);
  assert.match(mine.stdout, /^finetune-0\s+/m);
  assert.notEqual(all.code, 0);
  assert.match(
    all.stderr,
    /Error from server \(Forbidden\): pods is forbidden: User "researcher" cannot list resource "pods" in API group "" at the cluster scope/,
  );
  assert.notEqual(nodes.code, 0);
  assert.match(nodes.stderr, /nodes is forbidden: User "researcher" cannot list resource "nodes"/);
});

test('kubectl get crd, explain pod.spec.containers and jobset.spec, --server-print=false, get --raw /readyz', async (t) => {
  const { f, env } = await setup(t);
  const [crd, explainPod, explainJobSet, noServerPrint, readyz] = await Promise.all([
    kubectl(env, ['get', 'crd']),
    kubectl(env, ['explain', 'pod.spec.containers']),
    kubectl(env, ['explain', 'jobset.spec']),
    kubectl(env, ['get', 'pods', '-A', '--server-print=false']),
    kubectl(env, ['get', '--raw', '/readyz']),
  ]);
  assert.equal(crd.code, 0, crd.stderr);
  assert.match(crd.stdout, /^NAME\s+CREATED AT$/m);
  assert.match(crd.stdout, /^jobsets\.jobset\.x-k8s\.io\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
  // The header and one line per CRD the simulator installs (a CRD per custom kind, its versions in one).
  assert.equal(crd.stdout.trim().split('\n').length, 1 + new Set(customKinds().map(crdName)).size);

  assert.equal(explainPod.code, 0, explainPod.stderr);
  assert.match(explainPod.stdout, /^KIND:\s+Pod$/m);
  assert.match(explainPod.stdout, /^FIELD: containers <\[\]Container>$/m);
  assert.match(explainPod.stdout, /^\s+image\s+<string>$/m);
  assert.match(explainPod.stdout, /^\s+name\s+<string> -required-$/m);
  assert.match(explainPod.stdout, /^\s+resources\s+<ResourceRequirements>$/m);

  assert.equal(explainJobSet.code, 0, explainJobSet.stderr);
  assert.match(explainJobSet.stdout, /^GROUP:\s+jobset\.x-k8s\.io$/m);
  assert.match(explainJobSet.stdout, /^KIND:\s+JobSet$/m);
  assert.match(explainJobSet.stdout, /^FIELD: spec <Object>$/m);
  assert.match(explainJobSet.stdout, /^\s+replicatedJobs\s+<\[\]Object>$/m);
  assert.match(explainJobSet.stdout, /^\s+suspend\s+<boolean>$/m);
  // explain reads the v3 root and then only the documents of the groups it needs.
  const openapi = f.cluster.requests().filter((r) => r.path.startsWith('/openapi/'));
  assert.ok(openapi.every((r) => r.status === 200));
  assert.ok(openapi.some((r) => r.path.startsWith('/openapi/v3/api/v1?hash=')));
  assert.ok(openapi.some((r) => r.path.startsWith('/openapi/v3/apis/jobset.x-k8s.io/v1alpha2?hash=')));
  assert.ok(!openapi.some((r) => r.path.startsWith('/openapi/v2')));

  assert.equal(noServerPrint.code, 0, noServerPrint.stderr);
  assert.match(noServerPrint.stdout, /^NAMESPACE\s+NAME\s+AGE$/m);
  assert.match(noServerPrint.stdout, /^team-a\s+trainer-0\s+\S+$/m);
  assert.deepEqual([readyz.code, readyz.stdout], [0, 'ok']);
});

test('read-only: kubectl create is refused (405) while the reviews it may send still work', async (t) => {
  const { f, env } = await setup(t);
  const manifest = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'new-0', namespace: 'team-a' },
    spec: { containers: [{ name: 'main', image: 'busybox' }] },
  });
  const path = `${env.HOME}/pod.json`;
  await writeFile(path, manifest);
  const r = await kubectl(env, ['create', '-f', path]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /MethodNotAllowed|does not allow this method/);
  assert.equal(f.store.get(PODS, 'team-a', 'new-0'), undefined);
  const writes = f.cluster.requests().filter((q) => q.method !== 'GET' && !q.path.includes('selfsubject'));
  assert.deepEqual(
    writes.map((q) => [q.method, q.status]),
    [['POST', 405]],
  );
});
