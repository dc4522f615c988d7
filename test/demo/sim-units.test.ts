// The simulation's parts on small hand-made clusters: the scheduler's filters
// and FitError message, ImagePullBackOff, batch pods completing their Job and
// JobSet, event aggregation, and the clock's deterministic order.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore } from '../../demo/object-store.js';
import { assembleControlPlane, type ControlPlane } from '../../demo/sim/assemble.js';
import { Random, SimClock } from '../../demo/sim/clock.js';
import { Runtime } from '../../demo/sim/runtime.js';
import type { BehaviourFor } from '../../demo/sim/kubelet.js';
import { buildPod, parseQuantity, podRequests, qosClass } from '../../demo/sim/pods.js';
import { buildNode } from '../../demo/sim/scenarios/cluster.js';
import { R, type NodeObject, type Pod, type PodTemplate } from '../../demo/sim/types.js';
import { condition, sleep, until } from './sim-helpers.js';

function plane(t: TestContext, behaviour?: BehaviourFor, speed = 100): { store: ObjectStore; cp: ControlPlane } {
  const store = new ObjectStore();
  const cp = assembleControlPlane(store, {
    seed: 3,
    speed,
    ...(behaviour ? { behaviour } : {}),
    kubelet: { pullMs: [1000, 2000], readyMs: [500, 1000] },
  });
  t.after(() => cp.stop());
  return { store, cp };
}

function addNode(cp: ControlPlane, name: string, gpus: number, change: (n: NodeObject) => void = () => {}): void {
  const n = buildNode(cp.rt, { name, index: 1, gpus, zone: 'z' }, cp.rt.clock.iso());
  change(n);
  cp.rt.create(R.nodes, n);
}

function template(gpus: number, extra: Partial<PodTemplate['spec']> = {}): PodTemplate {
  const r = { cpu: '1', memory: '1Gi', ...(gpus ? { 'nvidia.com/gpu': String(gpus) } : {}) };
  return {
    spec: {
      containers: [{ name: 'main', image: 'example.com/app:1', resources: { requests: r, limits: r } }],
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      ...extra,
    },
  };
}

test('scheduler: one reason per node from the first failing filter, counted and sorted as kube-scheduler prints them', async (t) => {
  const { store, cp } = plane(t);
  addNode(cp, 'cordoned', 8, (n) => (n.spec.unschedulable = true));
  addNode(cp, 'tainted', 8, (n) => (n.spec.taints = [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }]));
  addNode(cp, 'small-1', 2);
  addNode(cp, 'small-2', 2);
  addNode(cp, 'cpu', 0);
  cp.rt.create(R.pods, buildPod({ namespace: 'default', name: 'big', template: template(4) }, cp.rt.rng));
  const scheduled = await until('unschedulable', () =>
    (store.get(R.pods, 'default', 'big') as Pod).status.conditions?.find((c) => c.type === 'PodScheduled'),
  );
  assert.equal(scheduled.status, 'False');
  assert.equal(
    scheduled.message,
    '0/5 nodes are available: 1 node(s) had untolerated taint {dedicated: infra}, 1 node(s) were unschedulable, 3 Insufficient nvidia.com/gpu. ' +
      'preemption: 0/5 nodes are available: 2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.',
  );
  // A pod that fits is bound to the fullest node that fits (bin packing), with a Scheduled event.
  cp.rt.create(R.pods, buildPod({ namespace: 'default', name: 'one-gpu', template: template(1) }, cp.rt.rng));
  cp.rt.create(R.pods, buildPod({ namespace: 'default', name: 'two-gpu', template: template(1) }, cp.rt.rng));
  const a = await until('bound', () => (store.get(R.pods, 'default', 'one-gpu') as Pod).spec.nodeName);
  const b = await until('bound', () => (store.get(R.pods, 'default', 'two-gpu') as Pod).spec.nodeName);
  assert.equal(a, 'small-1');
  assert.equal(b, 'small-1');
  // Uncordoning makes room: the pending pod is retried on the node change and bound.
  const cordoned = store.get(R.nodes, undefined, 'cordoned') as NodeObject;
  store.put(R.nodes, {
    ...cordoned,
    metadata: { ...cordoned.metadata },
    spec: { ...cordoned.spec, unschedulable: false },
  });
  assert.equal(await until('big bound', () => (store.get(R.pods, 'default', 'big') as Pod).spec.nodeName), 'cordoned');
});

