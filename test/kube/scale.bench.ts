// Benchmark (not part of the suite): the engine against the simulated scale
// scenario in a child process. Prints list time, and heap retained per pod
// (1) by the reflector path alone (paged list + trim, objects kept) and
// (2) by the whole engine (reflectors + ClusterStore + trees).
//
//   node --expose-gc dist/test/kube/scale.bench.js [nodes] [workloads] [podsPerWorkload]
import { KubeConfig } from '@kubernetes/client-node';
import { startDemoInBackground } from '../../demo/index.js';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { Reflector } from '../../src/kube/reflector.js';
import { trimPod } from '../../src/kube/trim.js';
import { startEngine } from '../../src/kube/engine.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import type { KubeObject } from '../../src/model/types.js';
import { readFileSync } from 'node:fs';

const [nodes, workloads, perWorkload] = process.argv.slice(2).map(Number) as [number?, number?, number?];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('run with node --expose-gc\n');
  process.exit(2);
}
const heap = () => {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
};
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

const demo = await startDemoInBackground({ scenario: 'scale', nodes: nodes ?? 5000, workloads: workloads ?? 2000, podsPerWorkload: perWorkload ?? 50, speed: 1 });
try {
  const kc = new KubeConfig();
  kc.loadFromString(readFileSync(demo.kubeconfigPath, 'utf8'));
  const transport = new HttpKubeTransport(kc, demo.server, kc.getCurrentContext());

  // 1. Reflector path alone.
  let base = heap();
  const kept: KubeObject[] = [];
  let t0 = Date.now();
  const r = new Reflector(
    { transport, path: '/api/v1/pods', apiVersion: 'v1', kind: 'Pod', trim: trimPod, watch: false },
    { onEvent: (_type, o) => kept.push(o) },
  );
  r.start();
  const err = await r.firstSync;
  if (err) throw err;
  const listMs = Date.now() - t0;
  const after = heap();
  process.stdout.write(
    `reflector: ${kept.length} pods listed (pages of 500) and trimmed in ${listMs} ms; retained ${mb(after - base)} = ${Math.round((after - base) / kept.length)} bytes/pod; rss ${mb(process.memoryUsage().rss)}\n`,
  );
  kept.length = 0;
  await r.stop();

  // 2. The whole engine.
  base = heap();
  t0 = Date.now();
  const engine = await startEngine({
    transport,
    connection: { context: 'bench', cluster: 'bench', user: 'bench', server: demo.server, namespace: null },
    namespace: null,
    definitions: loadDefinitions({ envPaths: '' }),
  });
  await engine.whenSynced();
  const syncMs = Date.now() - t0;
  const snap = engine.getSnapshot();
  const total = heap();
  process.stdout.write(
    `engine: synced ${snap.totals.pods} pods, ${snap.totals.nodes} nodes, ${snap.workloads.length} workloads in ${syncMs} ms; retained ${mb(total - base)} = ${Math.round((total - base) / Math.max(1, snap.totals.pods))} bytes/pod (model included); rss ${mb(process.memoryUsage().rss)}\n`,
  );
  await engine.stop();
  transport.close();
} finally {
  await demo.stop();
}
