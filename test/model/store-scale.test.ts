// The store's work stays proportional to what changed, at a size the unit suite
// affords (5,000 pods); test/bench/store-scale.ts runs the same at 100,000.
import { test } from 'node:test';
import { runStoreScale } from './store-scale.js';

test('5,000 pods / 100 workloads / 250 nodes through ClusterStore: work proportional to the events', () => {
  runStoreScale({ workloads: 100, podsPerWorkload: 50, nodes: 250, batches: 5, perBatch: 500 });
});
