// The worker's first lists (src/app/worker/first-lists.ts): synced engines of a
// shared worker hold their flushes until the last engine has listed; a
// failing, silent or slow one holds them no longer than its bound; a lone
// engine is never held; a relist or an engine restarted later holds nobody.
// Timers are node:test's mock timers: nothing here waits on the clock.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { FirstLists, type EngineListing } from '../../../src/app/worker/first-lists.js';
import { FlushScheduler } from '../../../src/kube/flush-scheduler.js';
import type { ClusterConnection } from '../../../src/model/types.js';

const BOUND = 10_000;

function connection(state: ClusterConnection['state'], extra: Partial<ClusterConnection> = {}): ClusterConnection {
  return { state, since: '', synced: 0, total: 12, failing: [], forbidden: [], ...extra };
}

/** Every change of an engine's hold, as the engine sees it. */
function watch(e: EngineListing): boolean[] {
  const seen: boolean[] = [];
  e.hold.onChange(() => seen.push(e.hold.held));
  return seen;
}

function mockTimers(t: TestContext): void {
  t.mock.timers.enable({ apis: ['setTimeout', 'setImmediate', 'Date'] });
}

test('first lists: synced engines of one worker are held until the last has listed, then released together', (t) => {
  mockTimers(t);
  const lists = new FirstLists();
  const [a, b, c] = [lists.join(BOUND), lists.join(BOUND), lists.join(BOUND)];
  const seenA = watch(a);
  assert.equal(a.hold.held, true, 'held from the start: its early kinds watch while the others list');
  for (const e of [a, b, c]) e.connection(connection('syncing'));
  a.done();
  assert.equal(a.hold.held, true, 'a listed, b and c still list: a waits');
  b.done();
  assert.equal(a.hold.held, true);
  assert.equal(b.hold.held, true);
  assert.equal(c.hold.held, false, 'the last one listing is held by nobody: it lists and follows as a single cluster');
  t.mock.timers.tick(BOUND - 1);
  c.done();
  assert.deepEqual([a.hold.held, b.hold.held, c.hold.held], [false, false, false]);
  assert.deepEqual(seenA, [false], 'a was released once, and never flickered');
});

test('first lists: every engine sees how many of the worker are in their first list (their shared sync pace)', (t) => {
  mockTimers(t);
  const lists = new FirstLists();
  const [a, b, c] = [lists.join(BOUND), lists.join(BOUND), lists.join(BOUND)];
  for (const e of [a, b, c]) e.connection(connection('syncing'));
  assert.deepEqual(
    [a, b, c].map((e) => e.hold.listingEngines),
    [3, 3, 3],
  );
  a.done();
  assert.equal(c.hold.listingEngines, 2, 'a listed');
  t.mock.timers.tick(BOUND);
  assert.equal(c.hold.listingEngines, 2, 'answering engines count however long they list');
  b.done();
  assert.equal(c.hold.listingEngines, 1, 'the last one paces as a single cluster');
  const late = new FirstLists();
  const [silent, other] = [late.join(BOUND), late.join(BOUND)];
  other.connection(connection('syncing'));
  assert.equal(other.hold.listingEngines, 2);
  t.mock.timers.tick(BOUND);
  assert.equal(other.hold.listingEngines, 1, 'one that has not answered within the connect timeout counts no more');
  silent.done();
});

test('first lists: a held engine flushes its sync, then nothing while another lists, and once when the last has listed', (t) => {
  mockTimers(t);
  const lists = new FirstLists();
  const [a, b] = [lists.join(BOUND), lists.join(BOUND)];
  a.connection(connection('live', { synced: 12 }));
  b.connection(connection('syncing', { synced: 3 }));
  let flushes = 0;
  const scheduler = new FlushScheduler(80, () => flushes++, a.hold);
  scheduler.syncDone();
  a.done();
  assert.equal(flushes, 1, 'its listed tree is flushed at its sync');
  for (let i = 0; i < 50; i++) {
    scheduler.markDirty();
    t.mock.timers.tick(100);
  }
  assert.equal(flushes, 1, '5 s of events, applied but not flushed: b still lists');
  b.done();
  t.mock.timers.tick(100);
  assert.equal(flushes, 2, 'one flush when the hold ends');
  scheduler.markDirty();
  t.mock.timers.tick(100);
  assert.equal(flushes, 3, 'released: events flush at the interval again');
  scheduler.stop();
});

