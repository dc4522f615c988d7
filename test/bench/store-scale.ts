// Benchmark (not part of the suite): the ClusterStore alone at 100,000 pods /
// 2,000 workloads / 5,000 nodes, then 20,000 pod status events in 10 flushed
// batches, with the unit test's work assertions (test/model/store-scale.ts).
//
//   node --expose-gc dist/test/bench/store-scale.js
import { FULL_SCALE, runStoreScale } from '../model/store-scale.js';

process.stdout.write(`${runStoreScale(FULL_SCALE)}\n`);
