// The engine worker's entry (node:worker_threads): one engine served over
// the worker's parentPort (serve-engine.ts). See README.md.
import { parentPort, workerData } from 'node:worker_threads';
import { serveEngine } from './serve-engine.js';
import { heapBound, heapGrowthFlag } from './heap-growth.js';
import { FirstLists } from './first-lists.js';
import type { WorkerStart } from './protocol.js';

// Read before anything starts: a malformed WLX_HEAP_GROWING_PERCENT fails the worker's start, named.
const shared = { firstLists: new FirstLists({ listingChanged: heapBound(heapGrowthFlag()) }) };
if (!parentPort) throw new Error('engine-worker.js runs as a worker thread (src/app/worker/worker-source.ts)');
void serveEngine(parentPort, workerData as WorkerStart, shared);
