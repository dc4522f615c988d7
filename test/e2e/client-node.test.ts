// @kubernetes/client-node against the demo API server: an informer's list +
// watch, an update arriving, and the relist after a 410 (forced by the fault,
// and for real when the informer's resourceVersion falls out of the history).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig, KubernetesObjectApi, makeInformer, type V1Pod } from '@kubernetes/client-node';
import { NODES, PODS, node, pod } from '../demo/server-fixtures.js';
import { startFixture, type Fixture } from '../demo/server-watch-helpers.js';

async function setup(
  t: TestContext,
  options: Parameters<typeof startFixture>[0] = {},
  historyLimit?: number,
): Promise<{ f: Fixture; kc: KubeConfig }> {
  const f = await startFixture(options, historyLimit);
  t.after(() => f.cluster.stop());
  const kc = new KubeConfig();
  kc.loadFromString(f.cluster.kubeconfig());
  return { f, kc };
}

function until<T>(what: string, check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const v = check();
      if (v !== undefined && v !== false) return resolve(v);
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

function podListCalls(f: Fixture): number {
  return f.cluster.requests().filter((r) => r.path.startsWith('/api/v1/pods') && !r.path.includes('watch=')).length;
}

test('client-node informer: list + watch, an update arrives', async (t) => {
  const { f, kc } = await setup(t);
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<V1Pod>(kc, '/api/v1/pods', () => api.listPodForAllNamespaces());
  const updates: string[] = [];
  const errors: unknown[] = [];
  informer.on('update', (p) => updates.push(`${p.metadata?.name}:${p.status?.phase}`));
  informer.on('error', (e) => errors.push(e));
  await informer.start();
  t.after(() => informer.stop().catch(() => undefined));
  assert.equal(informer.list().length, 8);
  assert.equal(informer.get('trainer-2', 'team-a')?.status?.phase, 'Pending');
  await until('the watch to open', () => f.cluster.api.openWatches === 1);
  f.store.put(PODS, {
    ...pod('trainer-2', 'team-a', 'running'),
    metadata: structuredClone(f.store.get(PODS, 'team-a', 'trainer-2')!.metadata),
  });
  await until('the update', () => updates.includes('trainer-2:Running'));
  assert.equal(informer.get('trainer-2', 'team-a')?.status?.phase, 'Running');
  assert.deepEqual(errors, []);
});

test('client-node informer relists after a forced 410 and after a real one', async (t) => {
  // Watches end after 1 s (the server's own limit), so the informer re-watches from its resourceVersion.
  const { f, kc } = await setup(t, { maxWatchSeconds: 1 }, 20);
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<V1Pod>(kc, '/api/v1/pods', () => api.listPodForAllNamespaces());
  const errors: unknown[] = [];
  informer.on('error', (e) => errors.push(e));
  await informer.start();
  t.after(() => informer.stop().catch(() => undefined));
  assert.equal(podListCalls(f), 1);

  f.cluster.faults.set({ expireNextWatches: 1 });
  await until('a relist after the forced 410', () => podListCalls(f) >= 2, 10_000);
  const expiredWatch = f.cluster
    .requests()
    .find((r) => r.path.includes('watch=') && r.status === 200 && r.durationMs !== undefined && r.durationMs < 500);
  assert.ok(expiredWatch, 'a short watch answered with the 410 event');

  // A real expiry: changes to another kind push the pods' resourceVersion out of the 20-event history.
  for (let i = 0; i < 30; i++) f.store.put(NODES, node(`filler-${i}`));
  const lists = podListCalls(f);
  await until('a relist after the real 410', () => podListCalls(f) > lists, 10_000);
  f.store.put(PODS, pod('after-relist', 'default', 'running'));
  await until('the informer to keep watching', () => informer.get('after-relist', 'default'));
  assert.deepEqual(errors, []);
});

test('client-node KubernetesObjectApi reads custom resources through legacy discovery', async (t) => {
  const { kc } = await setup(t);
  const objects = KubernetesObjectApi.makeApiClient(kc);
  const list = await objects.list('jobset.x-k8s.io/v1alpha2', 'JobSet', 'team-a');
  assert.deepEqual(
    list.items.map((i) => i.metadata?.name),
    ['trainer'],
  );
  const got = await objects.read({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'gpu-node-1' } });
  assert.equal(got.metadata?.name, 'gpu-node-1');
  await assert.rejects(
    objects.read({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nope', namespace: 'default' } }),
    (err: { code?: number }) => err.code === 404,
  );
});
