// The demo API server over real HTTP on loopback: version, discovery, lists,
// watches, Tables, logs, auth, the read-only rule, the request record and the
// faults. Each test runs its own server on a free port and stops it.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { PODS, NODES, JOBSETS, node, pod } from './server-fixtures.js';
import { AGGREGATED_ACCEPT, TABLE_ACCEPT, openWatch, startFixture, type Fixture } from './server-watch-helpers.js';
import type { RequestRecord } from '../../demo/index.js';

async function fixture(t: TestContext, options: Parameters<typeof startFixture>[0] = {}): Promise<Fixture> {
  const f = await startFixture(options);
  t.after(() => f.cluster.stop());
  return f;
}

async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; type: string }> {
  const r = await fetch(url, { headers });
  const text = await r.text();
  return {
    status: r.status,
    body: JSON.parse(text) as Record<string, unknown>,
    type: r.headers.get('content-type') ?? '',
  };
}

test('version, aggregated and legacy discovery', async (t) => {
  const f = await fixture(t);
  const v = await getJson(f.url('/version'));
  assert.equal(v.body.minor, '32');
  assert.equal(v.body.gitVersion, 'v1.32.0');
  assert.ok(v.body.platform && v.body.goVersion);
  const agg = await getJson(f.url('/apis'), { Accept: AGGREGATED_ACCEPT });
  assert.match(agg.type, /g=apidiscovery\.k8s\.io;v=v2;as=APIGroupDiscoveryList/);
  assert.equal(agg.body.kind, 'APIGroupDiscoveryList');
  const legacyApis = await getJson(f.url('/apis'));
  assert.equal(legacyApis.body.kind, 'APIGroupList');
  const api = await getJson(f.url('/api'));
  assert.deepEqual(api.body.versions, ['v1']);
  const jobset = await getJson(f.url('/apis/jobset.x-k8s.io/v1alpha2'));
  assert.equal(jobset.body.kind, 'APIResourceList');
  assert.equal((await getJson(f.url('/apis/nope.io/v1'))).status, 404);
});

test('lists: namespaced and all-namespaces paths, selectors, single GET, 404 Status, paging', async (t) => {
  const f = await fixture(t);
  const all = await getJson(f.url('/api/v1/pods'));
  assert.equal(all.body.kind, 'PodList');
  assert.equal((all.body.items as unknown[]).length, 8);
  const ns = await getJson(
    f.url('/api/v1/namespaces/team-a/pods?labelSelector=' + encodeURIComponent('role in (worker)')),
  );
  assert.deepEqual(
    (ns.body.items as Array<{ metadata: { name: string } }>).map((p) => p.metadata.name),
    ['trainer-0', 'trainer-1'],
  );
  const notRunning = await getJson(
    f.url('/api/v1/pods?fieldSelector=' + encodeURIComponent('status.phase!=Running,spec.nodeName=gpu-node-1')),
  );
  assert.deepEqual(
    (notRunning.body.items as Array<{ metadata: { name: string } }>).map((p) => p.metadata.name).sort(),
    ['creating-0', 'done-0', 'init-0', 'oom-0'],
  );
  const events = await getJson(
    f.url(
      '/api/v1/namespaces/team-a/events?fieldSelector=' +
        encodeURIComponent(`involvedObject.name=trainer-0,involvedObject.uid=${f.objects['trainer-0'].metadata.uid}`),
    ),
  );
  assert.equal((events.body.items as unknown[]).length, 2);
  const bad = await getJson(f.url('/api/v1/pods?fieldSelector=spec.bogus%3D1'));
  assert.equal(bad.status, 400);
  assert.match(String(bad.body.message), /field label not supported/);
  const one = await getJson(f.url('/api/v1/nodes/gpu-node-1'));
  assert.equal((one.body.metadata as { name: string }).name, 'gpu-node-1');
  const missing = await getJson(f.url('/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets/nope'));
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'jobsets.jobset.x-k8s.io "nope" not found',
    reason: 'NotFound',
    details: { name: 'nope', group: 'jobset.x-k8s.io', kind: 'jobsets' },
    code: 404,
  });
  const page1 = await getJson(f.url('/api/v1/pods?limit=5'));
  const meta = page1.body.metadata as { continue: string; remainingItemCount: number; resourceVersion: string };
  assert.equal(meta.remainingItemCount, 3);
  const page2 = await getJson(f.url(`/api/v1/pods?limit=5&continue=${meta.continue}`));
  assert.equal((page2.body.items as unknown[]).length, 3);
  assert.equal((page2.body.metadata as { resourceVersion: string }).resourceVersion, meta.resourceVersion);
  assert.equal((await getJson(f.url('/api/v1/pods?limit=5&continue=bogus'))).status, 410);
});

