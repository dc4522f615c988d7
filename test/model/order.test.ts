import { test } from 'node:test';
import assert from 'node:assert/strict';
import { naturalCompare, naturalSortKey } from '../../src/model/order.js';

const names = ['worker-10', 'worker-2', 'worker-1', 'leader-0', 'worker-02', 'a', 'a1', 'a10b', 'a10a', 'a9z', ''];
const expected = ['', 'a', 'a1', 'a9z', 'a10a', 'a10b', 'leader-0', 'worker-1', 'worker-2', 'worker-02', 'worker-10'];

test('naturalCompare orders digit runs by value', () => {
  assert.deepEqual([...names].sort(naturalCompare), expected);
});

test('naturalSortKey: plain string order of the keys agrees with naturalCompare', () => {
  const byKey = [...names].sort((x, y) => {
    const a = naturalSortKey(x);
    const b = naturalSortKey(y);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  assert.deepEqual(
    byKey.map((n) => n.replace(/^0+/, '')),
    expected.map((n) => n.replace(/^0+/, '')),
  );
  assert.ok(naturalSortKey('pod-9') < naturalSortKey('pod-10'));
});
