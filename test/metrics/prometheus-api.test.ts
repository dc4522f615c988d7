// Prometheus' query API as `--prometheus` reads it: strict parsing of the
// answer envelope (errors, other result types, NaN and ±Inf strings, malformed
// samples), the join of the DCGM series into readings (the exporter's pod
// mapping under exported_* wins, Hostname resolved to a node), idle known at
// once from max_over_time, and unknown when the window is not covered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  idleQuery,
  parseInstantVector,
  PrometheusAnswerError,
  readingsFromPrometheus,
  seriesQuery,
  type VectorSample,
} from '../../src/metrics/prometheus-api.js';
import { DEFAULT_IDLE_RULE, isIdle, isIdleUnknown } from '../../src/model/utilisation.js';
import { parsePrometheusTarget, prometheusQueryPath } from '../../src/kube/dcgm-scrape.js';

const AT = 1_700_000_000_000;
const envelope = (result: unknown, resultType = 'vector') =>
  JSON.stringify({ status: 'success', data: { resultType, result } });

test('an instant vector: labels, values as strings (NaN, +Inf, -Inf kept), the evaluation time', () => {
  const body = envelope([
    { metric: { __name__: 'DCGM_FI_DEV_GPU_UTIL', UUID: 'GPU-a' }, value: [1700000000.5, '87'] },
    { metric: { UUID: 'GPU-b' }, value: [1700000000.5, 'NaN'] },
    { metric: { UUID: 'GPU-c' }, value: [1700000000.5, '+Inf'] },
    { metric: { UUID: 'GPU-d' }, value: [1700000000.5, '-Inf'] },
    { metric: { UUID: 'GPU-e' }, value: [1700000000.5, '1.5e3'] },
  ]);
  const v = parseInstantVector(body);
  assert.deepEqual(v[0], {
    labels: { __name__: 'DCGM_FI_DEV_GPU_UTIL', UUID: 'GPU-a' },
    value: 87,
    atMs: 1_700_000_000_500,
  });
  assert.ok(Number.isNaN(v[1].value));
  assert.equal(v[2].value, Infinity);
  assert.equal(v[3].value, -Infinity);
  assert.equal(v[4].value, 1500);
  assert.deepEqual(parseInstantVector(envelope([])), []);
});