test('Tables: columns, PartialObjectMetadata rows, includeObject=Object, CRD printer columns', async (t) => {
  const f = await fixture(t);
  const pods = await getJson(f.url('/api/v1/namespaces/team-a/pods'), { Accept: TABLE_ACCEPT });
  assert.equal(pods.body.kind, 'Table');
  const rows = pods.body.rows as Array<{
    cells: unknown[];
    object: { kind: string; metadata: { labels: Record<string, string> } };
  }>;
  assert.deepEqual(
    rows.map((r) => r.cells[2]),
    ['Running', 'CrashLoopBackOff', 'Pending'],
  );
  assert.equal(rows[0].object.kind, 'PartialObjectMetadata');
  assert.equal(rows[0].object.metadata.labels.role, 'worker');
  const full = await getJson(f.url('/api/v1/namespaces/team-a/pods?includeObject=Object'), { Accept: TABLE_ACCEPT });
  assert.equal((full.body.rows as Array<{ object: { kind: string } }>)[0].object.kind, 'Pod');
  const js = await getJson(f.url('/apis/jobset.x-k8s.io/v1alpha2/jobsets'), { Accept: TABLE_ACCEPT });
  assert.deepEqual(
    (js.body.columnDefinitions as Array<{ name: string }>).map((c) => c.name),
    ['Name', 'TerminalState', 'Restarts', 'Completed', 'Suspended', 'Age'],
  );
  assert.deepEqual((js.body.rows as Array<{ cells: unknown[] }>)[0].cells.slice(0, 5), [
    'trainer',
    null,
    '0',
    'False',
    'false',
  ]);
});

test('watch: initial ADDED, live changes, DELETED with last state, history resume, 410 for too old', async (t) => {
  const f = await fixture(t);
  const w = await openWatch(f.url('/api/v1/namespaces/team-a/pods?watch=true'));
  t.after(() => w.close());
  assert.equal(w.status, 200);
  await w.waitFor((e) => e.object.metadata?.name === 'trainer-2');
  assert.equal(w.events.filter((e) => e.type === 'ADDED').length, 3);
  const rvBefore = f.store.currentRv;
  f.store.put(PODS, pod('late-0', 'team-a', 'pending'));
  f.store.put(PODS, pod('other-ns', 'default', 'pending'));
  f.store.delete(PODS, 'team-a', 'trainer-1');
  const del = await w.waitFor((e) => e.type === 'DELETED');
  assert.equal(del.object.metadata?.name, 'trainer-1');
  assert.equal((del.object.status as { phase: string }).phase, 'Running', 'DELETED carries the last state');
  assert.ok(!w.events.some((e) => e.object.metadata?.name === 'other-ns'), 'namespace filter');

  const resumed = await openWatch(f.url(`/api/v1/namespaces/team-a/pods?watch=1&resourceVersion=${rvBefore}`));
  t.after(() => resumed.close());
  await resumed.waitFor((e) => e.type === 'DELETED');
  assert.deepEqual(
    resumed.events.map((e) => [e.type, e.object.metadata?.name]),
    [
      ['ADDED', 'late-0'],
      ['DELETED', 'trainer-1'],
    ],
  );

  const old = await openWatch(f.url('/api/v1/pods?watch=1&resourceVersion=1'));
  assert.equal(old.status, 200);
  assert.equal(await old.closed, 'end');
  assert.equal(old.events.length, 1);
  assert.equal(old.events[0].type, 'ERROR');
  assert.equal((old.events[0].object as { code: number; reason: string }).code, 410);
  assert.equal((old.events[0].object as { reason: string }).reason, 'Expired');
});

