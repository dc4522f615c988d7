import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadKubeconfig, kubeconfigFiles, KubeconfigError } from '../../src/kube/kubeconfig.js';
import { HttpKubeTransport, getJson, KubeApiError } from '../../src/kube/client.js';
import { clusterOptionsFrom, CLUSTER_OPTIONS } from '../../src/cli/common.js';
import { parseCommandArgs, UsageError } from '../../src/cli/usage.js';

function config(opts: {
  current?: string;
  clusters: [string, string][];
  users: [string, string | null][];
  contexts: [string, string, string, string?][];
}): string {
  const lines = ['apiVersion: v1', 'kind: Config'];
  if (opts.current) lines.push(`current-context: ${opts.current}`);
  lines.push('clusters:');
  for (const [name, server] of opts.clusters)
    lines.push(`- name: ${name}`, '  cluster:', `    server: ${server}`, '    insecure-skip-tls-verify: true');
  lines.push('users:');
  for (const [name, token] of opts.users)
    lines.push(`- name: ${name}`, '  user:', token ? `    token: ${token}` : '    {}');
  lines.push('contexts:');
  for (const [name, cluster, user, ns] of opts.contexts) {
    lines.push(`- name: ${name}`, '  context:', `    cluster: ${cluster}`, `    user: ${user}`);
    if (ns) lines.push(`    namespace: ${ns}`);
  }
  return lines.join('\n') + '\n';
}

