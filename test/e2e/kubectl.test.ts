// The real kubectl (/usr/bin/kubectl) against the demo API server: tables,
// -o json/yaml/wide, selectors, -A, --show-labels, get all, api-resources,
// describe with events, logs (-f, --previous), get -w, 405 on delete, and the
// token rule. Each test has its own server, kubeconfig and discovery cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'js-yaml';
import { PODS, pod } from '../demo/server-fixtures.js';
import { kubectl, kubectlFixture, kubectlStream } from './kubectl-helpers.js';

const setup = kubectlFixture;

function lines(s: string): string[][] {
  return s
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));
}

test('kubectl get: nodes, pods, jobs, jobsets as tables; -A, -o wide, --show-labels, -l', async (t) => {
  const { env } = await setup(t);
  const [nodes, podsA, wide, labels, sel, jobs, jobsets] = await Promise.all([
    kubectl(env, ['get', 'nodes']),
    kubectl(env, ['get', 'pods', '-A']),
    kubectl(env, ['get', 'po', '-n', 'team-a', '-o', 'wide']),
    kubectl(env, ['get', 'pods', '-n', 'team-a', '--show-labels']),
    kubectl(env, ['get', 'pods', '-A', '-l', 'app=batch']),
    kubectl(env, ['get', 'jobs', '-n', 'team-a']),
    kubectl(env, ['get', 'jobsets', '-A']),
  ]);
  for (const r of [nodes, podsA, wide, labels, sel, jobs, jobsets]) assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(lines(nodes.stdout)[0], ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
  assert.deepEqual(lines(nodes.stdout)[2].slice(0, 3), ['gpu-node-2', 'Ready,SchedulingDisabled', 'gpu']);
  const pa = lines(podsA.stdout);
  assert.deepEqual(pa[0], ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
  const status = Object.fromEntries(pa.slice(1).map((r) => [r[1], r[3]]));
  assert.deepEqual(status, {
    'creating-0': 'ContainerCreating',
    'done-0': 'Completed',
    'infer-0': 'Running',
    'init-0': 'Init:0/1',
    'oom-0': 'OOMKilled',
    'trainer-0': 'Running',
    'trainer-1': 'CrashLoopBackOff',
    'trainer-2': 'Pending',
  });
  assert.match(podsA.stdout, /trainer-1\s+0\/1\s+CrashLoopBackOff\s+3 \(2m\d*s? ago\)/);
  assert.deepEqual(lines(wide.stdout)[0], [
    'NAME',
    'READY',
    'STATUS',
    'RESTARTS',
    'AGE',
    'IP',
    'NODE',
    'NOMINATED NODE',
    'READINESS GATES',
  ]);
  assert.match(wide.stdout, /trainer-0 .*10\.244\.1\.7\s+gpu-node-1\s+<none>\s+<none>/);
  assert.match(labels.stdout, /trainer-2 .*app=trainer,role=launcher/);
  assert.deepEqual(
    lines(sel.stdout)
      .slice(1)
      .map((r) => r[1]),
    ['done-0', 'oom-0'],
  );
  assert.deepEqual(lines(jobs.stdout)[0], ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']);
  assert.deepEqual(lines(jobs.stdout)[1].slice(0, 3), ['trainer-workers-0', 'Running', '0/2']);
  assert.deepEqual(lines(jobsets.stdout)[0], [
    'NAMESPACE',
    'NAME',
    'TERMINALSTATE',
    'RESTARTS',
    'COMPLETED',
    'SUSPENDED',
    'AGE',
  ]);
});

test('kubectl get -o json / -o yaml, get all, api-resources', async (t) => {
  const { env } = await setup(t);
  const [json, yaml, all, resources, nodeWide] = await Promise.all([
    kubectl(env, ['get', 'pods', '-n', 'team-a', '-o', 'json']),
    kubectl(env, ['get', 'jobset', 'trainer', '-n', 'team-a', '-o', 'yaml']),
    kubectl(env, ['get', 'all', '-n', 'team-a']),
    kubectl(env, ['api-resources']),
    kubectl(env, ['get', 'nodes', '-o', 'wide']),
  ]);
  for (const r of [json, yaml, all, resources, nodeWide]) assert.equal(r.code, 0, r.stderr);
  const list = JSON.parse(json.stdout) as { kind: string; items: Array<{ metadata: { name: string } }> };
  assert.equal(list.kind, 'List');
  assert.deepEqual(
    list.items.map((i) => i.metadata.name),
    ['trainer-0', 'trainer-1', 'trainer-2'],
  );
  const js = load(yaml.stdout) as { kind: string; spec: { replicatedJobs: unknown[] } };
  assert.equal(js.kind, 'JobSet');
  assert.equal(js.spec.replicatedJobs.length, 1);
  assert.match(all.stdout, /pod\/trainer-0/);
  assert.match(all.stdout, /job\.batch\/trainer-workers-0/);
  for (const [name, shortName] of [
    ['pods', 'po'],
    ['nodes', 'no'],
    ['events', 'ev'],
    ['namespaces', 'ns'],
    ['statefulsets', 'sts'],
    ['leaderworkersets', 'lws'],
    ['kartas', 'krt'],
  ]) {
    assert.match(resources.stdout, new RegExp(`^${name}\\s+${shortName}\\s`, 'm'));
  }
  assert.match(resources.stdout, /^jobsets\s+jobset\.x-k8s\.io\/v1alpha2\s+true\s+JobSet/m);
  assert.deepEqual(lines(nodeWide.stdout)[0], [
    'NAME',
    'STATUS',
    'ROLES',
    'AGE',
    'VERSION',
    'INTERNAL-IP',
    'EXTERNAL-IP',
    'OS-IMAGE',
    'KERNEL-VERSION',
    'CONTAINER-RUNTIME',
  ]);
  assert.match(nodeWide.stdout, /gpu-node-1 .*Ubuntu 22\.04\.4 LTS\s+5\.15\.0-119-generic\s+containerd:\/\/1\.7\.20/);
});

test('kubectl describe pod and node show their events', async (t) => {
  const { env } = await setup(t);
  const [p, n] = await Promise.all([
    kubectl(env, ['describe', 'pod', 'trainer-0', '-n', 'team-a']),
    kubectl(env, ['describe', 'node', 'gpu-node-1']),
  ]);
  assert.equal(p.code, 0, p.stderr);
  assert.match(p.stdout, /^Name:\s+trainer-0$/m);
  assert.match(p.stdout, /^Node:\s+gpu-node-1/m);
  assert.match(
    p.stdout,
    /Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned team-a\/trainer-0 to gpu-node-1/,
  );
  assert.match(p.stdout, /Normal\s+Started\s+\S+\s+kubelet\s+Started container main/);
  assert.equal(n.code, 0, n.stderr);
  assert.match(n.stdout, /^Name:\s+gpu-node-1$/m);
  assert.match(n.stdout, /Non-terminated Pods:\s+\(4 in total\)/);
  assert.match(n.stdout, /Normal\s+NodeReady\s+\S+\s+kubelet\s+Node gpu-node-1 status is now: NodeReady/);
});

test('kubectl logs, --previous, -c, and -f receiving a new line', async (t) => {
  const { f, env } = await setup(t);
  f.logs.append('team-a', 'trainer-0', 'main', 'epoch 1 loss=2.31');
  f.logs.append('team-a', 'trainer-0', 'main', 'epoch 2 loss=1.87');
  f.logs.append('team-a', 'trainer-0', 'main', 'NCCL error: unhandled system error', true);
  f.logs.append('default', 'infer-0', 'sidecar', 'sidecar up');
  const [plain, previous, side, tail] = await Promise.all([
    kubectl(env, ['logs', 'trainer-0', '-n', 'team-a']),
    kubectl(env, ['logs', 'trainer-0', '-n', 'team-a', '--previous']),
    kubectl(env, ['logs', 'infer-0', '-c', 'sidecar']),
    kubectl(env, ['logs', 'trainer-0', '-n', 'team-a', '--tail=1']),
  ]);
  assert.equal(plain.stdout, 'epoch 1 loss=2.31\nepoch 2 loss=1.87\n');
  assert.equal(previous.stdout, 'NCCL error: unhandled system error\n');
  assert.equal(side.stdout, 'sidecar up\n');
  assert.equal(tail.stdout, 'epoch 2 loss=1.87\n');
  const follow = kubectlStream(env, ['logs', '-f', 'trainer-0', '-n', 'team-a']);
  t.after(() => follow.stop());
  await follow.waitForOutput(/epoch 2/);
  f.logs.append('team-a', 'trainer-0', 'main', 'epoch 3 loss=1.52');
  await follow.waitForOutput(/epoch 3 loss=1\.52/);
});

test('kubectl get pods -w prints a line for a change made in the store', async (t) => {
  const { f, env } = await setup(t);
  const watch = kubectlStream(env, ['get', 'pods', '-n', 'team-a', '-w']);
  t.after(() => watch.stop());
  await watch.waitForOutput(/trainer-2/);
  const changed = structuredClone(f.store.get(PODS, 'team-a', 'trainer-2')!);
  f.store.put(PODS, { ...pod('trainer-2', 'team-a', 'creating'), metadata: changed.metadata });
  await watch.waitForOutput(/trainer-2\s+0\/1\s+ContainerCreating/);
  f.store.put(PODS, pod('trainer-9', 'team-a', 'running'));
  await watch.waitForOutput(/trainer-9\s+1\/1\s+Running/);
});

test('kubectl delete pod gets 405 in read-only mode and nothing changes', async (t) => {
  const { f, env } = await setup(t);
  const r = await kubectl(env, ['delete', 'pod', 'trainer-0', '-n', 'team-a', '--wait=false']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /MethodNotAllowed|does not allow this method/);
  assert.ok(f.store.get(PODS, 'team-a', 'trainer-0'));
  const mutations = f.cluster.requests().filter((q) => q.method !== 'GET');
  assert.deepEqual(
    mutations.map((q) => [q.method, q.status]),
    [['DELETE', 405]],
  );
});

test('--allow-writes: kubectl delete pod is graceful and completes', async (t) => {
  const { f, env } = await setup(t, { allowWrites: true, speed: 50 });
  const r = await kubectl(env, ['delete', 'pod', 'trainer-0', '-n', 'team-a']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /pod "trainer-0" deleted/);
  assert.equal(f.store.get(PODS, 'team-a', 'trainer-0'), undefined);
});

test('--token: kubectl over plain http sends no token and is refused; a bearer header is accepted', async (t) => {
  const { f, env } = await setup(t, { token: 'tok-123' });
  const r = await kubectl(env, ['get', 'pods']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /Unauthorized|must be logged in/);
  assert.equal((await fetch(`${f.cluster.server}/api/v1/pods`)).status, 401);
  const ok = await fetch(`${f.cluster.server}/api/v1/pods`, { headers: { Authorization: 'Bearer tok-123' } });
  assert.equal(ok.status, 200);
});
