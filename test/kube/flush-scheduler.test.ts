import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATCH_UP_EVENTS, CATCH_UP_INTERVAL_MS, FlushScheduler } from '../../src/kube/flush-scheduler.js';

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
