// Builds the scale scenario and prints how long it took and the heap it
// uses: `node dist/demo/sim/bench.js [nodes] [workloads] [podsPerWorkload] [churn]`
// (default 5,000 nodes, 2,000 workloads × 50 pods = 100,000 pods).
import { ObjectStore } from '../object-store.js';
import { startSimulation } from './index.js';
import { R } from './types.js';

const [nodes = 5000, workloads = 2000, podsPerWorkload = 50, churn = 500] = process.argv.slice(2).map(Number);
const before = process.memoryUsage().heapUsed;
const store = new ObjectStore();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const sim = startSimulation(store, { scenario: 'scale', seed: 1, speed: 1, nodes, workloads, podsPerWorkload, churn });
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const pods = store.list(R.pods);
const bound = pods.filter((p) => (p as unknown as { spec: { nodeName?: string } }).spec.nodeName).length;
const sample = JSON.stringify(pods[Math.floor(pods.length / 2)]).length;
const heap = process.memoryUsage().heapUsed;
console.log(
  `scale: ${nodes} nodes, ${workloads} workloads, ${pods.length} pods (${bound} bound) built in ${(ms / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU`,
);
console.log(
  `heap used: ${((heap - before) / 2 ** 20).toFixed(0)} MiB for the cluster (${(heap / 2 ** 20).toFixed(0)} MiB total); one pod is ${sample} bytes of JSON`,
);
const rv0 = store.currentRv;
setTimeout(() => {
  console.log(`churn: ${store.currentRv - rv0} store writes in 2 s at ${churn} pod status events/s`);
  sim.stop();
}, 2000);
