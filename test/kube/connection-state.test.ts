// Honest connection state, end to end over real HTTP: each way a cluster can
// be unusable (refused, TLS, 401, a failing exec plugin, 403 on everything)
// shows as one cluster-wide state in the header and one cause with the next
// retry in the flash line, recovers by itself, and never carries a credential.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { startDemoCluster } from '../../demo/index.js';
import {
  HttpKubeTransport,
  KubeApiError,
  KubeConnectionError,
  describeFailure,
  getJson,
  redactSecrets,
} from '../../src/kube/client.js';
import { startEngine, type ClusterEngine } from '../../src/kube/engine.js';
import { summariseConnection } from '../../src/kube/snapshot.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import type { KindState } from '../../src/model/types.js';
import { connectionFlash, connectionHeadline } from '../../src/ui/render/header.js';

const SECRET = 'S3CRET-token-4f9a1c';
const WRONG = 'expired-token-77d2e0';

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

function kubeConfig(server: string, user: User): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [user],
    contexts: [{ name: 'ctx', cluster: 'c', user: user.name }],
    currentContext: 'ctx',
  });
  return kc;
}

async function engineFor(t: test.TestContext, server: string, user: User): Promise<ClusterEngine> {
  const transport = new HttpKubeTransport(kubeConfig(server, user), server, 'ctx');
  t.after(() => transport.close());
  const engine = await startEngine({
    transport,
    connection: { context: 'ctx', cluster: 'c', user: user.name, server, namespace: null },
    namespace: null,
    definitions: loadDefinitions({ envPaths: '' }),
    flushIntervalMs: 20,
    reflector: { backoff: { initialMs: 200, maxMs: 1_000, factor: 2, jitter: 0.2 } },
  });
  t.after(() => engine.stop());
  return engine;
}

/** What the header and the flash line say for the engine's current snapshot. */
function shown(engine: ClusterEngine): { header: string; flash: string; level: string } {
  const c = engine.getSnapshot().connection;
  const flash = connectionFlash(c, Date.now());
  return { header: connectionHeadline(c).text, flash: flash?.text ?? '', level: flash?.level ?? '' };
}

async function freePort(): Promise<number> {
  const net = await import('node:net');
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as import('node:net').AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

test('refused: header "unreachable since", flash "connection refused — retry in N s"; recovered once the server starts', async (t) => {
  const port = await freePort();
  const server = `http://127.0.0.1:${port}`;
  const engine = await engineFor(t, server, { name: 'u' });
  await until(() => engine.getSnapshot().connection.retryAt !== undefined, 'the retry time');
  const down = shown(engine);
  assert.match(down.header, /^unreachable since \d\d:\d\d:\d\d$/);
  assert.match(down.flash, /^connection refused — (retry in \d+ s|retrying…)$/);
  assert.equal(down.level, 'warn');
  // The countdown is computed from the clock: later, fewer seconds.
  const c = engine.getSnapshot().connection;
  const at = Date.parse(c.retryAt!);
  assert.equal(connectionFlash(c, at - 3_500)?.text, 'connection refused — retry in 4 s');
  assert.equal(connectionFlash(c, at + 10)?.text, 'connection refused — retrying…');

  const cluster = await startDemoCluster({ simulate: false, port });
  t.after(() => cluster.stop());
  await engine.whenSynced();
  await until(() => engine.getSnapshot().connection.state === 'live', 'live after the server came up');
  assert.deepEqual(shown(engine), { header: 'live', flash: '', level: '' });
});

test('401 (a wrong or expired token): header "unauthorized", flash with the cause and retry; a good token recovers; no token anywhere', async (t) => {
  const cluster = await startDemoCluster({ token: SECRET });
  t.after(() => cluster.stop());
  const user = { name: 'u', token: WRONG };
  const engine = await engineFor(t, cluster.server, user);
  await until(() => engine.getSnapshot().connection.retryAt !== undefined, 'the retry time');
  const down = shown(engine);
  assert.match(down.header, /^unauthorized since /);
  assert.match(down.flash, /^unauthorized \(401\): the credentials were rejected — (retry in \d+ s|retrying…)$/);
  assert.equal(down.level, 'error');
  const everything = () => JSON.stringify(engine.getSnapshot());
  assert.doesNotMatch(everything(), new RegExp(`${WRONG}|${SECRET}`));

  // The token is renewed (as an exec plugin or a new kubeconfig would): the next retry succeeds.
  (user as { token: string }).token = SECRET;
  await engine.whenSynced();
  await until(() => engine.getSnapshot().connection.state === 'live', 'live with the good token', 15_000);
  assert.ok(engine.getSnapshot().workloads.length > 0);
  assert.doesNotMatch(everything(), new RegExp(`${WRONG}|${SECRET}`));
});

test('TLS failure (an https URL at a plain-http port): header "TLS failure", flash names it', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  const engine = await engineFor(t, cluster.server.replace(/^http:/, 'https:'), { name: 'u' });
  await until(() => engine.getSnapshot().connection.retryAt !== undefined, 'the retry time');
  const down = shown(engine);
  assert.match(down.header, /^TLS failure since /);
  assert.match(down.flash, /^TLS failed: the server does not speak TLS — /);
  assert.equal(down.level, 'error');
});

