import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLabelSelector, matchesSelector } from '../../src/kube/selector.js';
import { startEngine } from '../../src/kube/engine.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { HttpKubeTransport } from '../../src/kube/client.js';

test('label selectors: every operator kubectl accepts', () => {
  const labels = { team: 'a', tier: 'gpu', 'app.kubernetes.io/name': 'llama' };
  const m = (s: string) => matchesSelector(parseLabelSelector(s), labels);
  assert.equal(m('team=a'), true);
  assert.equal(m('team==a'), true);
  assert.equal(m('team=b'), false);
  assert.equal(m('team!=b'), true);
  assert.equal(m('missing!=b'), true);
  assert.equal(m('team in (a, b)'), true);
  assert.equal(m('team notin (a,b)'), false);
  assert.equal(m('missing notin (a)'), true);
  assert.equal(m('tier'), true);
  assert.equal(m('!tier'), false);
  assert.equal(m('!missing'), true);
  assert.equal(m('app.kubernetes.io/name=llama,team in (a),!canary'), true);
  assert.equal(m('app.kubernetes.io/name=llama,team=b'), false);
  assert.throws(() => parseLabelSelector('a=b=c'), /invalid label value/);
  assert.throws(() => parseLabelSelector('bad key!=x'), /cannot parse|invalid/);
});

test('the engine passes -l to workload roots only (pods, nodes and owners are listed whole)', async (t) => {
  const asked: string[] = [];
  const discovery: Record<string, unknown> = {
    '/version': { gitVersion: 'v1.32.0' },
    '/api/v1': {
      resources: [
        { name: 'pods', kind: 'Pod', namespaced: true, verbs: ['list', 'watch'] },
        { name: 'nodes', kind: 'Node', namespaced: false, verbs: ['list', 'watch'] },
      ],
    },
    '/apis/jobset.x-k8s.io/v1alpha2': {
      resources: [{ name: 'jobsets', kind: 'JobSet', namespaced: true, verbs: ['list', 'watch'] }],
    },
    '/apis/kubeflow.org/v1': {
      resources: [{ name: 'pytorchjobs', kind: 'PyTorchJob', namespaced: true, verbs: ['list', 'watch'] }],
    },
    '/apis/batch/v1': { resources: [{ name: 'jobs', kind: 'Job', namespaced: true, verbs: ['list', 'watch'] }] },
  };
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    const bare = (req.url ?? '').split('?')[0];
    res.setHeader('Content-Type', 'application/json');
    if (bare in discovery) return res.end(JSON.stringify(discovery[bare]));
    if ((req.url ?? '').includes('limit='))
      return res.end(JSON.stringify({ kind: 'List', metadata: { resourceVersion: '7' }, items: [] }));
    res.statusCode = 404;
    res.end(JSON.stringify({ kind: 'Status', code: 404, reason: 'NotFound', message: 'not found' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const transport = new HttpKubeTransport(kc, url, 'x');
  t.after(() => transport.close());
  const engine = await startEngine({
    transport,
    connection: { context: 'x', cluster: 'c', user: 'u', server: url, namespace: 'training' },
    namespace: 'training',
    definitions: loadDefinitions({ envPaths: '' }),
    labelSelector: 'team in (a,b)',
    watch: false,
  });
  await engine.whenSynced();
  await engine.stop();
  const lists = asked.filter((p) => p.includes('limit='));
  const pytorchjobs = lists.find((p) => p.startsWith('/apis/kubeflow.org/v1/namespaces/training/pytorchjobs?'));
  assert.ok(pytorchjobs, `pytorchjobs listed in the namespace: ${lists.join(' ')}`);
  assert.equal(new URL(pytorchjobs, 'http://x').searchParams.get('labelSelector'), 'team in (a,b)');
  // JobSets can be children of TrainJobs (built-in catalog): listed whole like Jobs.
  const jobsets = lists.find((p) => p.startsWith('/apis/jobset.x-k8s.io/v1alpha2/namespaces/training/jobsets?'));
  assert.ok(jobsets);
  assert.equal(new URL(jobsets, 'http://x').searchParams.get('labelSelector'), null);
  // -n narrows the view, not the nodes' accounting: pods are listed cluster-wide.
  const pods = lists.find((p) => p.startsWith('/api/v1/pods?'));
  assert.ok(pods, `pods listed cluster-wide: ${lists.join(' ')}`);
  assert.equal(new URL(pods, 'http://x').searchParams.get('labelSelector'), null);
  assert.ok(
    lists.some((p) => p.startsWith('/api/v1/nodes?')),
    'nodes are cluster-scoped: listed whole even with -n',
  );
  // Jobs are a defined workload type AND sit under JobSets: listed whole (the
  // selector is applied locally) so pod → Job → JobSet chains stay intact.
  const jobs = lists.find((p) => p.startsWith('/apis/batch/v1/namespaces/training/jobs?'));
  assert.ok(jobs);
  assert.equal(new URL(jobs, 'http://x').searchParams.get('labelSelector'), null);
  assert.equal(asked.filter((p) => p.includes('watch=')).length, 0, 'list-only mode');
});
