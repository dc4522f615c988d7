// The scraper's Prometheus source over real HTTP: through the demo API
// server's service proxy (the simulated Prometheus, with the kubeconfig's
// credentials), and at a plain URL (a local server: none of the cluster's
// credentials sent; its error envelope, a bad answer and a closed port each
// one notice with every reading dropped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDemoCluster } from '../../demo/index.js';
import { resourceKey } from '../../demo/object-store.js';
import { DcgmScraper, parsePrometheusTarget } from '../../src/kube/dcgm-scrape.js';
import type { KubeObject } from '../../src/model/types.js';
import { isIdleUnknown } from '../../src/model/utilisation.js';
import type { KubeTransport } from '../../src/kube/client.js';
import { transportFor } from '../kube/helpers.js';

test('svc/monitoring/prometheus:9090 through the service proxy: readings joined to pods, idleness known at once', async (t) => {
  const cluster = await startDemoCluster({ speed: 4, seed: 3 });
  const transport = transportFor(cluster);
  t.after(async () => {
    transport.close();
    await cluster.stop();
  });
  const pods = () => cluster.store.list(resourceKey('', 'v1', 'pods')) as unknown as KubeObject[];
  const scraper = new DcgmScraper(transport, pods, () => {}, {
    prometheus: parsePrometheusTarget('svc/monitoring/prometheus:9090'),
    idle: { thresholdPercent: 5, windowMs: 1_000 },
  });
  const state = await scraper.scrapeOnce();
  assert.equal(state.notice, null);
  // Inference has served for hours: its whole GPUs' series cover the window, so idleness is known at once.
  const serving = state.readings.filter(
    (r) => r.migProfile === null && r.pods.some((p) => p.namespace === 'inference'),
  );
  assert.ok(serving.length >= 32, `${serving.length} inference GPUs`);
  for (const r of serving) {
    assert.ok(r.coveredSince !== null && r.coveredSince <= r.at - 1_000, r.key);
    assert.equal(isIdleUnknown(r, state.scrapedAt!, { thresholdPercent: 5, windowMs: 1_000 }), false, r.key);
    assert.ok(r.utilisation !== null && r.utilisation >= 25, `${r.key}: ${r.utilisation}`);
  }
  assert.ok(
    state.readings.every(
      (r) => r.node !== null && cluster.store.get(resourceKey('', 'v1', 'nodes'), undefined, r.node),
    ),
    'nodes from Hostname',
  );
  assert.ok(
    state.readings.every((r) => r.pods.every((p) => p.namespace !== 'gpu-operator')),
    "the GPU's pod, not the exporter's",
  );
  assert.ok(
    cluster
      .requests()
      .some((r) => /\/services\/prometheus:9090\/proxy\/api\/v1\/query/.test(decodeURIComponent(r.path))),
    'through the services proxy',
  );
});

async function fakePrometheus(
  answer: (query: string, req: http.IncomingMessage) => { status: number; body: string },
): Promise<{ url: string; seen: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://x');
    const a =
      url.pathname === '/prom/api/v1/query'
        ? answer(url.searchParams.get('query') ?? '', req)
        : { status: 404, body: '' };
    res.writeHead(a.status, { 'content-type': 'application/json' });
    res.end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/prom`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** A transport that must not be used: a plain-URL Prometheus gets nothing of the cluster's. */
const NO_CLUSTER: KubeTransport = {
  label: 'unused',
  open: () => Promise.reject(new Error('the cluster transport was used')),
};

const vector = (result: unknown[]) => JSON.stringify({ status: 'success', data: { resultType: 'vector', result } });

test('a plain URL: its own connection; an error envelope, a bad answer or a closed port is one notice', async (t) => {
  let mode: 'ok' | 'error' | 'html' = 'ok';
  const prom = await fakePrometheus((query) => {
    if (mode === 'error')
      return { status: 400, body: JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'parse error' }) };
    if (mode === 'html') return { status: 200, body: '<html>login</html>' };
    const labels = { UUID: 'GPU-a', gpu: '0', Hostname: 'n1', pod: 'p', namespace: 'ns', container: 'c' };
    return {
      status: 200,
      body: query.startsWith('max_over_time')
        ? vector([{ metric: labels, value: [1, '2'] }])
        : vector([{ metric: { __name__: 'DCGM_FI_DEV_GPU_UTIL', ...labels }, value: [1, '1'] }]),
    };
  });
  t.after(() => prom.close());
  const scraper = new DcgmScraper(
    NO_CLUSTER,
    () => [],
    () => {},
    { prometheus: parsePrometheusTarget(prom.url) },
  );
  const ok = await scraper.scrapeOnce();
  assert.equal(ok.notice, null);
  assert.equal(ok.readings.length, 1);
  assert.equal(ok.readings[0].lowSince !== null && ok.scrapedAt! - ok.readings[0].lowSince >= 60_000, true, 'idle');
  assert.ok(prom.seen.every((h) => h.authorization === undefined));

  mode = 'error';
  const bad = await scraper.scrapeOnce();
  assert.deepEqual(bad.readings, [], 'a failed round: unknown, not stale numbers');
  assert.deepEqual(bad.notice, {
    kind: 'failed',
    text: `GPU metrics: Prometheus ${prom.url}: answered 400: bad_data: parse error`,
  });
  mode = 'html';
  assert.match(
    (await scraper.scrapeOnce()).notice?.text ?? '',
    /^GPU metrics: Prometheus http:\/\/127\.0\.0\.1:\d+\/prom: bad answer: not JSON .*"<html>login/,
  );

  const closed = new DcgmScraper(
    NO_CLUSTER,
    () => [],
    () => {},
    {
      prometheus: parsePrometheusTarget('http://127.0.0.1:9'),
    },
  );
  const refused = await closed.scrapeOnce();
  assert.deepEqual(refused.notice, {
    kind: 'failed',
    text: 'GPU metrics: Prometheus http://127.0.0.1:9: connection refused',
  });
  assert.deepEqual(refused.readings, []);
});