test('watch with a label selector: an object that stops matching is sent as DELETED', async (t) => {
  const f = await fixture(t);
  const w = await openWatch(f.url('/api/v1/pods?watch=1&labelSelector=role%3Dworker'));
  t.after(() => w.close());
  await w.waitFor((e) => e.object.metadata?.name === 'trainer-1');
  const changed = structuredClone(f.store.get(PODS, 'team-a', 'trainer-0')!);
  changed.metadata.labels = { app: 'trainer', role: 'retired' };
  f.store.put(PODS, changed);
  const gone = await w.waitFor((e) => e.type === 'DELETED');
  assert.equal(gone.object.metadata?.name, 'trainer-0');
  const back = structuredClone(changed);
  back.metadata.labels = { role: 'worker' };
  f.store.put(PODS, back);
  const again = await w.waitFor(
    (e) => e.type === 'ADDED' && e.object.metadata?.name === 'trainer-0' && w.events.indexOf(e) > 2,
  );
  assert.ok(again);
});

test('watch: sendInitialEvents bookmark, 422 without NotOlderThan, periodic bookmarks, timeoutSeconds', async (t) => {
  const f = await fixture(t, { bookmarkIntervalMs: 200 });
  const w = await openWatch(
    f.url(
      '/api/v1/nodes?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1',
    ),
  );
  const end = await w.waitFor((e) => e.type === 'BOOKMARK');
  assert.equal(end.object.metadata?.annotations?.['k8s.io/initial-events-end'], 'true');
  assert.deepEqual(
    w.events.slice(0, 2).map((e) => e.type),
    ['ADDED', 'ADDED'],
  );
  await w.waitFor((e) => e.type === 'BOOKMARK' && !e.object.metadata?.annotations, 1500);
  const started = Date.now();
  assert.equal(await w.closed, 'end');
  assert.ok(Date.now() - started < 3000, 'ended by timeoutSeconds=1, not the server default');
  const invalid = await getJson(f.url('/api/v1/nodes?watch=1&sendInitialEvents=true'));
  assert.equal(invalid.status, 422);
  assert.equal(invalid.body.reason, 'Invalid');
});

test('Table watch: only the first event carries columnDefinitions', async (t) => {
  const f = await fixture(t);
  const w = await openWatch(f.url('/api/v1/namespaces/team-a/pods?watch=1'), { Accept: TABLE_ACCEPT });
  t.after(() => w.close());
  await w.waitFor((e) => (e.object.rows as Array<{ cells: unknown[] }>)[0].cells[0] === 'trainer-2');
  f.store.put(PODS, pod('trainer-3', 'team-a', 'creating'));
  const added = await w.waitFor((e) => (e.object.rows as Array<{ cells: unknown[] }>)[0].cells[0] === 'trainer-3');
  assert.equal(added.object.kind, 'Table');
  assert.equal((added.object.rows as Array<{ cells: unknown[] }>)[0].cells[2], 'ContainerCreating');
  assert.ok(w.events[0].object.columnDefinitions);
  assert.equal(w.events.filter((e) => e.object.columnDefinitions).length, 1);
});

test('many watchers share one serialisation per event', async (t) => {
  const f = await fixture(t);
  const watchers = await Promise.all(
    Array.from({ length: 50 }, () => openWatch(f.url('/api/v1/nodes?watch=1&resourceVersion=' + f.store.currentRv))),
  );
  t.after(() => watchers.forEach((w) => w.close()));
  const n = structuredClone(f.store.get(NODES, undefined, 'gpu-node-1')!);
  n.metadata.labels = { ...n.metadata.labels, touched: 'yes' };
  const originalStringify = JSON.stringify;
  let nodeSerialisations = 0;
  JSON.stringify = ((v: unknown, ...rest: unknown[]) => {
    if (v && typeof v === 'object' && (v as { type?: string }).type === 'MODIFIED') nodeSerialisations++;
    return (originalStringify as (...a: unknown[]) => string)(v, ...rest);
  }) as typeof JSON.stringify;
  try {
    f.store.put(NODES, n);
  } finally {
    JSON.stringify = originalStringify;
  }
  await Promise.all(watchers.map((w) => w.waitFor((e) => e.type === 'MODIFIED')));
  assert.equal(nodeSerialisations, 1);
  assert.equal(f.cluster.api.openWatches, 50);
});

