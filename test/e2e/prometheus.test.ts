// `--prometheus` end to end: the real CLI against the demo cluster over HTTP.
// Through the services proxy the simulated Prometheus gives utilisation and
// idleness in one `wlx get` (its window covers what one DCGM scrape cannot:
// that path says idle null); the restricted user is refused services/proxy
// and told so once; a closed port is one notice and the rest is intact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { demoWithKubeconfig, runWlx, jsonPodsOf } from './wlx-cli.js';

interface JsonPod {
  name: string;
  phase: string;
  gpuUtilization: number | null;
}
interface JsonRole {
  pods: JsonPod[];
  roles: JsonRole[];
}
interface JsonWorkload {
  name: string;
  gpus: { utilization: number | null; idle: number | null };
  roles: JsonRole[];
  unattributedPods: JsonPod[];
}
interface Doc {
  workloads: JsonWorkload[];
}

const SVC = 'svc/monitoring/prometheus:9090';
const wlx = (args: string[]) => runWlx(args, { WLX_DEFINITIONS: '' });

const podsOf = (w: JsonWorkload): JsonPod[] => jsonPodsOf<JsonPod, JsonRole>(w);

function workload(doc: Doc, name: string): JsonWorkload {
  const w = doc.workloads.find((x) => x.name === name);
  assert.ok(w, `${name} in ${doc.workloads.map((x) => x.name).join(', ')}`);
  return w;
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

test('wlx get --prometheus svc/…: utilisation and idle at once; DCGM: idle null; restricted and unreachable: one notice', async (t) => {
  const { cluster, kubeconfig } = await demoWithKubeconfig(t, 'wlx-prom-e2e-');
  // The window (10 s, 40 s of simulated time at speed 4) must have passed since broken-finetune's pods were created.
  await new Promise((r) => setTimeout(r, 11_000));

  const prom = await wlx(['get', '--kubeconfig', kubeconfig, '-o', 'json', '--idle-after', '10s', '--prometheus', SVC]);
  assert.equal(prom.code, 0, prom.stderr);
  assert.doesNotMatch(prom.stderr, /GPU metrics/);
  const doc = JSON.parse(prom.stdout) as Doc;
  const running = podsOf(workload(doc, 'llama-pretrain')).filter((p) => p.phase === 'Running');
  assert.ok(running.length > 0, 'llama-pretrain runs');
  for (const p of running) assert.equal(typeof p.gpuUtilization, 'number', `${p.name} reports`);
  const broken = workload(doc, 'broken-finetune').gpus;
  assert.ok(typeof broken.idle === 'number' && broken.idle > 0, `broken-finetune idle: ${broken.idle}`);
  assert.equal(workload(doc, 'llama-70b').gpus.idle, 0, 'serving: known busy');
  const paths = cluster.requests().map((r) => decodeURIComponent(r.path));
  assert.ok(paths.some((p) => p.includes('/services/prometheus:9090/proxy/api/v1/query')));
  assert.ok(!paths.some((p) => p.endsWith('/proxy/metrics')), 'no exporter scraped');
  assert.deepEqual([...new Set(cluster.requests().map((r) => r.method))], ['GET'], 'wlx only reads');

  // One DCGM scrape cannot tell idle from "just went quiet": unknown, never 0.
  const dcgm = await wlx(['get', '--kubeconfig', kubeconfig, '-o', 'json', '--idle-after', '10s']);
  assert.equal(dcgm.code, 0, dcgm.stderr);
  const once = JSON.parse(dcgm.stdout) as Doc;
  assert.equal(workload(once, 'broken-finetune').gpus.idle, null);
  assert.equal(workload(once, 'llama-70b').gpus.idle, 0, 'a busy GPU is known not idle at once');

  // The restricted user may not use the services proxy: `-`/null and one notice naming it.
  const restricted = await wlx([
    'get',
    '--kubeconfig',
    kubeconfig,
    '--context',
    'wlx-demo-restricted',
    '-o',
    'json',
    '--prometheus',
    SVC,
  ]);
  assert.equal(restricted.code, 0, restricted.stderr);
  assert.match(
    restricted.stderr,
    /GPU metrics: Prometheus svc\/monitoring\/prometheus:9090: forbidden \(403\): reading it needs get on services\/proxy/,
  );
  assert.equal(restricted.stderr.match(/GPU metrics/g)?.length, 1, 'told once');
  const scoped = JSON.parse(restricted.stdout) as Doc;
  assert.ok(scoped.workloads.length > 0);
  for (const w of scoped.workloads) {
    assert.equal(w.gpus.utilization, null, w.name);
    for (const p of podsOf(w)) assert.equal(p.gpuUtilization, null, p.name);
  }

  // Nothing listens: one notice, exit 0, every workload still there.
  const port = await closedPort();
  const refused = await wlx([
    'get',
    '--kubeconfig',
    kubeconfig,
    '-o',
    'json',
    '--prometheus',
    `http://127.0.0.1:${port}`,
  ]);
  assert.equal(refused.code, 0, refused.stderr);
  assert.equal(refused.stderr, `wlx: GPU metrics: Prometheus http://127.0.0.1:${port}: connection refused\n`);
  const intact = JSON.parse(refused.stdout) as Doc;
  assert.deepEqual(intact.workloads.map((w) => w.name).sort(), doc.workloads.map((w) => w.name).sort());
  for (const w of intact.workloads) assert.equal(w.gpus.utilization, null, w.name);

  const usage = await wlx(['get', '--kubeconfig', kubeconfig, '--prometheus', 'svc/monitoring/prometheus']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--prometheus: expected svc\/NAMESPACE\/NAME:PORT/);
});