function tmp(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-kc-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('$KUBECONFIG lists files; the first file wins for current-context and duplicate names, like kubectl', (t) => {
  const dir = tmp(t);
  const a = join(dir, 'a');
  const b = join(dir, 'b');
  writeFileSync(
    a,
    config({
      current: 'ctx-a',
      clusters: [['shared', 'http://127.0.0.1:1111']],
      users: [['ua', 'tok-a']],
      contexts: [['ctx-a', 'shared', 'ua', 'team-a']],
    }),
  );
  writeFileSync(
    b,
    config({
      current: 'ctx-b',
      clusters: [
        ['shared', 'http://127.0.0.1:2222'],
        ['other', 'http://127.0.0.1:3333'],
      ],
      users: [['ub', 'tok-b']],
      contexts: [['ctx-b', 'other', 'ub']],
    }),
  );
  const env = { KUBECONFIG: `${a}:${join(dir, 'missing')}:${b}`, HOME: dir };
  assert.deepEqual(kubeconfigFiles({ env }), [a, b], 'missing files in $KUBECONFIG are skipped');
  const loaded = loadKubeconfig({ env });
  assert.equal(loaded.context, 'ctx-a');
  assert.equal(loaded.server, 'http://127.0.0.1:1111', 'the first definition of cluster "shared" wins');
  assert.equal(loaded.contextNamespace, 'team-a');
  const other = loadKubeconfig({ env, context: 'ctx-b' });
  assert.equal(other.server, 'http://127.0.0.1:3333');
  assert.equal(other.user, 'ub');
});

test('--kubeconfig overrides $KUBECONFIG; unknown contexts and missing files are clear errors', (t) => {
  const dir = tmp(t);
  const a = join(dir, 'a');
  const b = join(dir, 'b');
  writeFileSync(
    a,
    config({
      current: 'ctx-a',
      clusters: [['c', 'http://127.0.0.1:1111']],
      users: [['u', null]],
      contexts: [['ctx-a', 'c', 'u']],
    }),
  );
  writeFileSync(
    b,
    config({
      current: 'ctx-b',
      clusters: [['c', 'http://127.0.0.1:2222']],
      users: [['u', null]],
      contexts: [['ctx-b', 'c', 'u']],
    }),
  );
  const env = { KUBECONFIG: a, HOME: dir };
  assert.equal(loadKubeconfig({ env, kubeconfig: b }).context, 'ctx-b');
  assert.throws(
    () => loadKubeconfig({ env, context: 'nope' }),
    (e: Error) => e instanceof KubeconfigError && /context "nope" not found.*ctx-a/.test(e.message),
  );
  assert.throws(() => loadKubeconfig({ env, kubeconfig: join(dir, 'nothing') }), /does not exist/);
  assert.throws(() => loadKubeconfig({ env: { HOME: dir } }), /no kubeconfig found/);
});

test('plain http without insecure-skip-tls-verify is refused, naming the context and server', (t) => {
  const dir = tmp(t);
  const a = join(dir, 'a');
  writeFileSync(
    a,
    'apiVersion: v1\nkind: Config\ncurrent-context: x\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:9\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\n',
  );
  assert.throws(
    () => loadKubeconfig({ kubeconfig: a, env: {} }),
    /context "x" \(server http:\/\/127\.0\.0\.1:9\): plain http needs insecure-skip-tls-verify/,
  );
});

test('requests carry the kubeconfig token; errors name context and server but never the token', async (t) => {
  const dir = tmp(t);
  const seen: Array<{ method?: string; auth?: string; url?: string }> = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method, auth: req.headers.authorization, url: req.url });
    if (req.url === '/version') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"gitVersion":"v1.32.0"}');
      return;
    }
    res.writeHead(403, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        kind: 'Status',
        status: 'Failure',
        reason: 'Forbidden',
        code: 403,
        message: 'pods is forbidden: User "bob" cannot list resource "pods"',
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const port = (server.address() as AddressInfo).port;
  const file = join(dir, 'kc');
  writeFileSync(
    file,
    config({
      current: 'prod',
      clusters: [['c', `http://127.0.0.1:${port}`]],
      users: [['bob', 's3cr3t-token']],
      contexts: [['prod', 'c', 'bob']],
    }),
  );
  const loaded = loadKubeconfig({ kubeconfig: file, env: {} });
  const transport = new HttpKubeTransport(() => loaded.credentials(), loaded.server, loaded.context);
  t.after(() => transport.close());
  assert.deepEqual(await getJson(transport, '/version'), { gitVersion: 'v1.32.0' });
  await assert.rejects(getJson(transport, '/api/v1/pods'), (e: Error) => {
    assert.ok(e instanceof KubeApiError);
    assert.equal(e.status, 403);
    assert.match(
      e.message,
      new RegExp(`^context "prod" \\(server http://127\\.0\\.0\\.1:${port}\\): GET /api/v1/pods: pods is forbidden`),
    );
    assert.doesNotMatch(e.message, /s3cr3t/);
    return true;
  });
  assert.deepEqual(
    seen.map((s) => s.auth),
    ['Bearer s3cr3t-token', 'Bearer s3cr3t-token'],
  );
  assert.deepEqual(
    seen.map((s) => s.method),
    ['GET', 'GET'],
  );
});

test('shared cluster options: -n, -A, --definitions, $WLX_DEFINITIONS, --gpu-resource, --demo; conflicts are usage errors', () => {
  const parse = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    clusterOptionsFrom(parseCommandArgs(args, CLUSTER_OPTIONS, 'hint').values, 'hint', env);
  assert.equal(parse([]).namespace, null, 'all namespaces by default, like k9s');
  assert.equal(parse(['-A']).namespace, null);
  assert.equal(parse(['-n', 'training']).namespace, 'training');
  assert.equal(parse(['--namespace=inference']).namespace, 'inference');
  const o = parse(
    [
      '--definitions',
      'a.yaml',
      '--definitions',
      'dir',
      '--gpu-resource',
      'amd.com/gpu',
      '--context',
      'c',
      '--kubeconfig',
      'k',
    ],
    { WLX_DEFINITIONS: 'x:y' },
  );
  assert.deepEqual(o.definitionPaths, ['a.yaml', 'dir']);
  assert.equal(o.definitionsEnv, 'x:y');
  assert.deepEqual(o.gpuResources, ['amd.com/gpu']);
  assert.equal(o.context, 'c');
  assert.equal(o.kubeconfig, 'k');
  assert.equal(parse(['--demo']).demo, true);
  assert.throws(() => parse(['-n', 'a', '-A']), UsageError);
  assert.throws(() => parse(['--demo', '--context', 'x']), UsageError);
  assert.throws(() => parse(['--gpu-resource', 'bad name!']), UsageError);
  assert.throws(() => parse(['--bogus']), UsageError);
});

