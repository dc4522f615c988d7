import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PACE_WHILE_OTHERS_LIST_MS, SyncPace, syncPaceMs } from '../../../src/app/worker/sync-pace.js';

test('engines sharing a worker: a synced one is paced while another lists, unpaced once none does', () => {
  const pace = new SyncPace(PACE_WHILE_OTHERS_LIST_MS);
  const seen = { a: [] as number[], b: [] as number[], c: [] as number[] };
  const a = pace.list((ms) => seen.a.push(ms));
  const b = pace.list((ms) => seen.b.push(ms));
  a.synced();
  assert.deepEqual(seen.a, [PACE_WHILE_OTHERS_LIST_MS], 'b still lists: a flushes at the pace');
  b.synced();
  assert.deepEqual(seen.a, [PACE_WHILE_OTHERS_LIST_MS, 0], 'the last list done: a at its own interval again');
  assert.deepEqual(seen.b, [0]);
  const c = pace.list((ms) => seen.c.push(ms));
  assert.deepEqual(
    [seen.a.at(-1), seen.b.at(-1)],
    [PACE_WHILE_OTHERS_LIST_MS, PACE_WHILE_OTHERS_LIST_MS],
    'a restart lists',
  );
  c.stopped();
  assert.deepEqual([seen.a.at(-1), seen.b.at(-1)], [0, 0], 'stopped before its sync: nobody waits for it');
  assert.deepEqual(seen.c, [], 'a stopped engine is never paced');
  b.stopped();
  pace.list(() => undefined);
  assert.equal(seen.b.at(-1), 0, 'nor one stopped after its sync');

  const alone = new SyncPace(PACE_WHILE_OTHERS_LIST_MS);
  const one: number[] = [];
  alone.list((ms) => one.push(ms)).synced();
  assert.deepEqual(one, [0], 'an engine alone in its worker keeps its own interval');
});

test('WLX_SYNC_PACE_MS: unset or 0, no pace; anything else but a whole number of ms is refused, named', () => {
  assert.equal(syncPaceMs({}), 0);
  assert.equal(syncPaceMs({ WLX_SYNC_PACE_MS: '250' }), 250);
  const off = new SyncPace(syncPaceMs({ WLX_SYNC_PACE_MS: '0' }));
  const seen: number[] = [];
  off.list((ms) => seen.push(ms)).synced();
  off.list(() => undefined);
  assert.deepEqual(seen, []);
  assert.throws(() => syncPaceMs({ WLX_SYNC_PACE_MS: 'soon' }), /WLX_SYNC_PACE_MS: expected a whole number of ms/);
});
