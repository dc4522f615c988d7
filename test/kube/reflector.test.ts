import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { Reflector, type ReflectorOptions, type WatchEventType } from '../../src/kube/reflector.js';
import { Backoff } from '../../src/kube/backoff.js';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { Trimmer } from '../../src/kube/trim.js';

import type { KubeObject } from '../../src/model/types.js';
import { FakeApi } from './fake-api.js';
import { until } from './helpers.js';

const trimOwner = new Trimmer().for('owner');

interface Recorded {
  type: WatchEventType;
  name: string;
  uid: string;
  rv: string | undefined;
}

function recorder() {
  const events: Recorded[] = [];
  const problems: string[] = [];
  const states: string[] = [];
  return {
    events,
    problems,
    states,
    handlers: {
      onEvent: (type: WatchEventType, o: KubeObject) =>
        events.push({ type, name: o.metadata.name, uid: o.metadata.uid, rv: o.metadata.resourceVersion }),
      onProblem: (m: string) => problems.push(m),
      onState: (s: string) => states.push(s),
    },
  };
}

const FAST: Partial<ReflectorOptions> = {
  backoff: { initialMs: 20, maxMs: 200, factor: 2, jitter: 0 },
  watchTimeoutSeconds: [30, 30],
  forbiddenRetryMs: 50,
};

function reflectorFor(
  api: FakeApi,
  rec: ReturnType<typeof recorder>,
  extra: Partial<ReflectorOptions> = {},
): Reflector {
  return new Reflector(
    {
      ...FAST,
      transport: api.transport(),
      path: api.path,
      apiVersion: 'v1',
      kind: 'Thing',
      label: 'things',
      trim: trimOwner,
      ...extra,
    },
    rec.handlers,
  );
}

test('lists in pages of limit with continue, and puts apiVersion/kind back on items', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  for (let i = 0; i < 1203; i++) api.put(`t${String(i).padStart(4, '0')}`);
  const rec = recorder();
  const seenKinds = new Set<string>();
  const r = new Reflector(
    {
      ...FAST,
      transport: api.transport(),
      path: api.path,
      apiVersion: 'v1',
      kind: 'Thing',
      watch: false,
      trim: (o) => {
        const t = trimOwner(o);
        seenKinds.add(`${t.apiVersion}/${t.kind}`);
        return t;
      },
    },
    rec.handlers,
  );
  r.start();
  assert.equal(await r.firstSync, null);
  await r.stop();
  const lists = api.requests.filter((u) => !u.includes('watch='));
  assert.equal(lists.length, 3);
  assert.match(lists[0], /limit=500/);
  assert.doesNotMatch(lists[0], /continue=/);
  assert.match(lists[1], /continue=500/);
  assert.match(lists[2], /continue=1000/);
  assert.equal(rec.events.length, 1203);
  assert.ok(rec.events.every((e) => e.type === 'ADDED'));
  assert.deepEqual([...seenKinds], ['v1/Thing']);
  assert.equal(r.resourceVersion, String(api.rv));
  assert.equal(r.count, 1203);
  assert.equal(api.requests.filter((u) => u.includes('watch=')).length, 0, 'list-only mode never watches');
});

test('watches from the list resourceVersion with bookmarks and a timeout, applies events', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  api.put('b');
  const rec = recorder();
  const r = reflectorFor(api, rec);
  t.after(() => r.stop());
  r.start();
  await r.firstSync;
  const listRv = String(api.rv);
  await until(() => api.requests.some((u) => u.includes('watch=1')), 'watch request');
  const watchUrl = new URL(
    api.requests.find((u) => u.includes('watch=1'))!,
    'http://x',
  );
  assert.equal(watchUrl.searchParams.get('resourceVersion'), listRv);
  assert.equal(watchUrl.searchParams.get('allowWatchBookmarks'), 'true');
  assert.equal(watchUrl.searchParams.get('timeoutSeconds'), '30');
  api.put('c');
  api.put('a', { spec: { x: 1 } });
  api.remove('b');
  await until(() => rec.events.length === 5, 'three watch events');
  assert.deepEqual(
    rec.events.slice(2).map((e) => `${e.type} ${e.name}`),
    ['ADDED c', 'MODIFIED a', 'DELETED b'],
  );
  assert.equal(r.resourceVersion, String(api.rv));
  assert.equal(r.state, 'live');
});

