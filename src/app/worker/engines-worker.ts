// The entry of a worker serving several engines (a fleet's: src/app/fleet.ts):
// each `engine` message brings a MessagePort and what to open, and that
// engine is served over it (serve-engine.ts) as a worker of its own would
// serve it over its parentPort. One isolate, one module load, for them all.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { serveEngine } from './serve-engine.js';
import { heapBound, heapGrowthFlag } from './heap-growth.js';
import { FirstLists } from './first-lists.js';
import type { WorkerStart } from './protocol.js';

const shared = { firstLists: new FirstLists({ listingChanged: heapBound(heapGrowthFlag()) }) };
if (!parentPort) throw new Error('engines-worker.js runs as a worker thread (src/app/worker/engine-host.ts)');
parentPort.on('message', (m: { type: 'engine'; start: WorkerStart; port: MessagePort }) => {
  if (m.type === 'engine') void serveEngine(m.port, m.start, shared);
});
