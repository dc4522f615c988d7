import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from '../../../src/app/worker/heap-growth.js';

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
