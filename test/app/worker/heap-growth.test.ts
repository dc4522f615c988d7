import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEAP_GROWING_PERCENT, heapBound, heapGrowthFlag } from '../../../src/app/worker/heap-growth.js';
import { FirstLists } from '../../../src/app/worker/first-lists.js';
import type { ClusterConnection } from '../../../src/model/types.js';

test('heap growth after the sync: twice the live set by default, WLX_HEAP_GROWING_PERCENT to change it, 0 to leave V8 alone', () => {
  assert.equal(HEAP_GROWING_PERCENT, 100);
  assert.equal(heapGrowthFlag({}), '--heap-growing-percent=100');
  assert.equal(heapGrowthFlag({ WLX_HEAP_GROWING_PERCENT: '' }), '--heap-growing-percent=100');
  assert.equal(heapGrowthFlag({ WLX_HEAP_GROWING_PERCENT: '50' }), '--heap-growing-percent=50');
  assert.equal(heapGrowthFlag({ WLX_HEAP_GROWING_PERCENT: '0' }), null);
  for (const bad of ['abc', '-5', '1.5', '5000'])
    assert.throws(
      () => heapGrowthFlag({ WLX_HEAP_GROWING_PERCENT: bad }),
      new RegExp(`WLX_HEAP_GROWING_PERCENT: expected a whole number from 0 to 1000, got "${bad.replace('.', '\\.')}"`),
    );
});

test('in a worker serving several engines, the bound is set once none is listing, and lifted while one lists again', () => {
  const set: string[] = [];
  const gate = new FirstLists({ listingChanged: heapBound('--heap-growing-percent=100', (f) => set.push(f)) });
  const a = gate.join(10_000);
  const b = gate.join(10_000);
  a.done();
  assert.deepEqual(set, [], 'b is still listing: V8 keeps its own factor');
  a.done();
  assert.deepEqual(set, [], 'a second call of the same engine counts once');
  b.done();
  assert.deepEqual(set, ['--heap-growing-percent=100']);
  const c = gate.join(10_000);
  assert.deepEqual(
    set,
    ['--heap-growing-percent=100', '--heap-growing-percent=0'],
    'a restarted engine lists unbounded',
  );
  c.done();
  assert.deepEqual(set.at(-1), '--heap-growing-percent=100');

  const off: string[] = [];
  const none = new FirstLists({ listingChanged: heapBound(null, (f) => off.push(f)) });
  none.join(10_000).done();
  assert.deepEqual(off, [], 'WLX_HEAP_GROWING_PERCENT=0: V8 is left alone');
});

test('the heap bound does not wait for an engine that has not answered within the connect timeout, and lifts when it answers', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const set: string[] = [];
  const gate = new FirstLists({ listingChanged: heapBound('--heap-growing-percent=100', (f) => set.push(f)) });
  const live = gate.join(10_000);
  const silent = gate.join(10_000);
  const syncing: ClusterConnection = { state: 'syncing', since: '', synced: 1, total: 12, failing: [], forbidden: [] };
  live.connection(syncing);
  live.done();
  assert.deepEqual(set, [], 'the silent one may still answer');
  t.mock.timers.tick(10_000);
  assert.deepEqual(set, ['--heap-growing-percent=100'], 'no answer in time: bounded');
  silent.connection(syncing);
  assert.equal(set.at(-1), '--heap-growing-percent=0', 'it answers and lists: unbounded while it lists');
  silent.done();
  assert.equal(set.at(-1), '--heap-growing-percent=100');
});
