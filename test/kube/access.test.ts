// The on-demand access layer against the simulated cluster: a whole object
// fetched fresh, events filtered to a set of objects, a followed log stream
// that the server sees closed when aborted, previous logs of a crashed
// container, and nothing but GETs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoCluster } from '../../demo/index.js';
import { createAccess, eventMatches, logQuery, objectPath } from '../../src/kube/access.js';
import { gvkOf } from '../../src/definitions/types.js';
import type { KubeObject } from '../../src/model/types.js';
import { transportFor } from './helpers.js';

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('paths and filters', () => {
  assert.deepEqual(gvkOf('apps/v1', 'StatefulSet'), { group: 'apps', version: 'v1', kind: 'StatefulSet' });
  assert.deepEqual(gvkOf('v1', 'Pod'), { group: '', version: 'v1', kind: 'Pod' });
  assert.equal(
    objectPath(gvkOf('jobset.x-k8s.io/v1alpha2', 'JobSet'), 'jobsets', 'ns 1', 'a/b'),
    '/apis/jobset.x-k8s.io/v1alpha2/namespaces/ns%201/jobsets/a%2Fb',
  );
  assert.equal(objectPath(gvkOf('v1', 'Node'), 'nodes', null, 'n1'), '/api/v1/nodes/n1');
  assert.equal(
    logQuery({ container: 'c', follow: true, previous: false, timestamps: true, tailLines: 10 }),
    '?container=c&follow=true&timestamps=true&tailLines=10',
  );
  assert.equal(logQuery({}), '');
  const ev = { metadata: { name: 'e', uid: 'e' }, involvedObject: { kind: 'Pod', name: 'p', uid: 'u1' } } as KubeObject;
  assert.equal(eventMatches(ev, { uids: ['u1'] }), true);
  assert.equal(eventMatches(ev, { uids: ['u2'] }), false);
  assert.equal(eventMatches(ev, { names: [{ kind: 'Pod', name: 'p' }] }), true);
  assert.equal(eventMatches(ev, { names: [{ kind: 'Node', name: 'p' }] }), false);
});

test('access over the simulated cluster: fresh objects, events, logs (closed on abort), GET only', async (t) => {
  const cluster = await startDemoCluster({ speed: 10, seed: 3 });
  const transport = transportFor(cluster);
  t.after(async () => {
    transport.close();
    await cluster.stop();
  });
  const access = createAccess(transport);

  // A running pod of llama-pretrain, fetched whole (env is dropped by the model's trim).
  const pods = await until('llama-pretrain pods running', async () => {
    const list = (await access.listPods('training')).filter(
      (p) => p.metadata.name.startsWith('llama-pretrain-') && (p.status as { phase?: string }).phase === 'Running',
    );
    return list.length === 3 ? list : undefined;
  });
  const pod = pods[0];
  const fresh = await access.getObject({
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: 'training',
    name: pod.metadata.name,
  });
  assert.equal(fresh.metadata.uid, pod.metadata.uid);
  const env = (fresh.spec as { containers: Array<{ env?: unknown[] }> }).containers[0].env;
  assert.ok(Array.isArray(env) && env.length > 0, 'whole object, env included');
  // A custom resource through discovery.
  const js = await access.getObject({
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    namespace: 'training',
    name: 'llama-pretrain',
  });
  assert.equal(js.kind, 'JobSet');
  await assert.rejects(
    access.getObject({ apiVersion: 'v1', kind: 'Pod', namespace: 'training', name: 'no-such-pod' }),
    /not found/i,
  );

  // Events of one pod (server-side field selector) and of several (filtered here).
  const mine = await until('Started event', async () => {
    const ev = await access.listEvents('training', { uids: [pod.metadata.uid] });
    return ev.some((e) => e['reason'] === 'Started') ? ev : undefined;
  });
  assert.ok(mine.every((e) => (e['involvedObject'] as { uid: string }).uid === pod.metadata.uid));
  assert.deepEqual(new Set(mine.map((e) => e['reason'])).has('Scheduled'), true);
  const several = await access.listEvents('training', { uids: pods.map((p) => p.metadata.uid) });
  assert.deepEqual(
    new Set(several.map((e) => (e['involvedObject'] as { uid: string }).uid)),
    new Set(pods.map((p) => p.metadata.uid)),
  );

  // Follow the log, then abort: the server records the stream as closed.
  const lines: string[] = [];
  const abort = new AbortController();
  const streaming = access.streamLogs(
    'training',
    pod.metadata.name,
    { follow: true, tailLines: 5, timestamps: true, signal: abort.signal },
    (l) => lines.push(l),
  );
  await until('followed lines', async () => (lines.length >= 7 ? true : undefined));
  assert.match(lines[0], /^\d{4}-\d\d-\d\dT\S+ /, 'timestamps');
  abort.abort();
  await streaming;
  const logPath = `/api/v1/namespaces/training/pods/${pod.metadata.name}/log`;
  await until('log request closed on the server', async () => {
    const rec = cluster.requests().filter((r) => r.path.startsWith(logPath));
    return rec.length === 1 && rec[0].durationMs !== undefined ? true : undefined;
  });
  const count = lines.length;
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(lines.length, count, 'no lines after abort');

  // tailLines without follow ends by itself.
  const tail: string[] = [];
  await access.streamLogs('training', pod.metadata.name, { tailLines: 2 }, (l) => tail.push(l));
  assert.equal(tail.length, 2);

  // The crashed container's previous log ends with its last words.
  const prev = await until(
    'broken-finetune-worker-1 restarted',
    async () => {
      const p = await access.getObject({
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'training',
        name: 'broken-finetune-worker-1',
      });
      const cs = (p.status as { containerStatuses?: Array<{ restartCount: number }> }).containerStatuses?.[0];
      if (!cs || cs.restartCount < 1) return undefined;
      const out: string[] = [];
      await access.streamLogs('training', 'broken-finetune-worker-1', { previous: true, tailLines: 3 }, (l) =>
        out.push(l),
      );
      return out;
    },
    30_000,
  );
  assert.match(prev.join('\n'), /Loading tokenised dataset shards/);

  assert.deepEqual([...new Set(cluster.requests().map((r) => r.method))], ['GET']);
});