test('first lists: an engine that never answers, or fails as a whole, holds nobody past its bound', (t) => {
  mockTimers(t);
  const lists = new FirstLists();
  const [a, silent] = [lists.join(BOUND), lists.join(BOUND)];
  a.connection(connection('syncing'));
  silent.connection(connection('connecting'));
  a.done();
  assert.equal(a.hold.held, true, 'the other may still answer');
  t.mock.timers.tick(BOUND);
  assert.equal(a.hold.held, false, 'no answer within the connect timeout: it holds nobody');
  silent.connection(connection('syncing', { synced: 1 }));
  assert.equal(a.hold.held, false, 'answering later, it does not hold again');

  const lists2 = new FirstLists();
  const [b, refused, partial] = [lists2.join(BOUND), lists2.join(BOUND), lists2.join(BOUND)];
  for (const e of [b, refused, partial]) e.connection(connection('syncing'));
  b.done();
  partial.done();
  refused.connection(connection('retrying', { cause: { kind: 'unreachable', text: 'connection refused' } }));
  assert.equal(b.hold.held, false, 'a cluster failing as a whole no longer holds the others, at once');

  const lists3 = new FirstLists();
  const [c, flaky] = [lists3.join(BOUND), lists3.join(BOUND)];
  c.connection(connection('syncing'));
  flaky.connection(connection('retrying', { failing: ['jobsets'], synced: 5 }));
  c.done();
  assert.equal(c.hold.held, true, 'one kind of several failing: that cluster is still listing the rest');
});

test('first lists: a slow cluster, still listing, holds a synced one as long again as it took to list, at least a connect timeout', (t) => {
  mockTimers(t);
  const lists = new FirstLists();
  const [fast, slow] = [lists.join(BOUND), lists.join(BOUND)];
  fast.connection(connection('syncing'));
  slow.connection(connection('syncing'));
  t.mock.timers.tick(2_000);
  fast.done();
  assert.equal(fast.hold.held, true);
  t.mock.timers.tick(BOUND - 1);
  assert.equal(fast.hold.held, true);
  t.mock.timers.tick(1);
  assert.equal(fast.hold.held, false, 'listed in 2 s: waited the connect timeout after its own sync');
  slow.done();
  assert.equal(fast.hold.held, false);

  const lists2 = new FirstLists();
  const [big, slower] = [lists2.join(BOUND), lists2.join(BOUND)];
  big.connection(connection('syncing'));
  slower.connection(connection('syncing'));
  t.mock.timers.tick(30_000);
  big.done();
  t.mock.timers.tick(30_000 - 1);
  assert.equal(big.hold.held, true, 'listed in 30 s: waits up to 30 s more');
  t.mock.timers.tick(1);
  assert.equal(big.hold.held, false);
  slower.done();
});

test('first lists: a lone engine is never held, and one joining later holds neither it nor a released one', (t) => {
  mockTimers(t);
  const lists = new FirstLists();
  const lone = lists.join(BOUND);
  const seen = watch(lone);
  lone.connection(connection('syncing'));
  lone.done();
  assert.equal(lone.hold.held, false);
  // An engine restarted (a new worker would have new lists; in the same one, a late joiner).
  const late = lists.join(BOUND);
  late.connection(connection('syncing'));
  assert.equal(lone.hold.held, false, 'synced while none other listed: live for good');
  late.done();
  assert.deepEqual(seen, [], 'the lone engine never saw a hold');

  const fleet = new FirstLists();
  const [a, b] = [fleet.join(BOUND), fleet.join(BOUND)];
  a.connection(connection('syncing'));
  b.connection(connection('syncing'));
  a.done();
  b.done();
  assert.deepEqual([a.hold.held, b.hold.held], [false, false]);
  // A relist (410) is not a first list: it never joins. An engine restarted later does, and holds nobody.
  const restarted = fleet.join(BOUND);
  restarted.connection(connection('syncing'));
  assert.deepEqual([a.hold.held, b.hold.held], [false, false], 'released engines stay live');
  restarted.done();
});
