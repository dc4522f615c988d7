// wlx's ContextCredentials against client-node's KubeConfig: for each way a kubeconfig authenticates, the same
// request options (headers, basic auth, TLS material, agent and its options), the same errors; and a proxy-url
// cluster gets client-node's own KubeConfig (its proxy agents).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Cluster, User } from '@kubernetes/client-node/dist/config_types.js';
import { ContextCredentials, type RequestCredentials } from '../../src/kube/credentials.js';
import { loadKubeconfig } from '../../src/kube/kubeconfig.js';
import { HttpKubeTransport, getJson } from '../../src/kube/client.js';

function tmp(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-cred-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** What a request gets: the options set, the agent's class and options (Buffers as text). */
async function applied(credentials: RequestCredentials): Promise<unknown> {
  const opts: https.RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
  try {
    await credentials.applyToHTTPSOptions(opts);
  } catch (err) {
    return { error: (err as Error).message };
  }
  const { agent, ...rest } = opts;
  const text = (o: object) =>
    JSON.parse(JSON.stringify(o, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString() : v)));
  const a = agent as { options?: object; protocol?: string } | undefined;
  return { ...text(rest), agent: a && `${a.constructor.name} ${a.protocol}`, agentOptions: text(a?.options ?? {}) };
}

function theirs(cluster: Cluster, user: User | null): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: user ? [user] : [],
    contexts: [{ name: 'ctx', cluster: cluster.name, user: user?.name ?? 'nobody' }],
    currentContext: 'ctx',
  });
  return kc;
}

