// Startup: until every kind is listed the explorer says it is syncing, never
// "nothing to show" beside `Conn: live` and `Workloads: 0`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summariseConnection } from '../../src/kube/snapshot.js';
import type { KindState, ModelSnapshot } from '../../src/model/types.js';
import { FakeSource, defaultSnapshot } from './fixtures.js';
import { mountApp } from './helpers.js';

const karta: KindState = {
  gvk: { group: 'run.ai', version: 'v1alpha1', kind: 'Karta' },
  resource: 'kartas.run.ai',
  state: 'live',
  since: '2026-01-01T00:00:00Z',
  count: 0,
};

test('the connection is not live while the engine has not started every kind', () => {
  // Only the definitions' kind is watched yet, and it is listed.
  assert.equal(summariseConnection([karta], null, 'x', true).state, 'syncing');
  assert.equal(summariseConnection([karta], null, 'x', false).state, 'live');
  assert.equal(summariseConnection([], null, 'x', true).state, 'connecting');
});

test('an empty view says connecting / syncing until the first lists are complete', async () => {
  const empty = (connection: ModelSnapshot['connection']): ModelSnapshot => ({
    ...defaultSnapshot(),
    workloads: [],
    nodes: [],
    kinds: [karta],
    connection,
  });
  const source = new FakeSource(
    empty({ state: 'connecting', since: 'x', synced: 0, total: 0, failing: [], forbidden: [] }),
  );
  const h = await mountApp({ source });
  try {
    await h.waitFor((f) => f.includes('connecting to http://127.0.0.1:1…'), 'connecting, to the server named');
    source.snapshot = empty({ state: 'syncing', since: 'x', synced: 1, total: 20, failing: [], forbidden: [] });
    source.publish(source.snapshot);
    const f = await h.waitFor(
      (s) => s.includes('syncing: listing the cluster at http://127.0.0.1:1 (1/20 kinds'),
      'syncing',
    );
    assert.match(f, /Conn: syncing 1\/20/);
    assert.doesNotMatch(f, /nothing to show/);
    // Listed, and really empty: now it is nothing.
    source.snapshot = empty({ state: 'live', since: 'x', synced: 20, total: 20, failing: [], forbidden: [] });
    source.publish(source.snapshot);
    await h.waitFor((s) => s.includes('nothing to show'), 'an empty cluster');
    assert.ok(
      h.frames.every((fr) => !/nothing to show/.test(fr) || /Conn: live/.test(fr)),
      'never "nothing to show" before the lists are complete',
    );
  } finally {
    h.unmount();
  }
});