test('timeoutSeconds is randomised within the range', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  const values = [0, 0.5, 0.999];
  let i = 0;
  const rec = recorder();
  const r = reflectorFor(api, rec, { watchTimeoutSeconds: [300, 600], random: () => values[i++ % values.length] });
  t.after(() => r.stop());
  r.start();
  await until(() => api.requests.some((u) => u.includes('watch=1')), 'watch');
  const url = new URL(
    api.requests.find((u) => u.includes('watch=1'))!,
    'http://x',
  );
  const timeout = Number(url.searchParams.get('timeoutSeconds'));
  assert.ok(timeout >= 300 && timeout <= 600, `timeout ${timeout}`);
});

test('bookmarks advance the resourceVersion used by the next watch', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  const rec = recorder();
  const r = reflectorFor(api, rec);
  t.after(() => r.stop());
  r.start();
  await r.firstSync;
  await until(() => api.requests.filter((u) => u.includes('watch=1')).length === 1, 'first watch');
  // Changes to objects this watch does not see (another selector, say) move the rv on.
  api.silently(() => {
    api.rv += 50;
  });
  api.compactedRv = 0;
  api.bookmarkOnStart = true;
  api.endWatches();
  await until(() => api.requests.filter((u) => u.includes('watch=1')).length >= 2, 'second watch');
  // The second watch got a bookmark at its start; end it and check the third resumes from it.
  await until(() => r.resourceVersion === String(api.rv), 'bookmark applied');
  api.bookmarkOnStart = false;
  api.endWatches();
  await until(() => api.requests.filter((u) => u.includes('watch=1')).length >= 3, 'third watch');
  const third = new URL(api.requests.filter((u) => u.includes('watch=1'))[2], 'http://x');
  assert.equal(third.searchParams.get('resourceVersion'), String(api.rv));
  assert.equal(rec.events.length, 1, 'bookmarks are not object events');
});

test('410 relists and emits deletes only for vanished objects, modifications only for changed ones', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  api.put('b');
  api.put('c');
  api.put('e');
  const rec = recorder();
  const r = reflectorFor(api, rec);
  t.after(() => r.stop());
  r.start();
  await r.firstSync;
  await until(() => api.requests.some((u) => u.includes('watch=1')), 'watch');
  const before = rec.events.length;
  // While nobody watches: b deleted, c changed, d added, e replaced (same name, new uid); a unchanged.
  api.silently(() => {
    api.remove('b');
    api.put('c', { spec: { changed: true } });
    api.put('d');
    api.recreate('e');
  });
  api.endWatches(); // the next watch resumes from an rv the server no longer has → 410
  await until(() => r.lists === 2, 'relist');
  await until(() => rec.events.length >= before + 5, 'relist events');
  const after = rec.events
    .slice(before)
    .map((e) => `${e.type} ${e.name}`)
    .sort();
  assert.deepEqual(after, ['ADDED d', 'ADDED e', 'DELETED b', 'DELETED e', 'MODIFIED c']);
  const deletedE = rec.events.slice(before).find((e) => e.type === 'DELETED' && e.name === 'e')!;
  const addedE = rec.events.slice(before).find((e) => e.type === 'ADDED' && e.name === 'e')!;
  assert.notEqual(deletedE.uid, addedE.uid, 'the tombstone carries the old uid');
  assert.equal(r.count, 4);
  assert.deepEqual(
    new Set(r.snapshotVersions().values()),
    new Set([...api.objects.values()].map((o) => o.metadata.resourceVersion)),
  );
});

test('a 410 ERROR event on an open watch triggers a relist', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  api.expireWatches = 1;
  const rec = recorder();
  const r = reflectorFor(api, rec);
  t.after(() => r.stop());
  r.start();
  await until(() => r.lists === 2, 'relist after ERROR 410');
  assert.equal(rec.events.length, 1, 'unchanged objects are not re-emitted');
  assert.equal(rec.problems.length, 0);
});

