// An engine whose flushes are held (EngineOptions.flushHold: a synced engine
// of a shared worker waiting for the others' first lists) shows what it
// listed, reads syncing rather than live, shows none of its watch events
// meanwhile, and shows them and goes live once the hold ends. The watch of
// the kind it listed last opens only then (heldWatch).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoCluster } from '../../demo/index.js';
import type { ClusterEngine } from '../../src/kube/engine.js';
import type { FlushHold } from '../../src/kube/flush-scheduler.js';
import type { DemoCluster } from '../../demo/index.js';
import { putNode } from './fixtures.js';
import { manualHold, startDemoEngine, until } from './helpers.js';

function engineOn(cluster: DemoCluster, flushHold?: FlushHold): Promise<ClusterEngine> {
  return startDemoEngine(cluster, { flushIntervalMs: 10, ...(flushHold ? { flushHold } : {}) });
}

/** A cluster with one node, and an engine on it whose hold the test opens. */
async function heldEngine(t: TestContext) {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const hold = manualHold();
  const held = await engineOn(cluster, hold);
  t.after(() => held.stop());
  return { cluster, hold, held };
}

const nodeNames = (e: ClusterEngine) =>
  e
    .getSnapshot()
    .nodes.map((n) => n.name)
    .sort();

test('a held engine shows its lists, reads syncing, shows none of its watch events, and shows them and goes live when the hold ends', async (t) => {
  const { cluster, hold, held } = await heldEngine(t);
  // The same cluster without a hold: when it has an event, the held engine's watch has had it too.
  const control = await engineOn(cluster);
  t.after(() => control.stop());
  await Promise.all([held.whenSynced(), control.whenSynced()]);
  await until(() => control.getSnapshot().connection.state === 'live', 'the control engine live');
  await until(() => nodeNames(held).length === 1, 'the held engine flushed its lists');
  const c = held.getSnapshot().connection;
  assert.equal(c.state, 'syncing', 'listed, its events held: not live');
  assert.equal(c.synced, c.total, 'every kind listed');

  putNode(cluster.store, 'gpu-node-02', 8);
  await until(() => nodeNames(control).length === 2, 'the control engine has the new node');
  assert.deepEqual(nodeNames(held), ['gpu-node-01'], 'the event is not shown while held');

  hold.open();
  await until(() => held.getSnapshot().connection.state === 'live', 'the held engine live once the hold ends');
  await until(() => nodeNames(held).length === 2, 'the event made while held shown after the hold');
  putNode(cluster.store, 'gpu-node-03', 8);
  await until(() => nodeNames(held).length === 3, 'events applied as they come after the hold');
});

test('a held engine opens the watch of the kind it listed last only when the hold ends, and sees what changed meanwhile', async (t) => {
  const { cluster, hold, held } = await heldEngine(t);
  await held.whenSynced();
  const paths = (watch: boolean) =>
    new Set(
      cluster
        .requests()
        .filter((r) => /[?&]watch=(1|true)/.test(r.path) === watch && r.path.includes('?'))
        .map((r) => r.path.split('?')[0]),
    );
  const listed = paths(false);
  // Every other kind watches as it listed; the last one listed waits for the release (beside the flush scheduler).
  await until(() => hold.listeners.size === 2, 'a watch waiting on the hold');
  await until(() => paths(true).size === listed.size - 1, 'the watches of every kind but the last listed');
  const waiting = [...listed].filter((p) => !paths(true).has(p));
  assert.equal(waiting.length, 1, `one kind waits: ${waiting.join(', ')}`);
  putNode(cluster.store, 'gpu-node-02', 8);
  hold.open();
  await until(() => paths(true).size === listed.size, 'every kind watched once the hold ends');
  await until(() => nodeNames(held).length === 2, 'the node put while held, from the watch opened at the release');
});