test('pods/log: single container, container required, tail, limitBytes, previous, follow', async (t) => {
  const f = await fixture(t);
  for (let i = 1; i <= 5; i++) f.logs.append('team-a', 'trainer-0', 'main', `step ${i}`);
  f.logs.append('team-a', 'trainer-0', 'main', 'crashed', true);
  const text = async (p: string) => {
    const r = await fetch(f.url(p));
    return { status: r.status, text: await r.text(), type: r.headers.get('content-type') };
  };
  const all = await text('/api/v1/namespaces/team-a/pods/trainer-0/log');
  assert.equal(all.text, 'step 1\nstep 2\nstep 3\nstep 4\nstep 5\n');
  assert.equal(all.type, 'text/plain');
  assert.equal((await text('/api/v1/namespaces/team-a/pods/trainer-0/log?tailLines=2')).text, 'step 4\nstep 5\n');
  assert.equal((await text('/api/v1/namespaces/team-a/pods/trainer-0/log?limitBytes=8')).text, 'step 1\ns');
  assert.match(
    (await text('/api/v1/namespaces/team-a/pods/trainer-0/log?timestamps=true&tailLines=1')).text,
    /^\d{4}-\d\d-\d\dT\S+ step 5\n$/,
  );
  assert.equal((await text('/api/v1/namespaces/team-a/pods/trainer-0/log?previous=true')).text, 'crashed\n');
  const multi = await getJson(f.url('/api/v1/namespaces/default/pods/infer-0/log'));
  assert.equal(multi.status, 400);
  assert.equal(
    multi.body.message,
    'a container name must be specified for pod infer-0, choose one of: [server sidecar]',
  );
  assert.equal((await getJson(f.url('/api/v1/namespaces/default/pods/nope/log'))).status, 404);

  const controller = new AbortController();
  const r = await fetch(f.url('/api/v1/namespaces/team-a/pods/trainer-0/log?follow=true&tailLines=1'), {
    signal: controller.signal,
  });
  const reader = r.body!.getReader();
  const decoder = new TextDecoder();
  let got = '';
  const readUntil = async (s: string) => {
    while (!got.includes(s)) {
      const { value, done } = await reader.read();
      if (done) break;
      got += decoder.decode(value);
    }
  };
  await readUntil('step 5');
  f.logs.append('team-a', 'trainer-0', 'main', 'step 6');
  await readUntil('step 6');
  assert.equal(got, 'step 5\nstep 6\n');
  controller.abort();
  await reader.cancel().catch(() => undefined);
  for (let i = 0; i < 50 && f.logs.followerCount > 0; i++) await new Promise((res) => setTimeout(res, 20));
  assert.equal(f.logs.followerCount, 0, 'the follower is removed when the client goes away');
});

test('token auth: 401 Status without the bearer token, 200 with it', async (t) => {
  const f = await fixture(t, { token: 's3cret' });
  const denied = await getJson(f.url('/api/v1/pods'));
  assert.equal(denied.status, 401);
  assert.equal(denied.body.reason, 'Unauthorized');
  assert.equal((await getJson(f.url('/api/v1/pods'), { Authorization: 'Bearer wrong' })).status, 401);
  assert.equal((await getJson(f.url('/api/v1/pods'), { Authorization: 'Bearer s3cret' })).status, 200);
  assert.match(f.cluster.kubeconfig(), /token: s3cret/);
});

test('read-only: writes get 405 and the request record shows every request', async (t) => {
  const f = await fixture(t);
  const del = await fetch(f.url('/api/v1/namespaces/team-a/pods/trainer-0'), { method: 'DELETE' });
  assert.equal(del.status, 405);
  assert.equal(((await del.json()) as { reason: string }).reason, 'MethodNotAllowed');
  const post = await fetch(f.url('/api/v1/namespaces/team-a/pods'), { method: 'POST', body: '{}' });
  assert.equal(post.status, 405);
  assert.ok(f.store.get(PODS, 'team-a', 'trainer-0'));
  const rec = await getJson(f.url('/debug/wlx/requests'));
  const items = rec.body.items as RequestRecord[];
  assert.deepEqual(
    items.filter((r) => r.method !== 'GET').map((r) => [r.method, r.path, r.status]),
    [
      ['DELETE', '/api/v1/namespaces/team-a/pods/trainer-0', 405],
      ['POST', '/api/v1/namespaces/team-a/pods', 405],
    ],
  );
});