test('a bad answer is an error saying what is wrong', () => {
  const fails = (body: string, message: RegExp) =>
    assert.throws(
      () => parseInstantVector(body),
      (err: unknown) => err instanceof PrometheusAnswerError && message.test(err.message),
      body,
    );
  fails(
    JSON.stringify({ status: 'error', errorType: 'bad_data', error: '1:1: parse error: unexpected "}"' }),
    /^bad_data: 1:1: parse error/,
  );
  fails('<html>502 Bad Gateway</html>', /^not JSON .*starts "<html>502/);
  fails(envelope([], 'matrix'), /resultType is "matrix", not "vector"/);
  fails(JSON.stringify({ status: 'success' }), /no data object/);
  fails(JSON.stringify({ status: 'pending', data: {} }), /status is "pending"/);
  fails(JSON.stringify([1]), /not a JSON object/);
  fails(envelope([{ metric: { a: 1 }, value: [1, '1'] }]), /result\[0\]\.metric\.a is not a string/);
  fails(envelope([{ metric: {}, value: [1, 2] }]), /result\[0\]\.value is not a string/);
  fails(envelope([{ metric: {}, value: ['1', '2'] }]), /value time is not a number/);
  fails(envelope([{ metric: {}, value: [1] }]), /not a \[time, "value"\] pair/);
  fails(envelope([{ metric: {}, histogram: [1, {}] }]), /result\[0\]\.value is not/);
  fails(envelope([{ metric: {}, value: [1, '12%'] }]), /"12%" is not a number/);
  fails(envelope({}), /data\.result is not an array/);
});

const GPU = { UUID: 'GPU-a', gpu: '0', Hostname: 'gpu-node-01', modelName: 'NVIDIA H100 80GB HBM3' };
// As kube-prometheus-stack stores it: the exporter's own pod labels, the GPU's pod under exported_*.
const SCRAPE = {
  pod: 'nvidia-dcgm-exporter-x',
  namespace: 'gpu-operator',
  container: 'exporter',
  instance: '10.0.0.1:9400',
};
const MAPPED = { exported_pod: 'trainer-0', exported_namespace: 'training', exported_container: 'pytorch' };
const series = (name: string, value: number, labels: Record<string, string> = {}): VectorSample => ({
  labels: { __name__: name, ...GPU, ...SCRAPE, ...MAPPED, ...labels },
  value,
  atMs: AT,
});
const max = (value: number, labels: Record<string, string> = {}): VectorSample => ({
  labels: { ...GPU, ...SCRAPE, ...MAPPED, ...labels },
  value,
  atMs: AT,
});
const all = (util: number, labels: Record<string, string> = {}) => [
  series('DCGM_FI_DEV_GPU_UTIL', util, labels),
  series('DCGM_FI_DEV_FB_USED', 1000, labels),
  series('DCGM_FI_DEV_FB_FREE', 80000, labels),
  series('DCGM_FI_DEV_FB_RESERVED', 559, labels),
  series('DCGM_FI_DEV_POWER_USAGE', 612.5, labels),
  series('DCGM_FI_DEV_XID_ERRORS', 0, labels),
  series('up', 1, labels),
];

test('the series joined into one reading per GPU; the exported_* pod mapping wins over the exporter pod', () => {
  const [r, ...rest] = readingsFromPrometheus(all(87), [max(90)], AT, DEFAULT_IDLE_RULE);
  assert.equal(rest.length, 0);
  assert.equal(r.key, 'gpu-node-01/GPU-a');
  assert.equal(r.node, 'gpu-node-01');
  assert.equal(r.utilisation, 87);
  assert.equal(r.memoryUsedBytes, 1000 * 2 ** 20);
  assert.equal(r.memoryTotalBytes, (1000 + 80000 + 559) * 2 ** 20);
  assert.equal(r.powerWatts, 612.5);
  assert.equal(r.xid, 0);
  assert.deepEqual(r.pods, [{ namespace: 'training', name: 'trainer-0', container: 'pytorch' }]);
  // honor_labels: the exporter writes pod/namespace itself.
  const honoured = readingsFromPrometheus(
    all(87)
      .map((s) => ({ ...s, labels: { ...s.labels, ...MAPPED_PLAIN } }))
      .map(dropExported),
    [],
    AT,
    DEFAULT_IDLE_RULE,
  );
  assert.deepEqual(honoured[0].pods, [{ namespace: 'training', name: 'trainer-0', container: 'pytorch' }]);
  // Hostname is the exporter pod's name when NODE_NAME is unset: its node stands in.
  const resolved = readingsFromPrometheus(
    all(87, { Hostname: 'nvidia-dcgm-exporter-x' }),
    [],
    AT,
    DEFAULT_IDLE_RULE,
    (h) => (h === 'nvidia-dcgm-exporter-x' ? 'gpu-node-07' : null),
  );
  assert.equal(resolved[0].node, 'gpu-node-07');
});

const MAPPED_PLAIN = { pod: 'trainer-0', namespace: 'training', container: 'pytorch' };
function dropExported(s: VectorSample): VectorSample {
  const labels = { ...s.labels };
  for (const k of Object.keys(labels)) if (k.startsWith('exported_')) delete labels[k];
  return { ...s, labels };
}

test('idle at once: the maximum over the window under 5 %; busy in it, or low now after a busy spell: not idle', () => {
  const rule = DEFAULT_IDLE_RULE;
  const [idle] = readingsFromPrometheus(all(1), [max(3)], AT, rule);
  assert.equal(isIdle(idle, AT, rule), true);
  assert.equal(AT - idle.lowSince!, rule.windowMs, 'idle for the window, at least');
  const [busy] = readingsFromPrometheus(all(90), [max(95)], AT, rule);
  assert.equal(isIdle(busy, AT, rule), false);
  assert.equal(isIdleUnknown(busy, AT, rule), false);
  const [settling] = readingsFromPrometheus(all(1), [max(60)], AT, rule);
  assert.equal(isIdle(settling, AT, rule), false);
  assert.equal(isIdleUnknown(settling, AT, rule), false, 'it was busy within the window');
});

test('idle unknown: no series a window ago, a NaN maximum, or one from before the pod held the GPU', () => {
  const rule = DEFAULT_IDLE_RULE;
  const [young] = readingsFromPrometheus(all(1), [], AT, rule);
  assert.equal(isIdleUnknown(young, AT, rule), true);
  const [nan] = readingsFromPrometheus(all(1), [max(NaN)], AT, rule);
  assert.equal(isIdleUnknown(nan, AT, rule), true);
  // The GPU was free (no pod labels) a window ago: its max says nothing of trainer-0.
  const free = max(0, { exported_pod: '', exported_namespace: '', exported_container: '' });
  const [handedOver] = readingsFromPrometheus(all(1), [free], AT, rule);
  assert.equal(isIdle(handedOver, AT, rule), false);
  assert.equal(isIdleUnknown(handedOver, AT, rule), true);
  const [busyYoung] = readingsFromPrometheus(all(80), [], AT, rule);
  assert.equal(isIdleUnknown(busyYoung, AT, rule), false, 'busy now: known not idle');
});

test('the queries, and where they are sent: a plain URL (prefix kept) or the service proxy', () => {
  assert.match(seriesQuery(), /^\{__name__=~"DCGM_FI_DEV_GPU_UTIL\|[A-Z_|]+"\}$/);
  assert.equal(idleQuery(60_000), 'max_over_time(DCGM_FI_DEV_GPU_UTIL[60s]) and DCGM_FI_DEV_GPU_UTIL offset 60s');
  assert.equal(idleQuery(90_500), 'max_over_time(DCGM_FI_DEV_GPU_UTIL[91s]) and DCGM_FI_DEV_GPU_UTIL offset 91s');
  const svc = parsePrometheusTarget('svc/monitoring/prometheus:9090');
  assert.deepEqual(svc, {
    kind: 'service',
    namespace: 'monitoring',
    name: 'prometheus',
    port: '9090',
    display: 'svc/monitoring/prometheus:9090',
  });
  assert.equal(
    prometheusQueryPath(svc, 'up'),
    '/api/v1/namespaces/monitoring/services/prometheus%3A9090/proxy/api/v1/query?query=up',
  );
  assert.equal(parsePrometheusTarget('svc/monitoring/kps-prometheus:http-web').kind, 'service');
  const url = parsePrometheusTarget('https://user:pw@prom.example.com:9443/prometheus');
  assert.equal(url.display, 'https://prom.example.com:9443/prometheus', 'no credentials shown');
  assert.equal(
    prometheusQueryPath(url, 'max_over_time(x[60s])'),
    'https://user:pw@prom.example.com:9443/prometheus/api/v1/query?query=max_over_time(x%5B60s%5D)',
  );
  for (const [bad, message] of [
    ['svc/monitoring/prometheus', /svc\/NAMESPACE\/NAME:PORT/],
    ['svc/Monitoring/prometheus:9090', /namespace "Monitoring" is not a DNS label/],
    ['svc/monitoring/prometheus:99999', /port "99999"/],
    ['ftp://prom:21', /ftp: is not http: or https:/],
    ['prometheus:9090', /is not http: or https:|an http\(s\) URL/],
    ['http://prom:9090/?x=1', /without a query/],
    ['not a url', /an http\(s\) URL or svc/],
  ] as const)
    assert.throws(() => parsePrometheusTarget(bad), message, bad);
});
