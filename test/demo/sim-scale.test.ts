// The scale scenario builds settled objects quickly through the real
// controllers, binds every pod within node capacity, and churns pod status
// at the requested rate from one clock task.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podRequests } from '../../demo/sim/pods.js';
import { R, type NodeObject, type Pod } from '../../demo/sim/types.js';
import { condition, isReady, sleep, startSim } from './sim-helpers.js';

test('scale scenario: N nodes, M mixed workloads × K pods, all bound and Running, within GPU capacity', (t) => {
  const f = startSim(t, { scenario: 'scale', nodes: 40, workloads: 30, podsPerWorkload: 8, speed: 1 });
  const stats = f.sim.scale!;
  t.diagnostic(
    `scale 40 nodes / 240 pods built in ${stats.buildMs} ms, heap ${(stats.heapUsed / 2 ** 20).toFixed(0)} MiB`,
  );
  assert.equal(f.store.list(R.nodes).length, 40);
  const pods = f.pods();
  assert.equal(pods.length, 30 * 8);
  assert.equal(stats.pods, 240);
  const kinds = new Set(
    [...f.store.list(R.jobsets), ...f.store.list(R.pytorchjobs), ...f.store.list(R.leaderworkersets)].map(
      (o) => o.kind,
    ),
  );
  assert.deepEqual([...kinds].sort(), ['JobSet', 'LeaderWorkerSet', 'PyTorchJob']);
  assert.equal(
    f.store.list(R.jobsets).length + f.store.list(R.pytorchjobs).length + f.store.list(R.leaderworkersets).length,
    30,
  );
  const gpusByNode = new Map<string, number>();
  const podsByNode = new Map<string, number>();
  for (const p of pods) {
    assert.ok(p.spec.nodeName, `${p.metadata.name} unbound`);
    assert.ok(isReady(p), `${p.metadata.name} not ready`);
    assert.ok(p.metadata.ownerReferences?.[0]?.controller);
    gpusByNode.set(p.spec.nodeName, (gpusByNode.get(p.spec.nodeName) ?? 0) + podRequests(p.spec).gpu);
    podsByNode.set(p.spec.nodeName, (podsByNode.get(p.spec.nodeName) ?? 0) + 1);
  }
  for (const n of f.store.list(R.nodes) as NodeObject[]) {
    assert.ok((gpusByNode.get(n.metadata.name) ?? 0) <= Number(n.status.allocatable['nvidia.com/gpu']));
    assert.ok((podsByNode.get(n.metadata.name) ?? 0) <= Number(n.status.allocatable['pods']));
  }
  // The controllers computed their statuses from the settled pods.
  for (const lws of f.store.list(R.leaderworkersets))
    assert.equal(condition(lws, 'Available')?.status, 'True', lws.metadata.name);
  for (const job of f.store.list(R.pytorchjobs))
    assert.equal(condition(job, 'Running')?.status, 'True', job.metadata.name);
  for (const js of f.store.list(R.jobsets)) {
    const st = js['status'] as { replicatedJobsStatus: Array<{ ready: number }> };
    assert.equal(st.replicatedJobsStatus[0]?.ready, 1, js.metadata.name);
  }
  // Settled pods have logs on first read.
  const p = pods[0];
  const logs = f.sim.logs.read(p.metadata.namespace!, p.metadata.name, undefined, false);
  assert.ok('lines' in logs && logs.lines.length > 0);
  // No scheduling or creation events were written for the settled objects.
  assert.equal(f.store.list(R.events).length, 0);
});

test('scale scenario: GPU budget — once the GPUs are spoken for, workloads run CPU-only instead of pending', (t) => {
  const f = startSim(t, { scenario: 'scale', nodes: 2, workloads: 6, podsPerWorkload: 4, speed: 1 });
  const pods = f.pods();
  assert.equal(pods.length, 24);
  const gpus = pods.reduce((a, p) => a + podRequests(p.spec).gpu, 0);
  assert.equal(gpus, 16);
  assert.ok(pods.every((p) => p.spec.nodeName));
});

test('scale scenario: churn changes pod status at about the requested rate', async (t) => {
  const f = startSim(t, { scenario: 'scale', nodes: 20, workloads: 12, podsPerWorkload: 5, speed: 1, churn: 200 });
  let podWrites = 0;
  const unsubscribe = f.store.subscribe((e) => {
    if (e.resourceKey === R.pods && e.type === 'MODIFIED') podWrites++;
  });
  t.after(unsubscribe);
  const restarts = (): number =>
    f.pods().reduce((a, p: Pod) => a + (p.status.containerStatuses?.[0]?.restartCount ?? 0), 0);
  await sleep(1000);
  assert.ok(podWrites >= 100 && podWrites <= 260, `pod writes in 1 s: ${podWrites}`);
  assert.ok(restarts() > 0);
  assert.ok(f.pods().some((p) => !isReady(p)));
});

test(
  'scale scenario at full size: 5,000 nodes, 100,000 pods (set WLX_SIM_BIG=1; prints time and heap)',
  { skip: !process.env['WLX_SIM_BIG'] },
  (t) => {
    const cpu0 = process.cpuUsage();
    const f = startSim(t, { scenario: 'scale', nodes: 5000, workloads: 2000, podsPerWorkload: 50, speed: 1 });
    const cpu = process.cpuUsage(cpu0);
    const stats = f.sim.scale!;
    t.diagnostic(
      `5,000 nodes / ${stats.pods} pods built in ${stats.buildMs} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU, heap ${(stats.heapUsed / 2 ** 20).toFixed(0)} MiB`,
    );
    assert.equal(stats.pods, 100_000);
    assert.equal(f.store.list(R.nodes).length, 5000);
  },
);