test('--allow-writes: graceful pod DELETE sets deletionTimestamp, then the pod goes; other kinds go at once', async (t) => {
  const f = await fixture(t, { allowWrites: true, speed: 100 });
  const w = await openWatch(f.url(`/api/v1/namespaces/team-a/pods?watch=1&resourceVersion=${f.store.currentRv}`));
  t.after(() => w.close());
  const r = await fetch(f.url('/api/v1/namespaces/team-a/pods/trainer-0'), {
    method: 'DELETE',
    body: JSON.stringify({ gracePeriodSeconds: 5 }),
  });
  assert.equal(r.status, 200);
  const body = (await r.json()) as { metadata: { deletionTimestamp?: string } };
  assert.ok(body.metadata.deletionTimestamp);
  await w.waitFor(
    (e) => e.type === 'MODIFIED' && !!(e.object.metadata as { deletionTimestamp?: string }).deletionTimestamp,
  );
  await w.waitFor((e) => e.type === 'DELETED' && e.object.metadata?.name === 'trainer-0', 2000);
  assert.equal(f.store.get(PODS, 'team-a', 'trainer-0'), undefined);
  const js = await fetch(f.url('/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets/trainer'), {
    method: 'DELETE',
  });
  assert.equal(js.status, 200);
  assert.equal(f.store.get(JOBSETS, 'team-a', 'trainer'), undefined);
});

test('faults: forbid, expire next watch, malformed lines, drop watches, delay', async (t) => {
  const f = await fixture(t, { faults: { forbid: ['jobsets.jobset.x-k8s.io'] } });
  const forbidden = await getJson(f.url('/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets'));
  assert.equal(forbidden.status, 403);
  assert.match(
    String(forbidden.body.message),
    /jobsets.jobset.x-k8s.io is forbidden: User "kubernetes-admin" cannot list resource "jobsets"/,
  );
  const disc = await getJson(f.url('/apis/jobset.x-k8s.io/v1alpha2'));
  assert.equal(disc.status, 200, 'a forbidden kind stays in discovery');

  const set = await fetch(f.url('/debug/wlx/faults'), {
    method: 'POST',
    body: JSON.stringify({ forbid: [], expireNextWatches: 1, malformedWatchLines: true }),
  });
  assert.equal(set.status, 200);
  const expiredWatch = await openWatch(f.url('/api/v1/nodes?watch=1'));
  await expiredWatch.closed;
  assert.equal((expiredWatch.events[0].object as { code: number }).code, 410);
  const w = await openWatch(f.url('/api/v1/nodes?watch=1'));
  await w.waitFor((e) => e.object.metadata?.name === 'gpu-node-2');
  assert.equal(w.garbage.length, 2, 'one malformed line before each event');
  assert.equal((await fetch(f.url('/debug/wlx/faults'), { method: 'POST', body: '{"bogus":1}' })).status, 400);

  f.cluster.faults.set({ malformedWatchLines: false, dropWatchesEverySeconds: 0.2 });
  assert.equal(await w.closed, 'error', 'the watch was cut');
  f.cluster.faults.set({ dropWatchesEverySeconds: 0, delayMs: 150 });
  const started = Date.now();
  await getJson(f.url('/api/v1/nodes'));
  assert.ok(Date.now() - started >= 140);
  assert.deepEqual((await getJson(f.url('/debug/wlx/faults'))).body.delayMs, 150);
});

test('restart fault: same port, state kept, resourceVersions move past the old ones, old watch positions expire', async (t) => {
  const f = await fixture(t);
  const w = await openWatch(f.url('/api/v1/nodes?watch=1'));
  await w.waitFor((e) => e.object.metadata?.name === 'gpu-node-2');
  const before = await getJson(f.url('/api/v1/nodes'));
  const rvBefore = Number((before.body.metadata as { resourceVersion: string }).resourceVersion);
  await f.cluster.restart();
  assert.equal(await w.closed, 'error');
  const after = await getJson(f.url('/api/v1/nodes'));
  assert.equal((after.body.items as unknown[]).length, 2);
  assert.ok(Number((after.body.metadata as { resourceVersion: string }).resourceVersion) > rvBefore);
  f.store.put(NODES, f.store.get(NODES, undefined, 'gpu-node-1')!);
  assert.ok(f.store.currentRv > rvBefore + 1000);
  const resumed = await openWatch(f.url(`/api/v1/nodes?watch=1&resourceVersion=${rvBefore}`));
  await resumed.closed;
  assert.equal((resumed.events[0].object as { code: number }).code, 410);
});