test('in a pod (no kubeconfig, the service env set): the context, cluster, user and server client-node loadFromCluster gives', async (t) => {
  const home = tmp(t);
  const { KubeConfig } = await import('@kubernetes/client-node');
  for (const [host, port] of [
    ['10.96.0.1', '443'],
    ['fd00::1', '6443'],
  ] as const) {
    const env = { HOME: home, KUBERNETES_SERVICE_HOST: host, KUBERNETES_SERVICE_PORT: port };
    const loaded = loadKubeconfig({ env });
    // client-node's own reading of the same environment (it reads process.env).
    const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
    process.env.KUBERNETES_SERVICE_HOST = host;
    process.env.KUBERNETES_SERVICE_PORT = port;
    const theirs = new KubeConfig();
    try {
      theirs.loadFromCluster();
    } finally {
      if (saved.host === undefined) delete process.env.KUBERNETES_SERVICE_HOST;
      else process.env.KUBERNETES_SERVICE_HOST = saved.host;
      if (saved.port === undefined) delete process.env.KUBERNETES_SERVICE_PORT;
      else process.env.KUBERNETES_SERVICE_PORT = saved.port;
    }
    assert.equal(loaded.context, theirs.getCurrentContext());
    assert.equal(loaded.cluster, theirs.getCurrentCluster()?.name);
    assert.equal(loaded.user, theirs.getCurrentUser()?.name);
    assert.equal(loaded.server, theirs.getCurrentCluster()?.server);
    // The same credentials: the service account's token file.
    assert.deepEqual((await loaded.credentials()).getCurrentUser(), theirs.getCurrentUser());
    assert.deepEqual(loaded.files, []);
  }
  // Neither a file nor the service env: one clear error.
  assert.throws(() => loadKubeconfig({ env: { HOME: home } }), /no kubeconfig found/);
});

test('a broken context entry names the context, the field and the file: a missing cluster, an unreadable certificate', (t) => {
  const dir = tmp(t);
  const file = join(dir, 'config');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: good',
      '  cluster: {server: "https://127.0.0.1:6443", certificate-authority: ca.pem}',
      '- name: skipped',
      '  cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}',
      'users:',
      '- name: certuser',
      `  user: {client-certificate: ${join(dir, 'missing-cert.pem')}, client-key-data: AAAA}`,
      '- name: plain',
      '  user: {}',
      'contexts:',
      '- name: nocluster',
      '  context: {cluster: missing, user: plain}',
      '- name: badcert',
      '  context: {cluster: skipped, user: certuser}',
      '- name: badca',
      '  context: {cluster: good, user: plain}',
      '',
    ].join('\n'),
  );
  const fails = (context: string, message: RegExp) =>
    assert.throws(
      () => loadKubeconfig({ kubeconfig: file, context, env: {} }),
      (e: Error) => e instanceof KubeconfigError && message.test(e.message),
    );
  const at = ` \\(kubeconfig ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)$`;
  fails('nocluster', new RegExp(`^context "nocluster": cluster "missing" is not defined${at}`));
  fails(
    'badcert',
    new RegExp(
      `^context "badcert": user "certuser": client-certificate .*missing-cert\\.pem cannot be read \\(no such file\\)${at}`,
    ),
  );
  // A relative path is read from the kubeconfig's directory.
  fails('badca', new RegExp(`^context "badca": cluster "good": certificate-authority ${dir}/ca\\.pem cannot be read`));
  writeFileSync(join(dir, 'ca.pem'), 'x');
  assert.equal(loadKubeconfig({ kubeconfig: file, context: 'badca', env: {} }).cluster, 'good');
});