test('kubelet: ErrImagePull then ImagePullBackOff, with Failed and BackOff events', async (t) => {
  const { store, cp } = plane(t, (p) =>
    p.metadata.name === 'bad-image' ? { imagePullError: 'example.com/app:1: not found' } : undefined,
  );
  addNode(cp, 'n1', 8);
  cp.rt.create(R.pods, buildPod({ namespace: 'default', name: 'bad-image', template: template(0) }, cp.rt.rng));
  const seen = new Set<string>();
  await until('ImagePullBackOff', () => {
    const reason = (store.get(R.pods, 'default', 'bad-image') as Pod).status.containerStatuses?.[0]?.state.waiting
      ?.reason;
    if (reason) seen.add(reason);
    return reason === 'ImagePullBackOff';
  });
  assert.ok(seen.has('ErrImagePull') || seen.has('ImagePullBackOff'));
  const events = store.list(R.events).filter((e) => (e['involvedObject'] as { name: string }).name === 'bad-image');
  const messages = events.map((e) => `${e['reason']}: ${e['message']}`);
  assert.ok(messages.includes('Failed: Error: ErrImagePull'), messages.join('\n'));
  assert.ok(messages.includes('Failed: Error: ImagePullBackOff'), messages.join('\n'));
  assert.ok(messages.includes('BackOff: Back-off pulling image "example.com/app:1"'), messages.join('\n'));
  assert.ok(
    messages.some((m) => m.startsWith('Failed: Failed to pull image "example.com/app:1": rpc error: code = NotFound')),
  );
  assert.equal((store.get(R.pods, 'default', 'bad-image') as Pod).status.phase, 'Pending');
});

test('batch pods that finish: terminated Completed, phase Succeeded, Job Complete, JobSet Completed', async (t) => {
  const { store, cp } = plane(t, () => ({ completeAfterMs: [1000, 3000] }));
  addNode(cp, 'n1', 8);
  cp.rt.create(R.jobsets, {
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    metadata: {
      name: 'short',
      namespace: 'default',
      uid: '',
      resourceVersion: '',
      creationTimestamp: '',
      generation: 1,
    },
    spec: {
      replicatedJobs: [
        {
          name: 'w',
          replicas: 2,
          template: {
            spec: {
              parallelism: 2,
              completions: 2,
              completionMode: 'Indexed',
              template: template(1, { restartPolicy: 'Never' }),
            },
          },
        },
      ],
    },
  });
  cp.rt.flush();
  const js = await until('jobset completed', () => {
    const o = store.get(R.jobsets, 'default', 'short');
    return condition(o, 'Completed')?.status === 'True' ? o : undefined;
  });
  assert.equal(condition(js, 'Completed')?.reason, 'AllJobsCompleted');
  assert.equal((js['status'] as { terminalState: string }).terminalState, 'Completed');
  const pods = store.list(R.pods) as Pod[];
  assert.equal(pods.length, 4);
  for (const p of pods) {
    assert.equal(p.status.phase, 'Succeeded');
    assert.equal(p.status.containerStatuses?.[0]?.state.terminated?.reason, 'Completed');
    assert.equal(p.status.containerStatuses?.[0]?.state.terminated?.exitCode, 0);
    assert.equal(p.status.conditions?.find((c) => c.type === 'Ready')?.reason, 'PodCompleted');
  }
  const job = store.get(R.jobs, 'default', 'short-w-1')!;
  const st = job['status'] as Record<string, unknown>;
  assert.equal(st['succeeded'], 2);
  assert.equal(st['completedIndexes'], '0-1');
  assert.equal(condition(job, 'Complete')?.status, 'True');
  assert.ok(st['completionTime']);
  // Finished pods free their GPUs: nothing is left counted on the node.
  assert.equal(cp.scheduler.usedGpus('n1'), 0);
});

test('events: a repeat bumps count and lastTimestamp on the same Event object; the oldest go past the limit', async (t) => {
  const store = new ObjectStore();
  const cp = assembleControlPlane(store, { seed: 1, speed: 1000, eventLimit: 3 });
  t.after(() => cp.stop());
  // Not stored: nothing else (scheduler, kubelet) writes events about it.
  const pod = buildPod({ namespace: 'ns', name: 'p', template: template(0) }, cp.rt.rng);
  const spec = {
    type: 'Warning' as const,
    reason: 'BackOff',
    message: 'Back-off restarting failed container main in pod p',
    component: 'kubelet',
    host: 'n1',
    fieldPath: 'spec.containers{main}',
  };
  const first = cp.rt.events.record(pod, spec);
  await sleep(5); // 5 simulated seconds
  const again = cp.rt.events.record(pod, spec);
  assert.equal(again.metadata.name, first.metadata.name);
  assert.equal(again['count'], 2);
  assert.equal(store.list(R.events).length, 1);
  for (let i = 0; i < 4; i++) cp.rt.events.record(pod, { ...spec, message: `other ${i}` });
  const left = store.list(R.events);
  assert.equal(left.length, 3);
  assert.ok(!left.some((e) => e.metadata.name === first.metadata.name));
});