test('a selector watch resumed from a resourceVersion still gets DELETED for objects that matched then', async (t) => {
  const f = await fixture(t);
  const rv = f.store.currentRv;
  f.store.put(PODS, pod('trainer-0', 'team-a', 'completed'));
  const w = await openWatch(
    f.url(`/api/v1/namespaces/team-a/pods?watch=1&fieldSelector=metadata.name%3Dtrainer-0&resourceVersion=${rv}`),
  );
  t.after(() => w.close());
  await w.waitFor((e) => e.type === 'MODIFIED');
  f.store.delete(PODS, 'team-a', 'trainer-0');
  await w.waitFor((e) => e.type === 'DELETED');
  assert.deepEqual(
    w.events.map((e) => e.type),
    ['MODIFIED', 'DELETED'],
  );
});

test('restart through POST /debug/wlx/faults answers first, then comes back on the same port', async (t) => {
  const f = await fixture(t);
  const rv = f.store.currentRv;
  const r = await fetch(f.url('/debug/wlx/faults'), { method: 'POST', body: '{"restart":true}' });
  assert.equal(r.status, 200);
  let after: Awaited<ReturnType<typeof getJson>> | undefined;
  for (let i = 0; i < 50 && !after; i++) {
    try {
      after = await getJson(f.url('/api/v1/nodes'));
    } catch {
      await new Promise((res) => setTimeout(res, 20));
    }
  }
  assert.ok(after);
  assert.equal((after.body.items as unknown[]).length, 2);
  assert.ok(Number((after.body.metadata as { resourceVersion: string }).resourceVersion) > rv);
});

test('big lists are streamed whole and stay valid JSON', async (t) => {
  const f = await fixture(t);
  for (let i = 0; i < 4500; i++) f.store.put(PODS, pod(`bulk-${String(i).padStart(4, '0')}`, 'bulk', 'running'));
  const list = await getJson(f.url('/api/v1/namespaces/bulk/pods'));
  const names = (list.body.items as Array<{ metadata: { name: string } }>).map((p) => p.metadata.name);
  assert.equal(names.length, 4500);
  assert.equal(names[0], 'bulk-0000');
  assert.equal(names[4499], 'bulk-4499');
  assert.equal(list.body.kind, 'PodList');
});

test('the request record shows an open watch as answered 200 while it runs', async (t) => {
  const f = await fixture(t);
  const w = await openWatch(f.url('/api/v1/nodes?watch=1&timeoutSeconds=30'));
  await w.waitFor((e) => e.object.metadata?.name === 'gpu-node-2');
  const open = f.cluster.requests().find((r) => r.path.includes('watch=1'));
  assert.equal(open?.status, 200);
  assert.equal(open?.durationMs, undefined, 'still running');
  w.close();
  for (
    let i = 0;
    i < 50 && f.cluster.requests().find((r) => r.path.includes('watch=1'))?.durationMs === undefined;
    i++
  ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(f.cluster.requests().find((r) => r.path.includes('watch=1'))?.durationMs !== undefined);
});

test('watch resuming from a long history (over 40 MB of events) gets every event in order, not cut off', async (t) => {
  const f = await startFixture({}, 100_000);
  t.after(() => f.cluster.stop());
  const from = f.store.currentRv;
  const blob = 'x'.repeat(2048);
  const count = 20_000;
  for (let i = 0; i < count; i++) {
    const n = node(`big-${i}`);
    n.metadata.annotations = { blob };
    f.store.put(NODES, n);
  }
  const w = await openWatch(f.url(`/api/v1/nodes?watch=1&resourceVersion=${from}`));
  t.after(() => w.close());
  const last = await w.waitFor((e) => e.object.metadata?.name === `big-${count - 1}`, 60_000);
  assert.equal(last.type, 'ADDED');
  const names = w.events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata?.name);
  assert.equal(names.length, count, 'every event of the history, none dropped');
  assert.deepEqual(names.slice(0, 3), ['big-0', 'big-1', 'big-2'], 'in order');
  // And the stream is still live after the replay.
  f.store.put(NODES, node('after-replay'));
  await w.waitFor((e) => e.object.metadata?.name === 'after-replay', 10_000);
});