test('connection refused: reconnecting state and exponential back-off, then recovery', async () => {
  // A port with nothing listening: bind, note the port, close.
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  const transport = new HttpKubeTransport(kc, `http://127.0.0.1:${port}`, 'ctx');
  const times: number[] = [];
  const counting = {
    label: transport.label,
    open: (path: string, o?: { signal?: AbortSignal }) => {
      times.push(Date.now());
      return transport.open(path, o);
    },
  };
  const rec = recorder();
  // The back-off each failure schedules, read when it is reported (retryAt is set just before).
  const delays: number[] = [];
  const handlers = {
    ...rec.handlers,
    onState: (state: string) => {
      rec.handlers.onState(state);
      if (state === 'reconnecting' && r.retryAt) delays.push(r.retryAt.getTime() - Date.now());
    },
  };
  const r: Reflector = new Reflector(
    {
      ...FAST,
      backoff: { initialMs: 40, maxMs: 1000, factor: 2, jitter: 0 },
      transport: counting,
      path: '/api/v1/things',
      apiVersion: 'v1',
      kind: 'Thing',
      trim: trimOwner,
    },
    handlers,
  );
  r.start();
  await until(() => times.length >= 4, 'four attempts', 3000);
  await r.stop();
  assert.equal(r.state, 'reconnecting');
  assert.match(r.message ?? '', /context "ctx" \(server http:\/\/127\.0\.0\.1:\d+\)/);
  assert.match(r.message ?? '', /ECONNREFUSED/);
  // Each failure schedules the next attempt 40, 80, 160 ms on (doubling, no jitter)…
  assert.deepEqual(
    delays.slice(0, 3).map((d) => Math.round(d / 10) * 10),
    [40, 80, 160],
    `scheduled back-off ${delays.join(', ')} ms`,
  );
  // …and no attempt starts before its time (a late one is the machine's, an early one would be a bug).
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  for (let i = 0; i < 3; i++) assert.ok(gaps[i] >= Math.floor(delays[i]) - 1, `gap ${gaps[i]} ms < ${delays[i]} ms`);
});

test('back-off grows exponentially, is capped, jittered, and resets', () => {
  const b = new Backoff({ initialMs: 100, maxMs: 1000, factor: 2, jitter: 0.5 }, () => 0.5);
  assert.deepEqual([b.next(), b.next(), b.next(), b.next(), b.next()], [100, 200, 400, 800, 1000]);
  b.reset();
  assert.equal(b.next(), 100);
  const low = new Backoff({ initialMs: 100, maxMs: 1000, factor: 2, jitter: 0.5 }, () => 0);
  const high = new Backoff({ initialMs: 100, maxMs: 1000, factor: 2, jitter: 0.5 }, () => 1);
  assert.equal(low.next(), 50);
  assert.equal(high.next(), 150);
});

test('a malformed watch line is reported with the kind and its first bytes, and the stream continues', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  api.injectLines = ['{"type":"ADDED","object":{"metadata":{"name":"bro', 'not json at all \u001b[2J'];
  const rec = recorder();
  const r = reflectorFor(api, rec);
  t.after(() => r.stop());
  r.start();
  await until(() => api.requests.some((u) => u.includes('watch=1')), 'watch');
  await until(() => rec.problems.length === 2, 'two problems');
  api.put('b');
  await until(() => rec.events.some((e) => e.name === 'b'), 'event after the bad lines');
  assert.match(rec.problems[0], /^things: malformed watch line skipped: "\{\\"type\\":\\"ADDED\\"/);
  assert.match(rec.problems[1], /not json at all \\u001b\[2J/, 'control characters are escaped in the preview');
  assert.equal(api.requests.filter((u) => u.includes('watch=1')).length, 1, 'same stream, no reconnect');
});

test('403 → forbidden state, reported, retried, and recovers when allowed', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  api.failWith = 403;
  const rec = recorder();
  const r = reflectorFor(api, rec);
  t.after(() => r.stop());
  r.start();
  assert.equal(await r.firstSync, null, 'a forbidden kind counts as synced (nothing to wait for)');
  assert.equal(r.state, 'forbidden');
  assert.match(rec.problems[0], /things: forbidden: .*things is failing with 403/);
  api.failWith = null;
  await until(() => r.state === 'live' && r.count === 1, 'recovered');
});

test('403 for a kind that was listed: reconnecting (not forbidden), retried with back-off, relisted once allowed', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  const rec = recorder();
  // forbiddenRetryMs far away: only the refused back-off can bring it back within the test.
  const r = reflectorFor(api, rec, {
    forbiddenRetryMs: 600_000,
    refusedBackoff: { initialMs: 20, maxMs: 100, factor: 2, jitter: 0 },
  });
  t.after(() => r.stop());
  r.start();
  await r.firstSync;
  await until(() => r.state === 'live' && r.count === 1, 'listed');
  // As a restarted kube-apiserver whose RBAC cache is still empty: the watch ends, the relist is refused.
  api.failWith = 403;
  api.endWatches();
  await until(() => r.state === 'reconnecting', 'refused');
  assert.equal(r.cause?.kind, 'forbidden');
  assert.ok(r.retryAt, 'the next attempt is known');
  assert.equal(r.count, 1, 'what was listed stays until the relist');
  assert.ok(!rec.states.includes('forbidden'), rec.states.join(','));
  api.put('b');
  api.failWith = null;
  await until(() => r.state === 'live' && r.count === 2, 'relisted once allowed');
});

