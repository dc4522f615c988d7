// One AGE rule, kubectl's (apimachinery duration.HumanDuration): wlx's
// src/text/duration.ts and the demo server's own copy (the demo imports nothing
// from src) print the same for the same table of durations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { humanDuration } from '../../src/text/duration.js';
import { humanDuration as demoHumanDuration } from '../../demo/server/tables.js';
import { shortAge } from '../../src/cli/printers/tree.js';
import { formatAge } from '../../src/ui/render/format.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

// [ms, what kubectl prints]: each of HumanDuration's bands at and around its edges.
const TABLE: [number, string][] = [
  [-2 * S, '<invalid>'],
  [-1999, '0s'], // Go truncates toward zero: -1s is "now" (clock skew)
  [-1 * S, '0s'],
  [0, '0s'],
  [999, '0s'],
  [45 * S, '45s'],
  [119 * S, '119s'],
  [2 * M, '2m'],
  [2 * M + 5 * S, '2m5s'],
  [5 * M + 30 * S, '5m30s'],
  [9 * M + 59 * S, '9m59s'],
  [10 * M + 30 * S, '10m'],
  [100 * M, '100m'],
  [179 * M + 59 * S, '179m'],
  [3 * H, '3h'],
  [4 * H + M, '4h1m'],
  [7 * H + 59 * M, '7h59m'],
  [8 * H + 30 * M, '8h'],
  [30 * H, '30h'],
  [47 * H + 59 * M, '47h'],
  [2 * D, '2d'],
  [3 * D + 4 * H, '3d4h'],
  [7 * D + 23 * H, '7d23h'],
  [8 * D + 5 * H, '8d'],
  [400 * D, '400d'],
  [2 * Y, '2y'],
  [2 * Y + 10 * D, '2y10d'],
  [7 * Y + 364 * D, '7y364d'],
  [8 * Y + 100 * D, '8y'],
];

test('HumanDuration: wlx and the demo server print the same AGE for each duration, as kubectl does', () => {
  for (const [ms, want] of TABLE) {
    assert.equal(humanDuration(ms), want, `wlx ${ms} ms`);
    assert.equal(demoHumanDuration(ms), want, `demo ${ms} ms`);
  }
});

test('wlx get and the explorer print one AGE: shortAge and formatAge are HumanDuration', () => {
  const now = Date.parse('2026-12-06T12:00:00Z');
  for (const [ms, want] of TABLE) {
    assert.equal(shortAge(new Date(now - ms).toISOString(), now), want, `wlx get ${ms} ms`);
    assert.equal(formatAge(now - ms, now), want, `explorer ${ms} ms`);
  }
  assert.equal(shortAge(null, now), '<unknown>');
  assert.equal(formatAge(null, now), '-');
});
