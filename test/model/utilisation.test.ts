import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_IDLE_RULE,
  clusterUtilisation,
  groupUtilisation,
  idleSentence,
  indexReadings,
  isIdle,
  isIdleUnknown,
  rollupGpus,
  roughDuration,
  stragglers,
} from '../../src/model/utilisation.js';
import { GiB, gpuReading } from './gpu-fixtures.js';

const gpu = gpuReading;

const NOW = 1_000_000;

test('idle: allocated and under the threshold for the whole window; a free GPU is never idle', () => {
  assert.equal(isIdle(gpu('n/a', 1, ['t/p'], NOW - 60_000), NOW), true);
  assert.equal(isIdle(gpu('n/a', 1, ['t/p'], NOW - 59_000), NOW), false, 'not for the whole window yet');
  assert.equal(isIdle(gpu('n/a', 1, [], NOW - 600_000), NOW), false, 'not allocated');
  assert.equal(isIdle(gpu('n/a', 50, ['t/p'], null), NOW), false);
  assert.equal(isIdle(gpu('n/a', 1, ['t/p'], NOW - 20_000), NOW, { ...DEFAULT_IDLE_RULE, windowMs: 10_000 }), true);
});

test('idle unknown: low since first seen for less than the window, or no utilisation; busy or free is known', () => {
  const first = NOW - 20_000;
  assert.equal(isIdleUnknown(gpu('n/a', 1, ['t/p'], first, first), NOW), true, 'low in every scrape since first seen');
  assert.equal(
    isIdleUnknown(gpu('n/a', 1, ['t/p'], NOW - 20_000, NOW - 90_000), NOW),
    false,
    'busy before it went low',
  );
  assert.equal(isIdleUnknown(gpu('n/a', 1, ['t/p'], NOW - 60_000, NOW - 60_000), NOW), false, 'the window is covered');
  assert.equal(isIdle(gpu('n/a', 1, ['t/p'], NOW - 60_000, NOW - 60_000), NOW), true);
  assert.equal(isIdleUnknown(gpu('n/a', 1, ['t/p'], NOW, null), NOW), true, 'low, coverage not known');
  assert.equal(isIdleUnknown(gpu('n/a', 80, ['t/p'], null, NOW), NOW), false, 'busy now');
  assert.equal(isIdleUnknown(gpu('n/a', null, ['t/p']), NOW), true, 'no utilisation');
  assert.equal(isIdleUnknown(gpu('n/a', 0, [], NOW, NOW), NOW), false, 'a free GPU is never idle');
  const index = indexReadings([gpu('n/a', 1, ['t/a'], NOW, NOW), gpu('n/b', 1, ['t/b'], NOW - 90_000)]);
  assert.equal(rollupGpus(index.byNode.get('n') ?? [], NOW).idleUnknown, 1);
  assert.equal(groupUtilisation(['t/a', 't/b'], index, NOW).idle, null, 'one unknown GPU: the count is unknown');
  assert.equal(groupUtilisation(['t/b'], index, NOW).idle, 1);
  assert.equal(idleSentence('t/w', null, null), null);
});

test('a pod: mean over its GPUs, memory summed; unknown is null, never 0', () => {
  const r = rollupGpus([gpu('n/a', 80, ['t/p']), gpu('n/b', 40, ['t/p']), gpu('n/c', null, ['t/p'])], NOW);
  assert.equal(r.gpus, 3);
  assert.equal(r.utilisation, 60);
  assert.equal(r.memoryUsedBytes, 80 * GiB);
  assert.equal(r.memoryTotalBytes, 160 * GiB);
  const none = rollupGpus([], NOW);
  assert.equal(none.utilisation, null);
  assert.equal(none.memoryUsedBytes, null);
  assert.equal(none.idle, 0);
  assert.equal(rollupGpus([gpu('n/c', null, ['t/p'])], NOW).utilisation, null);
});

test('a shared (time-sliced) GPU counts once in a group and its mean', () => {
  const shared = gpu('n/s', 30, ['t/a', 't/b']);
  const index = indexReadings([shared, gpu('n/x', 90, ['t/a'])]);
  assert.equal(index.byPod.get('t/a')?.length, 2);
  assert.equal(index.byPod.get('t/b')?.length, 1);
  assert.equal(index.byNode.get('n')?.length, 2);
  const g = groupUtilisation(['t/a', 't/b'], index, NOW);
  assert.equal(g.utilisation, 60, '(30 + 90) / 2, not (30 + 30 + 90) / 3');
  assert.deepEqual(g.lowest, { pod: 't/b', utilisation: 30 });
});

test('role and workload rollups: mean, lowest pod, idle count and how long', () => {
  const index = indexReadings([
    gpu('n1/a', 2, ['training/broken-master'], NOW - 240_000),
    gpu('n1/b', 0, ['training/broken-worker-0'], NOW - 120_000),
    gpu('n1/c', 1, ['training/broken-worker-1'], NOW - 30_000),
  ]);
  const g = groupUtilisation(
    ['training/broken-master', 'training/broken-worker-0', 'training/broken-worker-1'],
    index,
    NOW,
  );
  assert.equal(g.utilisation, 1);
  assert.equal(g.idle, 2, 'worker-1 has been low for only 30 s');
  assert.equal(g.idleForMs, 240_000);
  assert.deepEqual(g.lowest, { pod: 'training/broken-worker-0', utilisation: 0 });
  assert.equal(
    idleSentence('training/broken-finetune', g.idle, g.idleForMs),
    '2 GPUs of training/broken-finetune allocated and idle for 4 min',
  );
  assert.equal(idleSentence('t/w', 1, null), '1 GPU of t/w allocated and idle');
  assert.equal(idleSentence('t/w', 0, null), null);
  const empty = groupUtilisation(['training/other'], index, NOW);
  assert.equal(empty.utilisation, null);
  assert.equal(empty.lowest, null);
});

test('stragglers: far below the median (under half and 20 points), with enough pods reporting', () => {
  const pods = (xs: (number | null)[]) => xs.map((u, i) => ({ pod: `t/p${i}`, utilisation: u }));
  assert.deepEqual(stragglers(pods([88, 91, 22])), [{ pod: 't/p2', utilisation: 22, median: 88 }]);
  assert.deepEqual(
    stragglers(pods([90, 20])).map((s) => s.pod),
    ['t/p1'],
    'two workers: median 55, 20 is under half of it',
  );
  assert.deepEqual(stragglers(pods([90, 60, 80])), [], '60 is lower, not far below');
  assert.deepEqual(stragglers(pods([12, 11, 4])), [], 'under half but only 7 points: noise');
  assert.deepEqual(stragglers(pods([20, null])), [], 'one pod reporting has no median');
  assert.deepEqual(stragglers(pods([0, 0, 0])), [], 'all idle: idle, not stragglers');
});

test('cluster mean over every reporting GPU; durations rounded to what scrapes can tell', () => {
  assert.equal(clusterUtilisation([gpu('n/a', 10, []), gpu('n/b', 30, ['t/p']), gpu('n/c', null, [])]), 20);
  assert.equal(clusterUtilisation([]), null);
  assert.equal(roughDuration(45_400), '45 s');
  assert.equal(roughDuration(4 * 60_000 + 59_000), '4 min');
  assert.equal(roughDuration(125 * 60_000), '2 h 5 min');
  assert.equal(roughDuration(120 * 60_000), '2 h');
});
