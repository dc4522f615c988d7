// An engine whose flushes are held (EngineOptions.flushHold: a synced engine
// of a shared worker waiting for the others' first lists) shows what it
// listed, reads syncing rather than live, shows none of its watch events
// meanwhile, and shows them and goes live once the hold ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoCluster } from '../../demo/index.js';
import type { ClusterEngine } from '../../src/kube/engine.js';
import type { FlushHold } from '../../src/kube/flush-scheduler.js';
import type { DemoCluster } from '../../demo/index.js';
import { putNode } from './fixtures.js';
import { startDemoEngine, until } from './helpers.js';

/** A hold the test opens by hand. */
function manualHold(): FlushHold & { open(): void } {
  const listeners = new Set<() => void>();
  const hold = {
    held: true,
    onChange(changed: () => void) {
      listeners.add(changed);
      return () => listeners.delete(changed);
    },
    open() {
      hold.held = false;
      for (const l of [...listeners]) l();
    },
  };
  return hold;
}

function engineOn(cluster: DemoCluster, flushHold?: FlushHold): Promise<ClusterEngine> {
  return startDemoEngine(cluster, { flushIntervalMs: 10, ...(flushHold ? { flushHold } : {}) });
}

const nodeNames = (e: ClusterEngine) =>
  e
    .getSnapshot()
    .nodes.map((n) => n.name)
    .sort();

test('a held engine shows its lists, reads syncing, shows none of its watch events, and shows them and goes live when the hold ends', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const hold = manualHold();
  const held = await engineOn(cluster, hold);
  t.after(() => held.stop());
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
  assert.deepEqual(
    nodeNames(held),
    ['gpu-node-01', 'gpu-node-02'],
    'what it applied meanwhile shown by the time it is live',
  );
  putNode(cluster.store, 'gpu-node-03', 8);
  await until(() => nodeNames(held).length === 3, 'events applied as they come after the hold');
});
