// Benchmark (not part of the suite): the engine against the simulated scale
// scenario in a child process. Prints list time, and heap retained per pod
// (1) by the reflector path alone (paged list + trim, objects kept) and
// (2) by the whole engine (reflectors + ClusterStore + trees).
//
//   node --expose-gc dist/test/kube/scale.bench.js [nodes] [workloads] [podsPerWorkload]
import { KubeConfig } from '@kubernetes/client-node';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { Reflector } from '../../src/kube/reflector.js';
import { Trimmer } from '../../src/kube/trim.js';
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
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

// The server runs as `wlx demo serve` in its own process (building 100,000
// pods takes a while); it is ready when its kubeconfig appears.
const dir = mkdtempSync(join(tmpdir(), 'wlx-bench-'));
const kubeconfigPath = join(dir, 'kubeconfig');
const wlx = fileURLToPath(new URL('../../../bin/wlx.js', import.meta.url));
const t00 = Date.now();
const server = spawn(
  process.execPath,
  [
    wlx,
    'demo',
    'serve',
    '--scenario',
    'scale',
    '--nodes',
    String(nodes ?? 5000),
    '--workloads',
    String(workloads ?? 2000),
    '--pods-per-workload',
    String(perWorkload ?? 50),
    '--kubeconfig-out',
    kubeconfigPath,
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
const demo = {
  stop: async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  },
};
while (!existsSync(kubeconfigPath)) {
  if (server.exitCode !== null) throw new Error('wlx demo serve exited');
  await new Promise((r) => setTimeout(r, 200));
}
await new Promise((r) => setTimeout(r, 300));
process.stdout.write(`demo server up in ${Date.now() - t00} ms\n`);
try {
  const kc = new KubeConfig();
  kc.loadFromString(readFileSync(kubeconfigPath, 'utf8'));
  const serverUrl = kc.getCurrentCluster()!.server;
  const transport = new HttpKubeTransport(kc, serverUrl, kc.getCurrentContext());

  // 1. Reflector path alone.
  let base = heap();
  const kept: KubeObject[] = [];
  let t0 = Date.now();
  const r = new Reflector(
    { transport, path: '/api/v1/pods', apiVersion: 'v1', kind: 'Pod', trim: new Trimmer().for('pod'), watch: false },
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
    connection: { context: 'bench', cluster: 'bench', user: 'bench', server: serverUrl, namespace: null },
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
