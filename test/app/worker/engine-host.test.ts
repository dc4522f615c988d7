// Several engines in one shared worker (worker/engine-host.ts), against two
// demo API servers over HTTP: each source mirrors its own cluster, stopping
// one leaves the other live, the worker's death is told to both and each
// restarts, and an engine that cannot open fails its own open only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoCluster, type DemoCluster } from '../../../demo/index.js';
import type { OpenOptions } from '../../../src/app/connect.js';
import { openWorkerModelSource } from '../../../src/app/worker/worker-source.js';
import { SharedEngineHost } from '../../../src/app/worker/engine-host.js';
import { putJobSet, putJobSetPods, putNode } from '../../kube/fixtures.js';
import { until } from '../../kube/helpers.js';

function optionsFor(cluster: DemoCluster): OpenOptions {
  const dir = mkdtempSync(join(tmpdir(), 'wlx-host-test-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, cluster.kubeconfig());
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return {
    kubeconfig,
    namespace: null,
    definitionPaths: [],
    definitionsEnv: '',
    gpuResources: [],
    demo: false,
  };
}

async function clusterWith(t: { after(fn: () => unknown): void }, jobset: string, nodes: number) {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  for (let i = 1; i <= nodes; i++) putNode(cluster.store, `gpu-node-0${i}`, 8);
  const { jobs } = putJobSet(cluster.store, 'training', jobset, ['leader', 'worker'], 4);
  putJobSetPods(cluster.store, jobset, jobs);
  return cluster;
}

test('shared worker: two engines, each its own cluster; one stops, the other lives; a crash restarts both', async (t) => {
  const host = new SharedEngineHost();
  const a = await clusterWith(t, 'alpha', 1);
  const b = await clusterWith(t, 'beta', 2);
  const tuning = { engineHost: host, restartBackoff: { initialMs: 50, maxMs: 200, factor: 2, jitter: 0 } };
  const sa = await openWorkerModelSource(optionsFor(a), tuning);
  const sb = await openWorkerModelSource(optionsFor(b), tuning);
  // The sources stop before their host closes (as a fleet does).
  t.after(async () => {
    await sb.stop();
    await host.close();
  });
  await Promise.all([sa.whenSynced(), sb.whenSynced()]);
  await until(() => sa.getSnapshot().workloads.length === 1 && sb.getSnapshot().workloads.length === 1, 'trees');
  assert.equal(sa.getSnapshot().workloads[0].name, 'alpha');
  assert.equal(sb.getSnapshot().workloads[0].name, 'beta');
  assert.deepEqual([sa.getSnapshot().nodes.length, sb.getSnapshot().nodes.length], [1, 2]);
  // No worker of their own: both engines' channels lead to one thread.
  assert.equal(sa.currentWorker()?.performance, undefined);

  await sa.stop();
  putNode(b.store, 'gpu-node-09', 8);
  await until(() => sb.getSnapshot().nodes.length === 3, 'b still live after a stopped');

  // The shared worker dies: b is told and comes back on a new one.
  const version = sb.getSnapshot().version;
  await (host as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
  await until(() => sb.getSnapshot().problems.some((p) => p.startsWith('engine crashed:')), 'the crash told');
  putNode(b.store, 'gpu-node-10', 8);
  await until(() => sb.getSnapshot().nodes.length === 4, 'b live again', 15_000);
  assert.ok(sb.getSnapshot().version > version);
});

test('shared worker: an engine that cannot open fails its own open; the others are untouched', async (t) => {
  const host = new SharedEngineHost();
  const a = await clusterWith(t, 'alpha', 1);
  const sa = await openWorkerModelSource(optionsFor(a), { engineHost: host });
  t.after(async () => {
    await sa.stop();
    await host.close();
  });
  await sa.whenSynced();
  const bad = { ...optionsFor(a), context: 'no-such-context' };
  await assert.rejects(openWorkerModelSource(bad, { engineHost: host }), /no-such-context/);
  putNode(a.store, 'gpu-node-05', 8);
  await until(() => sa.getSnapshot().nodes.length === 2, 'a still live');
});