test('a stalled watch (no bytes past timeout + margin) is cut and restarted', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  api.stallWatches = true;
  const rec = recorder();
  const r = reflectorFor(api, rec, { watchTimeoutSeconds: [0, 0], stallMarginMs: 150 });
  t.after(() => r.stop());
  r.start();
  await until(() => api.requests.filter((u) => u.includes('watch=1')).length >= 2, 'restart after stall', 3000);
  assert.ok(rec.states.includes('reconnecting'));
  api.stallWatches = false;
  api.put('b');
  await until(() => rec.events.some((e) => e.name === 'b'), 'events after recovery', 3000);
});

test('label and field selectors go on both the list and the watch', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  const rec = recorder();
  const r = reflectorFor(api, rec, {
    labelSelector: 'team in (a,b),!canary',
    fieldSelector: 'status.phase!=Succeeded',
  });
  t.after(() => r.stop());
  r.start();
  await until(() => api.requests.some((u) => u.includes('watch=1')), 'watch');
  for (const u of api.requests.slice(0, 2)) {
    const url = new URL(u, 'http://x');
    assert.equal(url.searchParams.get('labelSelector'), 'team in (a,b),!canary');
    assert.equal(url.searchParams.get('fieldSelector'), 'status.phase!=Succeeded');
  }
});

test('list-only mode: a server error fails the first sync with the context and server named', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.failWith = 500;
  const rec = recorder();
  const r = reflectorFor(api, rec, { watch: false });
  r.start();
  const err = await r.firstSync;
  await r.stop();
  assert.ok(err instanceof Error);
  assert.match(
    err.message,
    /context "fake" \(server http:\/\/127\.0\.0\.1:\d+\): GET \/api\/v1\/things\?limit=500: things is failing with 500/,
  );
  assert.doesNotMatch(err.message, /secret-token/);
  assert.equal(r.state, 'error');
});

test('a request that gets no response headers is cut after headersTimeoutMs and retried', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  api.hang = true;
  const rec = recorder();
  const r = reflectorFor(api, rec, { headersTimeoutMs: 150 });
  t.after(() => r.stop());
  r.start();
  await until(() => api.requests.length >= 2, 'a second attempt', 3000);
  assert.equal(r.state, 'reconnecting');
  assert.match(r.message ?? '', /no response for 0s, restarting/);
  api.hang = false;
  assert.equal(await r.firstSync, null);
  assert.equal(r.count, 1);
});

test('beforeWatch: no watch opens until it resolves, and the watch then replays what changed since the list', async (t) => {
  const api = await new FakeApi().start();
  t.after(() => api.stop());
  api.put('a');
  const rec = recorder();
  let release!: () => void;
  const asked: number[] = [];
  const before = Date.now();
  const r = reflectorFor(api, rec, {
    beforeWatch: (listStartedAt) => {
      asked.push(listStartedAt);
      return new Promise<void>((resolve) => (release = resolve));
    },
  });
  t.after(() => r.stop());
  r.start();
  await r.firstSync;
  await until(() => asked.length === 1, 'beforeWatch asked after the list');
  assert.ok(asked[0] >= before && asked[0] <= Date.now(), 'given when the list began');
  const listRv = r.resourceVersion;
  // The reflector awaits the promise: nothing can watch until it resolves.
  assert.equal(api.requests.filter((u) => u.includes('watch=')).length, 0, 'no watch while it waits');
  api.put('b');
  api.put('a', { spec: { x: 1 } });
  release();
  await until(() => rec.events.length === 3, 'the events made while it waited');
  assert.deepEqual(
    rec.events.slice(1).map((e) => `${e.type} ${e.name}`),
    ['ADDED b', 'MODIFIED a'],
  );
  const watch = new URL(
    api.requests.find((u) => u.includes('watch='))!,
    'http://x',
  );
  assert.equal(watch.searchParams.get('resourceVersion'), listRv, 'watched from the list resourceVersion');
});
