// The dcgm-exporter scraper against a small local API server that answers
// the pods proxy path: exporters found by label among given pods, readings
// joined to pods, a 403 or failing exporter reported in one notice while the
// others still count, back-off, the size bound, and no timer when let go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { DcgmScraper, findExporters, metricsProxyPath } from '../../src/kube/dcgm-scrape.js';
import type { KubeObject } from '../../src/model/types.js';
import { DCGM_TEXT, UUID0 } from '../metrics/fixtures.js';

function exporterPod(
  name: string,
  node: string,
  labels: Record<string, string>,
  extra: Partial<KubeObject> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'gpu-operator', uid: `uid-${name}`, labels },
    spec: {
      nodeName: node,
      containers: [{ name: 'nvidia-dcgm-exporter', ports: [{ name: 'metrics', containerPort: 9400 }] }],
    },
    status: { phase: 'Running' },
    ...extra,
  };
}

const OPERATOR = { app: 'nvidia-dcgm-exporter' };

interface FakeApi {
  transport: HttpKubeTransport;
  requests: string[];
  answers: Map<string, (res: http.ServerResponse) => void>;
  close(): Promise<void>;
}

async function fakeApi(): Promise<FakeApi> {
  const requests: string[] = [];
  const answers = new Map<string, (res: http.ServerResponse) => void>();
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    const answer = answers.get(req.url ?? '');
    if (answer) return answer(res);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, message: 'not found' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'secret-token-123' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  const transport = new HttpKubeTransport(kc, `http://127.0.0.1:${port}`, 'ctx');
  return {
    transport,
    requests,
    answers,
    close: async () => {
      transport.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const metrics = (text: string) => (res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
  res.end(text);
};
const forbidden = (res: http.ServerResponse) => {
  res.writeHead(403, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message:
        'pods "x" is forbidden: User "dev" cannot get resource "pods/proxy" in API group "" in the namespace "gpu-operator"',
    }),
  );
};

test('exporters: by the operator or chart labels, or a given selector; running only; port by name', () => {
  const pods = [
    exporterPod('a', 'n1', OPERATOR),
    exporterPod('b', 'n2', { 'app.kubernetes.io/name': 'dcgm-exporter' }),
    exporterPod('c', 'n3', { app: 'other' }),
    exporterPod('d', 'n4', OPERATOR, { status: { phase: 'Pending' } }),
    exporterPod('e', 'n5', { app: 'my-dcgm' }, { spec: { nodeName: 'n5', containers: [{ name: 'x' }] } }),
  ];
  assert.deepEqual(
    findExporters(pods).map((e) => e.name),
    ['a', 'b'],
  );
  const custom = findExporters(pods, 'app=my-dcgm');
  assert.deepEqual(custom, [{ namespace: 'gpu-operator', name: 'e', node: 'n5', port: 9400 }]);
  assert.equal(metricsProxyPath(custom[0]), '/api/v1/namespaces/gpu-operator/pods/e%3A9400/proxy/metrics');
});

test('a round: readings from the answering exporter, joined to pods; a 403 elsewhere is one notice', async (t) => {
  const api = await fakeApi();
  t.after(() => api.close());
  const pods = [exporterPod('exp-a', 'gpu-node-01', OPERATOR), exporterPod('exp-b', 'gpu-node-02', OPERATOR)];
  api.answers.set('/api/v1/namespaces/gpu-operator/pods/exp-a%3A9400/proxy/metrics', metrics(DCGM_TEXT));
  api.answers.set('/api/v1/namespaces/gpu-operator/pods/exp-b%3A9400/proxy/metrics', forbidden);
  const changes: number[] = [];
  const scraper = new DcgmScraper(
    api.transport,
    () => pods,
    (s) => changes.push(s.readings.length),
  );
  const state = await scraper.scrapeOnce();
  assert.equal(state.exporters, 2);
  assert.equal(state.readings.length, 4);
  const busy = state.readings.find((r) => r.uuid === UUID0)!;
  assert.equal(busy.node, 'gpu-node-01');
  assert.equal(busy.utilisation, 87);
  assert.equal(busy.pods[0].name, 'llama-pretrain-worker-0-0-x7k2p');
  assert.deepEqual(state.notice, {
    kind: 'forbidden',
    text: 'GPU metrics: forbidden (403) for 1 of 2 exporters: reading them needs get on pods/proxy',
  });
  assert.deepEqual(changes, [4]);
  assert.ok(
    api.requests.every((r) => r.startsWith('GET ')),
    'reads only',
  );
  assert.ok(
    api.requests.every((r) => r.endsWith('Bearer secret-token-123')),
    'through the kubeconfig credentials',
  );
  assert.ok(!state.notice.text.includes('secret'));
});

test('no exporter, all forbidden, failures: the notice says which; nothing else breaks', async (t) => {
  const api = await fakeApi();
  t.after(() => api.close());
  const none = await new DcgmScraper(api.transport, () => []).scrapeOnce();
  assert.deepEqual(none.notice, {
    kind: 'no-exporter',
    text: 'GPU metrics: no running dcgm-exporter pod (GPU Operator or chart labels)',
  });
  assert.deepEqual(none.readings, []);
  const sel = await new DcgmScraper(api.transport, () => [], undefined, { selector: 'app=dcgm' }).scrapeOnce();
  assert.equal(sel.notice?.text, 'GPU metrics: no running dcgm-exporter pod matching app=dcgm');

  api.answers.set('/api/v1/namespaces/gpu-operator/pods/f%3A9400/proxy/metrics', forbidden);
  const allForbidden = await new DcgmScraper(api.transport, () => [exporterPod('f', 'n', OPERATOR)]).scrapeOnce();
  assert.equal(allForbidden.notice?.kind, 'forbidden');
  assert.match(allForbidden.notice.text, /for all exporters/);

  api.answers.set('/api/v1/namespaces/gpu-operator/pods/g%3A9400/proxy/metrics', (res) => {
    res.writeHead(503, { 'content-type': 'text/plain' });
    res.end('error trying to reach service: dial tcp 10.0.0.9:9400: connect: connection refused');
  });
  const failed = await new DcgmScraper(api.transport, () => [exporterPod('g', 'n', OPERATOR)]).scrapeOnce();
  assert.deepEqual(failed.notice, {
    kind: 'failed',
    text: 'GPU metrics: scrape failed for all exporters: server answered 503',
  });

  assert.throws(() => new DcgmScraper(api.transport, () => [], undefined, { selector: 'a in (' }), /selector/i);
});

test('a failing exporter backs off, its GPUs read unknown, and it counts again once it answers', async (t) => {
  const api = await fakeApi();
  t.after(() => api.close());
  let now = 1_000_000;
  const path = '/api/v1/namespaces/gpu-operator/pods/exp-a%3A9400/proxy/metrics';
  api.answers.set(path, metrics(DCGM_TEXT));
  const scraper = new DcgmScraper(api.transport, () => [exporterPod('exp-a', 'gpu-node-01', OPERATOR)], undefined, {
    intervalMs: 10_000,
    now: () => now,
  });
  assert.equal((await scraper.scrapeOnce()).readings.length, 4);
  api.answers.set(path, (res) => {
    res.writeHead(500);
    res.end('boom');
  });
  now += 10_000;
  const failing = await scraper.scrapeOnce();
  assert.deepEqual(failing.readings, [], 'unknown, not the last numbers');
  assert.equal(failing.notice?.kind, 'failed');
  const asked = () => api.requests.filter((r) => r.includes(path)).length;
  const before = asked();
  now += 5_000;
  await scraper.scrapeOnce();
  assert.equal(asked(), before, 'backing off: not asked again 5 s later');
  now += 10_000;
  await scraper.scrapeOnce();
  assert.equal(asked(), before + 1, 'asked again after the back-off (10 s, then 20 s)');
  api.answers.set(path, metrics(DCGM_TEXT));
  now += 25_000;
  const back = await scraper.scrapeOnce();
  assert.equal(back.readings.length, 4);
  assert.equal(back.notice, null);
});

test('the answer is bounded; an exporter that is gone is forgotten', async (t) => {
  const api = await fakeApi();
  t.after(() => api.close());
  api.answers.set('/api/v1/namespaces/gpu-operator/pods/big%3A9400/proxy/metrics', metrics('# junk\n'.repeat(100_000)));
  const big = await new DcgmScraper(api.transport, () => [exporterPod('big', 'n', OPERATOR)], undefined, {
    maxBytes: 64 * 1024,
  }).scrapeOnce();
  assert.deepEqual(big.notice, {
    kind: 'failed',
    text: 'GPU metrics: scrape failed for all exporters: answer over 64 KiB',
  });

  api.answers.set('/api/v1/namespaces/gpu-operator/pods/exp-a%3A9400/proxy/metrics', metrics(DCGM_TEXT));
  let pods = [exporterPod('exp-a', 'gpu-node-01', OPERATOR)];
  const scraper = new DcgmScraper(api.transport, () => pods);
  assert.equal((await scraper.scrapeOnce()).readings.length, 4);
  pods = [];
  assert.equal((await scraper.scrapeOnce()).readings.length, 0);
});

test('scrapes only while held: at once on acquire, on the interval, and no timer after release', async (t) => {
  const api = await fakeApi();
  t.after(() => api.close());
  const path = '/api/v1/namespaces/gpu-operator/pods/exp-a%3A9400/proxy/metrics';
  api.answers.set(path, metrics(DCGM_TEXT));
  const rounds: number[] = [];
  const scraper = new DcgmScraper(
    api.transport,
    () => [exporterPod('exp-a', 'gpu-node-01', OPERATOR)],
    () => rounds.push(Date.now()),
    { intervalMs: 1 },
  ); // clamped to 5 s
  const release = scraper.acquire();
  const again = scraper.acquire();
  const end = Date.now() + 3000;
  while (rounds.length < 1 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  assert.equal(rounds.length, 1, 'one round at once, however many holders');
  release();
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(rounds.length, 1, 'the next round waits for the (clamped) interval');
  again();
  const asked = api.requests.length;
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(api.requests.length, asked, 'let go: nothing more');
  scraper.stop();
});