/** A JWT whose payload is `payload` (unsigned: OIDC reads its expiry only). */
function jwt(payload: object): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(payload)}.sig`;
}

test('every way a kubeconfig authenticates applies as client-node KubeConfig applies it', async (t) => {
  const dir = tmp(t);
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const caFile = file('ca.crt', 'CA FROM FILE');
  const certFile = file('client.crt', 'CERT FROM FILE');
  const keyFile = file('client.key', 'KEY FROM FILE');
  const tokenFile = file('token', 'token-from-file');
  const plugin = file(
    'plugin.sh',
    '#!/bin/sh\necho \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exec-token"}}\'\n',
  );
  chmodSync(plugin, 0o755);
  const failing = file('failing.sh', '#!/bin/sh\necho "no credentials here" >&2\nexit 3\n');
  chmodSync(failing, 0o755);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const https_ = { name: 'c', server: 'https://10.0.0.1:6443', skipTLSVerify: false };
  const exec = (command: string) => ({
    apiVersion: 'client.authentication.k8s.io/v1',
    command,
    interactiveMode: 'Never',
  });
  const cases: Array<[string, Cluster, User | null]> = [
    ['a token, CA data', { ...https_, caData: b64('CA DATA') }, { name: 'u', token: 'tok' }],
    [
      'basic auth, skip verify, a TLS server name',
      { ...https_, skipTLSVerify: true, tlsServerName: 'api.x' },
      { name: 'u', username: 'bob', password: 'pw' },
    ],
    ['client certificate files, a CA file', { ...https_, caFile }, { name: 'u', certFile, keyFile }],
    ['client certificate data', https_, { name: 'u', certData: b64('CERT DATA'), keyData: b64('KEY DATA') }],
    ['impersonation', https_, { name: 'u', token: 'tok', impersonateUser: 'alice' }],
    ['an exec plugin', https_, { name: 'u', exec: exec(plugin) }],
    ['an exec plugin that fails', https_, { name: 'u', exec: exec(failing) }],
    ['a token file', https_, { name: 'u', authProvider: { name: 'tokenFile', config: { tokenFile } } }],
    [
      'OIDC, an unexpired id-token',
      https_,
      { name: 'u', authProvider: { name: 'oidc', config: { 'id-token': jwt({ exp: 4_000_000_000 }) } } },
    ],
    [
      'plain http, skip verify',
      { ...https_, server: 'http://10.0.0.1:8080', skipTLSVerify: true },
      { name: 'u', token: 'tok' },
    ],
    ['plain http without skip verify', { ...https_, server: 'http://10.0.0.1:8080' }, { name: 'u', token: 'tok' }],
    ['no user entry', { ...https_, caData: b64('CA DATA'), skipTLSVerify: true }, null],
  ];
  for (const [what, cluster, user] of cases) {
    // Each side its own copy: authenticators write into the entries (OIDC's client-secret).
    const copy = <T>(v: T): T => structuredClone(v);
    const ours = (await applied(new ContextCredentials(copy(cluster), copy(user)))) as {
      agentOptions?: Record<string, unknown>;
    };
    const mine = ours.agentOptions;
    // One difference on purpose: our agent keeps its connections between requests (client-node's closes each).
    if (mine) assert.equal(mine.keepAlive, true, `${what}: keep-alive`);
    const expected = (await applied(theirs(copy(cluster), copy(user)))) as { agentOptions?: Record<string, unknown> };
    if (expected.agentOptions && mine) expected.agentOptions = { ...expected.agentOptions, keepAlive: true };
    assert.deepEqual(ours, expected, what);
  }
  // The comparison sees what matters (a check that it can fail).
  const token = await applied(new ContextCredentials(https_, { name: 'u', token: 'tok' }));
  assert.deepEqual((token as { headers: unknown }).headers, {
    Accept: 'application/json',
    Authorization: 'Bearer tok',
  });
  const exec_ = await applied(new ContextCredentials(https_, { name: 'u', exec: exec(plugin) }));
  assert.equal((exec_ as { headers: Record<string, string> }).headers.Authorization, 'Bearer exec-token');
});

test('a kubeconfig context gets ContextCredentials; a proxy-url cluster gets client-node KubeConfig with its proxy agent', async (t) => {
  const dir = tmp(t);
  const file = join(dir, 'config');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: direct',
      'clusters:',
      '- name: direct',
      '  cluster: {server: "https://10.0.0.1:6443", insecure-skip-tls-verify: true}',
      '- name: proxied',
      '  cluster: {server: "https://10.0.0.2:6443", proxy-url: "http://proxy.local:3128"}',
      'users:',
      '- name: u',
      '  user: {token: tok}',
      'contexts:',
      '- name: direct',
      '  context: {cluster: direct, user: u}',
      '- name: proxied',
      '  context: {cluster: proxied, user: u}',
    ].join('\n'),
  );
  const direct = await loadKubeconfig({ kubeconfig: file, env: {} }).credentials();
  assert.ok(direct instanceof ContextCredentials);
  const proxied = await loadKubeconfig({ kubeconfig: file, context: 'proxied', env: {} }).credentials();
  assert.ok(proxied instanceof KubeConfig);
  const opts = (await applied(proxied)) as { agent: string; headers: Record<string, string> };
  assert.match(opts.agent, /^HttpsProxyAgent /);
  assert.equal(opts.headers.Authorization, 'Bearer tok');
});

/** A local server answering every GET with a Status (when `answer` lets it), and one context's transport to it. */
async function localContext(
  t: { after: (fn: () => unknown) => void },
  answer: (path: string) => Promise<void> = () => Promise.resolve(),
): Promise<{ transport: HttpKubeTransport; connections: () => number }> {
  const server = http.createServer((req, res) => {
    void answer(req.url ?? '').then(() => res.end('{"kind":"Status"}'));
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const transport = new HttpKubeTransport(
    new ContextCredentials({ name: 'c', server: url, skipTLSVerify: true }, { name: 'u', token: 'tok' }),
    url,
    'c',
  );
  t.after(() => transport.close());
  return { transport, connections: () => connections };
}

test('requests of one context share a connection: five GETs, one TCP connection (Node closes each by default)', async (t) => {
  const { transport, connections } = await localContext(t);
  for (let i = 0; i < 5; i++) assert.deepEqual(await getJson(transport, '/api'), { kind: 'Status' });
  assert.equal(connections(), 1);
});

test('an abort after its answer leaves the kept connection alone: the next request on it is answered', async (t) => {
  // /slow is answered once the test lets it: the first request's abort comes while the second waits on its socket.
  let arrived!: () => void;
  const slowArrived = new Promise<void>((r) => (arrived = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const { transport, connections } = await localContext(t, (path) => {
    if (path !== '/slow') return Promise.resolve();
    arrived();
    return released;
  });
  const first = new AbortController();
  assert.deepEqual(await getJson(transport, '/fast', { signal: first.signal }), { kind: 'Status' });
  const second = getJson(transport, '/slow');
  await slowArrived;
  first.abort();
  release();
  assert.deepEqual(await second, { kind: 'Status' });
  assert.equal(connections(), 1, 'the second request used the first one’s connection');
  // An abort while the answer is awaited still ends that request.
  const third = new AbortController();
  const pending = getJson(transport, '/slow', { signal: third.signal });
  third.abort();
  await assert.rejects(pending, { name: 'AbortError' });
});