test('exec plugin failure: header "credentials failed", flash names the plugin error', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  const engine = await engineFor(t, cluster.server, {
    name: 'u',
    exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: '/nonexistent/wlx-test-credential-plugin' },
  });
  await until(() => engine.getSnapshot().connection.retryAt !== undefined, 'the retry time');
  const down = shown(engine);
  assert.match(down.header, /^credentials failed since /);
  assert.match(down.flash, /^credentials failed: .*wlx-test-credential-plugin/);
});

test('403 on everything is a cluster-wide state; 403 on some kinds is listed beside "live"', () => {
  const kind = (resource: string, state: KindState['state'], extra: Partial<KindState> = {}): KindState => ({
    gvk: { group: '', version: 'v1', kind: 'X' },
    resource,
    state,
    since: '2026-01-02T03:04:05Z',
    count: 0,
    ...extra,
  });
  const forbidden = { kind: 'forbidden', text: 'forbidden (403)' } as const;
  const all = summariseConnection(
    [
      kind('pods', 'forbidden', { cause: forbidden, retryAt: '2026-01-02T03:05:05Z' }),
      kind('nodes', 'forbidden', { cause: forbidden, retryAt: '2026-01-02T03:04:45Z' }),
    ],
    null,
    'x',
  );
  assert.equal(all.state, 'retrying');
  assert.equal(all.retryAt, '2026-01-02T03:04:45Z', 'the earliest retry');
  assert.equal(connectionHeadline(all).text, 'forbidden since 03:04:05');
  assert.equal(connectionFlash(all, Date.parse('2026-01-02T03:04:35Z'))?.text, 'forbidden (403) — retry in 10 s');
  const some = summariseConnection(
    [kind('pods', 'live'), kind('tfjobs', 'forbidden', { cause: forbidden })],
    null,
    'x',
  );
  assert.equal(connectionHeadline(some).text, 'live  forbidden: tfjobs');
  assert.equal(connectionFlash(some, 0), null);
  // Several causes at once: one is named, the one to act on first.
  const mixed = summariseConnection(
    [
      kind('pods', 'reconnecting', { cause: { kind: 'unreachable', text: 'connection refused' } }),
      kind('nodes', 'forbidden', { cause: { kind: 'unauthorized', text: 'unauthorized (401)' } }),
    ],
    null,
    'x',
  );
  assert.equal(mixed.cause?.kind, 'unauthorized');
  // Some kinds failing while others are live: named in the header and the flash.
  const partial = summariseConnection(
    [
      kind('pods', 'live'),
      kind('jobsets', 'reconnecting', { cause: { kind: 'stalled', text: 'server stopped answering' } }),
    ],
    null,
    'x',
  );
  assert.equal(connectionHeadline(partial).text, 'reconnecting jobsets since 03:04:05');
  assert.equal(connectionFlash(partial, 0)?.text, 'jobsets: server stopped answering');
});

test('errors never carry a credential: bearer values, the configured token and client key are redacted', async (t) => {
  // A server (or proxy) that echoes the request's headers in its error body.
  const echo = http.createServer((req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`upstream failed for request with headers ${JSON.stringify(req.headers)}`);
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  t.after(() => echo.close());
  const server = `http://127.0.0.1:${(echo.address() as import('node:net').AddressInfo).port}`;
  const transport = new HttpKubeTransport(kubeConfig(server, { name: 'u', token: SECRET }), server, 'ctx');
  t.after(() => transport.close());
  const err = await getJson(transport, '/api/v1/pods').then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof KubeApiError);
  assert.match(err.message, /upstream failed/);
  assert.match(err.message, /Bearer <redacted>/);
  assert.doesNotMatch(err.message, new RegExp(SECRET));

  assert.equal(redactSecrets('Authorization: Bearer abc.def-ghi x', []), 'Authorization: Bearer <redacted> x');
  assert.equal(redactSecrets('key=-----BEGIN KEY----- end', ['-----BEGIN KEY-----']), 'key=<redacted> end');
  assert.equal(describeFailure(new KubeConnectionError('x', 'ECONNREFUSED')).text, 'connection refused');
  assert.equal(describeFailure(new KubeApiError('x', 401, 'Unauthorized')).kind, 'unauthorized');
});
