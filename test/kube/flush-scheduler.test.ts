// The engine's flush timing (src/kube/flush-scheduler.ts) on node:test's mock
// clock: setTimeout and Date.now advance only by tick(), so each bound is
// checked to the millisecond, not with margins over a real clock.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import {
  CATCH_UP_EVENTS,
  CATCH_UP_INTERVAL_MS,
  FlushScheduler,
  HELD_WATCH_MAX_MS,
  heldWatch,
  SYNC_INTERVAL_MS,
} from '../../src/kube/flush-scheduler.js';
import { manualHold } from './helpers.js';

const INTERVAL_MS = 20;

function scheduler(t: TestContext): { scheduler: FlushScheduler; flushes: number[]; tick: (ms: number) => void } {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  const flushes: number[] = [];
  const s = new FlushScheduler(INTERVAL_MS, () => flushes.push(Date.now()));
  t.after(() => s.stop());
  return { scheduler: s, flushes, tick: (ms) => t.mock.timers.tick(ms) };
}

test('flush scheduler: live events are flushed within the interval; a replayed backlog at most every CATCH_UP_INTERVAL_MS', (t) => {
  const { scheduler: s, flushes, tick } = scheduler(t);
  s.syncDone();
  flushes.length = 0;
  tick(30);
  const marked = Date.now();
  s.markDirty();
  tick(4);
  assert.equal(flushes.length, 0, 'a burst is given a few ms to gather');
  tick(1);
  assert.deepEqual(flushes, [marked + 5], 'an event long after the last flush: flushed 5 ms later');

  // Marked again at once: flushed an interval after the last flush.
  s.markDirty();
  tick(INTERVAL_MS - 1);
  assert.equal(flushes.length, 1, 'not before the interval');
  tick(1);
  assert.equal(flushes.length, 2, 'at the interval');

  const backlog = Date.now();
  for (let i = 0; i <= CATCH_UP_EVENTS; i++) s.markDirty();
  tick(CATCH_UP_INTERVAL_MS - 1);
  assert.equal(flushes.length, 2, 'a backlog is not flushed every interval');
  tick(1);
  assert.deepEqual(flushes.slice(2), [backlog + CATCH_UP_INTERVAL_MS], 'but CATCH_UP_INTERVAL_MS after the last flush');
  s.markDirty();
  tick(INTERVAL_MS);
  assert.equal(flushes.length, 4, 'after the backlog, events are flushed at the interval again');
});

test('flush scheduler: while list pages arrive, watch events flush at most every SYNC_INTERVAL_MS; after the sync, every interval', (t) => {
  const { scheduler: s, flushes, tick } = scheduler(t);
  // Workload status events under churn while the pods' pages keep coming: one page and one event every 5 ms.
  const started = Date.now();
  for (let at = 0; at < SYNC_INTERVAL_MS * 2.5; at += 5) {
    s.listed();
    s.markDirty();
    tick(5);
  }
  // The first flush waits for SYNC_INTERVAL_MS after the last one (none yet: at once), then one per SYNC_INTERVAL_MS.
  assert.ok(flushes.length >= 2, `flushed during the sync (${flushes.length})`);
  for (let i = 1; i < flushes.length; i++)
    assert.equal(flushes[i] - flushes[i - 1], SYNC_INTERVAL_MS, 'one flush per SYNC_INTERVAL_MS while pages arrive');
  assert.ok(flushes[0] - started <= 5, 'the first flush of the sync is not held back');

  // Lists stalled (nothing listed since the last flush): events flush at the interval.
  tick(SYNC_INTERVAL_MS);
  const before = flushes.length;
  s.markDirty();
  tick(INTERVAL_MS);
  assert.equal(flushes.length, before + 1, 'an event with no list in progress is flushed at the interval');

  s.syncDone();
  const synced = flushes.length;
  tick(30);
  s.listed();
  s.markDirty();
  tick(INTERVAL_MS);
  assert.equal(flushes.length, synced + 1, 'after the sync, events are flushed at the interval');
});

/** Whether the promise has settled once pending microtasks have run. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

test('heldWatch: a watch opens at once unless held; held, at the release, at HELD_WATCH_MAX_MS after its list began, or on abort', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  const signal = new AbortController().signal;
  assert.ok(await settled(heldWatch(undefined, Date.now(), signal)), 'no hold (a lone engine): at once');
  assert.ok(await settled(heldWatch(manualHold(false), Date.now(), signal)), 'released: at once');

  const hold = manualHold(true);
  const released = heldWatch(hold, Date.now() - 5_000, signal);
  t.mock.timers.tick(1_000);
  assert.equal(await settled(released), false, 'held: waits');
  hold.open();
  assert.ok(await settled(released), 'opens at the release');

  const listStartedAt = Date.now() - 30_000;
  const bounded = heldWatch(manualHold(true), listStartedAt, signal);
  t.mock.timers.tick(HELD_WATCH_MAX_MS - 30_000 - 1);
  assert.equal(await settled(bounded), false, 'held: waits until the bound');
  t.mock.timers.tick(1);
  assert.ok(await settled(bounded), 'opens HELD_WATCH_MAX_MS after its list began, still held');
  assert.ok(
    await settled(heldWatch(manualHold(true), Date.now() - HELD_WATCH_MAX_MS, signal)),
    'a list that began that long ago: at once',
  );

  const stop = new AbortController();
  const aborted = heldWatch(manualHold(true), Date.now(), stop.signal);
  stop.abort();
  assert.ok(await settled(aborted), 'the reflector stops: it ends the wait');
});

test('flush scheduler: an engine sharing its worker with others in their first list flushes its list progress at SYNC_INTERVAL_MS times their number', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  const hold = { held: true, listingEngines: 4, onChange: () => () => undefined };
  const flushes: number[] = [];
  const s = new FlushScheduler(INTERVAL_MS, () => flushes.push(Date.now()), hold);
  t.after(() => s.stop());
  const pageEvery = (ms: number, until: number) => {
    for (let at = 0; at < until; at += ms) {
      s.listed();
      s.markDirty();
      t.mock.timers.tick(ms);
    }
  };
  pageEvery(5, SYNC_INTERVAL_MS * 9);
  assert.ok(flushes.length >= 2, `flushed during the sync (${flushes.length})`);
  for (let i = 1; i < flushes.length; i++)
    assert.equal(flushes[i] - flushes[i - 1], SYNC_INTERVAL_MS * 4, 'four engines listing: one flush per 4 s each');
  // The others have listed: from its next flush on (the one already timed), once a second again.
  hold.listingEngines = 1;
  const before = flushes.length;
  pageEvery(5, SYNC_INTERVAL_MS * 8);
  const after = flushes.slice(before);
  assert.ok(after[0] - flushes[before - 1] <= SYNC_INTERVAL_MS * 4, 'the flush already timed');
  assert.ok(after.length >= 4, `flushed every second once alone (${after.length})`);
  for (let i = 1; i < after.length; i++) assert.equal(after[i] - after[i - 1], SYNC_INTERVAL_MS);
});
