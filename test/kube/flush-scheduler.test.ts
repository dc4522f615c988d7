import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CATCH_UP_EVENTS,
  CATCH_UP_INTERVAL_MS,
  FlushScheduler,
  SYNC_INTERVAL_MS,
} from '../../src/kube/flush-scheduler.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('flush scheduler: live events are flushed within the interval; a replayed backlog at most every CATCH_UP_INTERVAL_MS', async (t) => {
  const flushes: number[] = [];
  const scheduler = new FlushScheduler(20, () => flushes.push(Date.now()));
  t.after(() => scheduler.stop());
  scheduler.syncDone();
  flushes.length = 0;
  await sleep(30);
  scheduler.markDirty();
  await sleep(60);
  assert.equal(flushes.length, 1, 'a live event is flushed after the interval');

  const started = Date.now();
  for (let i = 0; i <= CATCH_UP_EVENTS; i++) scheduler.markDirty();
  await sleep(CATCH_UP_INTERVAL_MS / 2);
  assert.equal(flushes.length, 1, 'a backlog is not flushed every interval');
  await sleep(CATCH_UP_INTERVAL_MS);
  assert.equal(flushes.length, 2, 'but within CATCH_UP_INTERVAL_MS of the last flush');
  assert.ok(flushes[1] - started < CATCH_UP_INTERVAL_MS + 100);
  scheduler.markDirty();
  await sleep(60);
  assert.equal(flushes.length, 3, 'after the backlog, events are flushed at the interval again');
});

test('flush scheduler: while list pages arrive, watch events flush at most every SYNC_INTERVAL_MS; after the sync, every interval', async (t) => {
  const flushes: number[] = [];
  const scheduler = new FlushScheduler(20, () => flushes.push(Date.now()));
  t.after(() => scheduler.stop());
  // Workload status events under churn while the pods' pages keep coming.
  const started = Date.now();
  const ticker = setInterval(() => {
    scheduler.listed();
    scheduler.markDirty();
  }, 5);
  t.after(() => clearInterval(ticker));
  await sleep(SYNC_INTERVAL_MS * 2.5);
  clearInterval(ticker);
  assert.ok(flushes.length >= 2, `flushed during the sync (${flushes.length})`);
  assert.ok(flushes.length <= 3, `at most one flush per SYNC_INTERVAL_MS while pages arrive (${flushes.length})`);
  for (let i = 1; i < flushes.length; i++) assert.ok(flushes[i] - flushes[i - 1] >= SYNC_INTERVAL_MS - 5);
  assert.ok(flushes[0] - started < SYNC_INTERVAL_MS + 100);

  // Lists stalled (nothing listed since the last flush): events flush at the interval.
  await sleep(SYNC_INTERVAL_MS);
  const before = flushes.length;
  scheduler.markDirty();
  await sleep(60);
  assert.equal(flushes.length, before + 1, 'an event with no list in progress is flushed at the interval');

  scheduler.syncDone();
  const synced = flushes.length;
  await sleep(30);
  scheduler.listed();
  scheduler.markDirty();
  await sleep(60);
  assert.equal(flushes.length, synced + 1, 'after the sync, events are flushed at the interval');
});
