// The log view keeps the newest lines in a ring of fixed size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ring } from '../../src/ui/state/incident-logs.js';

test('a ring keeps the newest items, oldest first, and never more than its capacity', () => {
  const ring = new Ring<number>(3);
  assert.deepEqual(ring.toArray(), []);
  ring.push(1);
  ring.push(2);
  assert.deepEqual(ring.toArray(), [1, 2]);
  for (let i = 3; i <= 100_000; i++) ring.push(i);
  assert.equal(ring.size, 3);
  assert.deepEqual(ring.toArray(), [99_998, 99_999, 100_000]);
  ring.clear();
  assert.deepEqual(ring.toArray(), []);
  assert.throws(() => new Ring(0), RangeError);
});
