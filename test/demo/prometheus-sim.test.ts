// The demo's simulated Prometheus behind the services proxy, over HTTP: wlx's
// two query shapes answered from the simulated exporters' samples (labelled as
// kube-prometheus-stack stores them), any other query Prometheus' bad_data
// error, and the proxy's own answers (no such Service, no such port, a
// malformed name, a write).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoCluster } from '../../demo/index.js';

interface VectorAnswer {
  status: string;
  data: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
}

test('monitoring/prometheus:9090: the DCGM selector and the idle query; other queries bad_data; proxy errors', async (t) => {
  const cluster = await startDemoCluster({ speed: 4, seed: 3 });
  t.after(() => cluster.stop());
  const get = async (path: string, method = 'GET') => {
    const res = await fetch(cluster.server + path, { method });
    return { status: res.status, text: await res.text() };
  };
  const query = (q: string, svc = 'prometheus:9090') =>
    get(`/api/v1/namespaces/monitoring/services/${svc}/proxy/api/v1/query?query=${encodeURIComponent(q)}`);

  const series = await query('{__name__=~"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED"}');
  assert.equal(series.status, 200, series.text);
  const doc = JSON.parse(series.text) as VectorAnswer;
  assert.equal(doc.status, 'success');
  assert.equal(doc.data.resultType, 'vector');
  const names = new Set(doc.data.result.map((r) => r.metric['__name__']));
  assert.deepEqual([...names].sort(), ['DCGM_FI_DEV_FB_USED', 'DCGM_FI_DEV_GPU_UTIL']);
  const serving = doc.data.result.filter(
    (r) => r.metric['__name__'] === 'DCGM_FI_DEV_GPU_UTIL' && r.metric['exported_namespace'] === 'inference',
  );
  assert.ok(serving.length >= 32, `${serving.length} inference GPUs`);
  for (const r of serving) {
    assert.equal(r.metric['namespace'], 'gpu-operator', "`namespace` is the exporter's own");
    assert.match(r.metric['Hostname'], /^gpu-/);
    assert.ok(Number(r.value[1]) >= 25, r.value[1]);
  }

  const idle = await query('max_over_time(DCGM_FI_DEV_GPU_UTIL[1s]) and DCGM_FI_DEV_GPU_UTIL offset 1s');
  assert.equal(idle.status, 200, idle.text);
  const max = JSON.parse(idle.text) as VectorAnswer;
  assert.ok(max.data.result.length > 0);
  assert.ok(
    max.data.result.every((r) => r.metric['__name__'] === undefined),
    'max_over_time drops the name',
  );

  for (const q of ['up', 'max_over_time(DCGM_FI_DEV_GPU_UTIL[60s]) and DCGM_FI_DEV_GPU_UTIL offset 30s', '']) {
    const bad = await query(q);
    assert.equal(bad.status, 400, q);
    const err = JSON.parse(bad.text) as { status: string; errorType: string; error: string };
    assert.equal(err.status, 'error');
    assert.equal(err.errorType, 'bad_data');
  }
  assert.equal((await query('up', 'nope:9090')).status, 404, 'no such Service');
  const noPort = await query('up', 'prometheus:9091');
  assert.equal(noPort.status, 503);
  assert.match(noPort.text, /no endpoints available for service \\"prometheus\\"/);
  assert.equal((await query('up', 'prometheus:http-web')).status, 400, 'the port by name reaches it');
  assert.equal((await query('up', 'a:b:c:d')).status, 400, 'a malformed name');
  assert.equal(
    (await get('/api/v1/namespaces/monitoring/services/prometheus:9090/proxy/api/v1/query', 'POST')).status,
    405,
    'read-only',
  );
  assert.equal((await get('/api/v1/namespaces/monitoring/services/prometheus:9090/proxy/graph')).status, 404);
});
