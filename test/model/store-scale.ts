// The store's design at a size: pods in JobSets (one Job per pod) on nodes, then
// batches of pod status changes as a watch would deliver them; asserts the work
// is proportional to what the events touched (counted, not timed) and returns
// the figures. The unit suite runs it small (store-scale.test.ts); the bench
// at 100,000 pods on 5,000 nodes (test/bench/store-scale.ts).
import assert from 'node:assert/strict';
import { ObservedStore } from './observed-store.js';
import type { KubeObject } from '../../src/model/types.js';
import { jobsetDefinition, object, pod, node, gpuTemplate } from './fixtures.js';

export interface StoreScaleSize {
  workloads: number;
  podsPerWorkload: number;
  nodes: number;
  /** Batches of pod MODIFIED events, one flush each. */
  batches: number;
  perBatch: number;
}

/** The bench's size: 100,000 pods / 2,000 workloads / 5,000 nodes, 10 batches of 2,000 events. */
export const FULL_SCALE: StoreScaleSize = {
  workloads: 2_000,
  podsPerWorkload: 50,
  nodes: 5_000,
  batches: 10,
  perBatch: 2_000,
};

/** CPU milliseconds of this process since `from` (wall time is unreliable on a shared machine). */
function cpuMs(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

/** Runs the scale check at `size`; returns one line of figures (wall and CPU time, heap). */
export function runStoreScale(size: StoreScaleSize): string {
  const { workloads: WORKLOADS, podsPerWorkload: PODS_PER_WORKLOAD, nodes: NODES } = size;
  const heapBefore = process.memoryUsage().heapUsed;
  const store = new ObservedStore({ definitions: [jobsetDefinition()] });
  const pods: KubeObject[] = [];
  let t0 = performance.now();
  let c0 = process.cpuUsage();
  for (let n = 0; n < NODES; n++) store.apply('node', 'ADDED', node(`node-${n}`, 8));
  for (let w = 0; w < WORKLOADS; w++) {
    const name = `js-${w}`;
    const js = object('jobset.x-k8s.io/v1alpha2', 'JobSet', name, {
      namespace: `team-${w % 20}`,
      spec: {
        replicatedJobs: [
          { name: 'leader', replicas: 1, template: { spec: { template: gpuTemplate(1) } } },
          { name: 'worker', replicas: PODS_PER_WORKLOAD - 1, template: { spec: { template: gpuTemplate(2) } } },
        ],
      },
      status: { conditions: [] },
    });
    store.apply('workload', 'ADDED', js);
    for (let j = 0; j < PODS_PER_WORKLOAD; j++) {
      const rjob = j === 0 ? 'leader' : 'worker';
      const job = object('batch/v1', 'Job', `${name}-${rjob}-${j}`, { namespace: js.metadata.namespace, owner: js });
      store.apply('owner', 'ADDED', job);
      const i = w * PODS_PER_WORKLOAD + j;
      const p = pod(`${name}-${rjob}-${j}-0`, {
        namespace: js.metadata.namespace,
        owner: job,
        gpus: j === 0 ? 1 : 2,
        node: i % 10 === 0 ? null : `node-${i % NODES}`,
        labels: { 'jobset.sigs.k8s.io/jobset-name': name, 'jobset.sigs.k8s.io/replicatedjob-name': rjob },
      });
      pods.push(p);
      store.apply('pod', 'ADDED', p);
    }
  }
  const applyMs = performance.now() - t0;
  const applyCpu = cpuMs(c0);
  t0 = performance.now();
  c0 = process.cpuUsage();
  const first = store.flush();
  const flushMs = performance.now() - t0;
  const flushCpu = cpuMs(c0);
  assert.equal(first.changedWorkloads.length, WORKLOADS);
  assert.equal(store.workloads().length, WORKLOADS);
  assert.equal(store.totals().pods, WORKLOADS * PODS_PER_WORKLOAD);
  const sample = store.workloads()[0];
  assert.deepEqual(sample.replicas.desired, PODS_PER_WORKLOAD);
  assert.equal(sample.replicas.current, PODS_PER_WORKLOAD);

  // Watch-like traffic: batches of 2,000 pod MODIFIED events (restart counts
  // change), spread over random workloads, one flush per batch.
  const BATCHES = size.batches;
  const PER_BATCH = size.perBatch;
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const workBefore = store.stats();
  t0 = performance.now();
  c0 = process.cpuUsage();
  let changed = 0;
  let touched = 0;
  for (let b = 0; b < BATCHES; b++) {
    const workloadsTouched = new Set<number>();
    for (let e = 0; e < PER_BATCH; e++) {
      const index = Math.floor(rand() * pods.length);
      workloadsTouched.add(Math.floor(index / PODS_PER_WORKLOAD));
      const old = pods[index];
      const p: KubeObject = {
        ...old,
        status: {
          ...old.status,
          containerStatuses: [{ name: 'main', ready: true, restartCount: b + 1, state: { running: {} } }],
        },
      };
      store.apply('pod', 'MODIFIED', p);
    }
    changed += store.flush().changedWorkloads.length;
    touched += workloadsTouched.size;
  }
  const eventsMs = performance.now() - t0;
  const eventsCpu = cpuMs(c0);
  const work = store.stats();
  // The work done is proportional to what the events touched: each touched
  // workload patched once per batch (never rebuilt: only pod statuses changed),
  // one role per changed pod, each event's pod placed once at most.
  assert.equal(work.treeBuilds - workBefore.treeBuilds, 0);
  assert.equal(work.treePatches - workBefore.treePatches, touched);
  assert.ok(work.rolePatches - workBefore.rolePatches <= BATCHES * PER_BATCH);
  assert.ok(work.podAttributions - workBefore.podAttributions <= BATCHES * PER_BATCH);
  assert.equal(work.workloadEvaluations, workBefore.workloadEvaluations);
  assert.ok(changed > 0 && changed <= touched);
  (globalThis as { gc?: () => void }).gc?.();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const events = BATCHES * PER_BATCH;
  return (
    `scale: apply ${WORKLOADS} workloads + ${WORKLOADS * PODS_PER_WORKLOAD} owners + ${pods.length} pods + ${NODES} nodes ` +
    `(objects built by the test included): ${applyMs.toFixed(0)} ms wall / ${applyCpu.toFixed(0)} ms CPU; ` +
    `first flush: ${flushMs.toFixed(0)} ms wall / ${flushCpu.toFixed(0)} ms CPU; ` +
    `${events} pod events in ${BATCHES} flushed batches: ${eventsMs.toFixed(0)} ms wall / ${eventsCpu.toFixed(0)} ms CPU ` +
    `(${Math.round(events / (eventsCpu / 1000))} events/s of CPU; ${touched} tree patches, ${work.rolePatches - workBefore.rolePatches} role patches, ${changed} changed); heap +${mb(heap)}`
  );
}