test('clock: tasks run in simulated-time order at speed, ties in scheduling order, and stop() cancels the rest', async () => {
  const clock = new SimClock(100);
  const order: string[] = [];
  clock.after(3000, () => order.push('c'));
  clock.after(1000, () => {
    order.push('a');
    clock.after(1000, () => order.push('b')); // due at 2000, before c
  });
  clock.after(3000, () => order.push('d'));
  clock.after(60_000, () => order.push('never'));
  const t0 = Date.now();
  while (order.length < 4 && Date.now() - t0 < 2000) await sleep(5);
  assert.deepEqual(order, ['a', 'b', 'c', 'd']);
  assert.ok(Date.now() - t0 >= 25, 'ran faster than simulated time allows');
  clock.stop();
  assert.equal(clock.pending, 0);
});

test('pods: quantities, effective requests and QoS class as the apiserver computes them', () => {
  assert.equal(parseQuantity('500m'), 0.5);
  assert.equal(parseQuantity('64Gi'), 64 * 2 ** 30);
  assert.equal(parseQuantity('1G'), 1e9);
  assert.equal(parseQuantity('8'), 8);
  const spec = {
    containers: [
      {
        name: 'a',
        image: 'x',
        resources: {
          requests: { cpu: '500m', memory: '1Gi' },
          limits: { 'nvidia.com/gpu': '2', cpu: '1', memory: '2Gi' },
        },
      },
      { name: 'b', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi', 'nvidia.com/gpu': '1' } } },
    ],
    initContainers: [{ name: 'init', image: 'x', resources: { requests: { cpu: '4' } } }],
  };
  assert.deepEqual(podRequests(spec), { cpuMilli: 4000, memoryBytes: 2 * 2 ** 30, gpu: 3 });
  assert.equal(qosClass(spec), 'Burstable');
  assert.equal(qosClass({ containers: [{ name: 'a', image: 'x' }] }), 'BestEffort');
  assert.equal(
    qosClass({ containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' } } }] }),
    'Guaranteed',
  );
});

test("kubelet: node heartbeats refresh the conditions' lastHeartbeatTime about every 20 simulated seconds", async (t) => {
  const { store, cp } = plane(t, undefined, 40);
  addNode(cp, 'n1', 0, (n) => {
    n.status.conditions = n.status.conditions.map((c) => ({ ...c, lastHeartbeatTime: '2020-01-01T00:00:00Z' }));
  });
  const ready = (): { lastHeartbeatTime?: string; lastTransitionTime?: string } =>
    (store.get(R.nodes, undefined, 'n1') as NodeObject).status.conditions.find((c) => c.type === 'Ready')!;
  const beat = await until(
    'heartbeat',
    () => (ready().lastHeartbeatTime !== '2020-01-01T00:00:00Z' ? ready() : undefined),
    3000,
  );
  assert.ok(
    Math.abs(Date.parse(beat.lastHeartbeatTime!) - Date.now()) < 60_000,
    `heartbeat at ${beat.lastHeartbeatTime}`,
  );
  // One node: at most one write per heartbeat period (20 s / 40 = 0.5 s real).
  let writes = 0;
  const unsubscribe = store.subscribe((e) => {
    if (e.resourceKey === R.nodes) writes++;
  });
  t.after(unsubscribe);
  await sleep(1100);
  assert.ok(writes >= 1 && writes <= 3, `node writes in 1.1 s: ${writes}`);
});

test('runtime: an owner reads the current version of each child it controls, moved or dropped as the store changes', (t) => {
  const store = new ObjectStore();
  const clock = new SimClock(1);
  const rt = new Runtime(store, clock, new Random(7), 100);
  t.after(() => {
    rt.stop();
    clock.stop();
  });
  const owner = (uid: string) => ({ apiVersion: 'batch/v1', kind: 'Job', name: uid, uid, controller: true });
  const pod = (name: string, ownerUid: string, phase: string) =>
    ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: 'ml', name, ownerReferences: [owner(ownerUid)] },
      spec: {},
      status: { phase },
    }) as unknown as Pod;
  const names = (uid: string) => rt.children<Pod>(uid, R.pods).map((p) => `${p.metadata.name}:${p.status.phase}`);
  store.put(R.pods, pod('a', 'job-1', 'Pending'));
  store.put(R.pods, pod('b', 'job-1', 'Pending'));
  assert.deepEqual(names('job-1'), ['a:Pending', 'b:Pending']);
  store.put(R.pods, pod('a', 'job-1', 'Running'));
  assert.deepEqual(names('job-1'), ['a:Running', 'b:Pending'], 'the newest version');
  store.put(R.pods, pod('b', 'job-2', 'Running'));
  assert.deepEqual(names('job-1'), ['a:Running'], 'a child whose controller changed leaves its old owner');
  assert.deepEqual(names('job-2'), ['b:Running']);
  store.delete(R.pods, 'ml', 'a');
  assert.deepEqual(names('job-1'), [], 'a deleted child is gone');
  const orphan = pod('b', 'job-2', 'Running');
  orphan.metadata.ownerReferences = [];
  store.put(R.pods, orphan);
  assert.deepEqual(names('job-2'), [], 'a child without a controller any more');
});
