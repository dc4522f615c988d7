import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExposition } from '../../src/metrics/prometheus.js';
import { DCGM_SERIES, GpuHistory, readingsFromSamples, type FreshReading } from '../../src/metrics/dcgm.js';
import { DCGM_TEXT, UUID0, UUID1, UUID2 } from './fixtures.js';

const MIB = 1024 * 1024;

test('one reading per GPU, joined to its pod; a free GPU has none; MIG instances apart', () => {
  const samples = parseExposition(DCGM_TEXT, { names: DCGM_SERIES }).samples;
  const readings = readingsFromSamples(samples, 1000, 'gpu-node-01');
  const byKey = new Map(readings.map((r) => [r.key, r]));
  assert.deepEqual(
    [...byKey.keys()],
    [`gpu-node-01/${UUID0}`, `gpu-node-01/${UUID1}`, `gpu-node-01/${UUID2}/9`, `gpu-node-01/${UUID2}/10`],
  );
  const busy = byKey.get(`gpu-node-01/${UUID0}`)!;
  assert.equal(busy.utilisation, 87);
  assert.equal(busy.memoryUsedBytes, 69000 * MIB);
  assert.equal(busy.memoryTotalBytes, (69000 + 12000 + 559) * MIB, 'used + free + reserved');
  assert.equal(busy.powerWatts, 612.337);
  assert.equal(busy.xid, 0);
  assert.equal(busy.model, 'NVIDIA H100 80GB HBM3');
  assert.equal(busy.index, '0');
  assert.deepEqual(busy.pods, [
    { namespace: 'training', name: 'llama-pretrain-worker-0-0-x7k2p', container: 'trainer' },
  ]);
  const free = byKey.get(`gpu-node-01/${UUID1}`)!;
  assert.deepEqual(free.pods, []);
  assert.equal(free.utilisation, 0);
  assert.equal(free.xid, 79);
  const mig = byKey.get(`gpu-node-01/${UUID2}/9`)!;
  assert.equal(mig.migProfile, '1g.10gb');
  assert.equal(mig.migInstance, '9');
  assert.ok(Math.abs(mig.utilisation! - 41.2) < 1e-9, 'engine-active ratio as %');
  assert.equal(mig.memoryTotalBytes, (4100 + 5652) * MIB);
  assert.equal(mig.powerWatts, null, 'not reported: unknown, not 0');
  assert.equal(byKey.get(`gpu-node-01/${UUID2}/10`)!.utilisation, 0);
});

test('the node is the exporter pod’s when given, else the Hostname label; no UUID falls back to the gpu index', () => {
  const s = parseExposition(
    'DCGM_FI_DEV_GPU_UTIL{gpu="3",Hostname="nvidia-dcgm-exporter-x2b4k"} 12\nDCGM_FI_DEV_GPU_UTIL{Hostname="h"} 5\n',
  ).samples;
  assert.deepEqual(
    readingsFromSamples(s, 0).map((r) => [r.key, r.node]),
    [['nvidia-dcgm-exporter-x2b4k/gpu3', 'nvidia-dcgm-exporter-x2b4k']],
    'a sample naming no GPU is not a reading',
  );
  assert.equal(readingsFromSamples(s, 0, 'gpu-node-07')[0].key, 'gpu-node-07/gpu3');
});

test('a time-sliced GPU lists every pod it serves once; values are clamped; NaN is unknown', () => {
  const s = parseExposition(
    [
      'DCGM_FI_DEV_GPU_UTIL{UUID="G",pod="a",namespace="n",container="c"} 140',
      'DCGM_FI_DEV_GPU_UTIL{UUID="G",pod="b",namespace="n",container="c"} 140',
      'DCGM_FI_DEV_FB_USED{UUID="G",pod="a",namespace="n",container="c"} NaN',
    ].join('\n'),
  ).samples;
  const [r] = readingsFromSamples(s, 0, 'n1');
  assert.deepEqual(
    r.pods.map((p) => p.name),
    ['a', 'b'],
  );
  assert.equal(r.utilisation, 100);
  assert.equal(r.memoryUsedBytes, null);
  assert.equal(r.memoryTotalBytes, null);
});

function fresh(key: string, utilisation: number | null): FreshReading {
  return {
    key,
    node: 'n1',
    uuid: key,
    index: '0',
    model: null,
    migProfile: null,
    migInstance: null,
    utilisation,
    memoryUsedBytes: null,
    memoryTotalBytes: null,
    powerWatts: null,
    xid: null,
    pods: [],
    at: 0,
  };
}

test('history: low since the first of an unbroken run of low scrapes; a busy or unknown scrape resets it', () => {
  const h = new GpuHistory({ thresholdPercent: 5 });
  assert.equal(h.record('e1', [fresh('g', 3)], 0)[0].lowSince, 0);
  assert.equal(h.record('e1', [fresh('g', 1)], 10_000)[0].lowSince, 0);
  assert.equal(h.record('e1', [fresh('g', 50)], 20_000)[0].lowSince, null);
  assert.equal(h.record('e1', [fresh('g', 4.9)], 30_000)[0].lowSince, 30_000);
  assert.equal(h.record('e1', [fresh('g', null)], 40_000)[0].lowSince, null);
  assert.equal(h.record('e1', [fresh('g', 0)], 50_000)[0].lowSince, 50_000);
  assert.equal(h.meanSince('g', 20_000), (50 + 4.9 + 0) / 3);
});

test('history: current readings per exporter; a failed exporter reads unknown; bounded points; old GPUs forgotten', () => {
  const h = new GpuHistory({ maxPoints: 4, forgetAfterMs: 60_000 });
  h.record('e1', [fresh('a', 10)], 0);
  h.record('e2', [fresh('b', 20)], 0);
  assert.deepEqual(
    h
      .current()
      .map((r) => r.key)
      .sort(),
    ['a', 'b'],
  );
  h.drop('e2');
  assert.deepEqual(
    h.current().map((r) => r.key),
    ['a'],
  );
  for (let t = 1; t <= 10; t++) h.record('e1', [fresh('a', t)], t * 1000);
  assert.deepEqual(
    h.points('a').map((p) => p.utilisation),
    [7, 8, 9, 10],
  );
  assert.equal(h.size, 2, 'b is still remembered');
  h.record('e1', [fresh('a', 1)], 200_000);
  assert.equal(h.size, 1, 'b forgotten after a minute unseen');
  assert.equal(h.points('b').length, 0);
});
