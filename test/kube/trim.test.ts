import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Trimmer } from '../../src/kube/trim.js';
import { trimWhole, MAX_MESSAGE } from '../../src/kube/trim-bounds.js';
import { realisticPod } from './pod-fixture.js';

const trimmer = new Trimmer();
const trimPod = trimmer.for('pod');
const trimNode = trimmer.for('node');
const trimOwner = trimmer.for('owner');

test('pods keep what views and pod-side expressions read', () => {
  const raw = realisticPod(3);
  const pod = trimPod(JSON.parse(JSON.stringify(raw)));
  const meta = pod.metadata;
  assert.equal(meta.name, (raw.metadata as { name: string }).name);
  assert.equal(meta.namespace, 'training');
  assert.ok(meta.uid && meta.resourceVersion && meta.creationTimestamp);
  assert.equal(meta.labels!['jobset.sigs.k8s.io/replicatedjob-name'], 'worker');
  assert.equal(meta.annotations!['jobset.sigs.k8s.io/jobset-name'], 'llama-pretrain');
  assert.deepEqual(meta.ownerReferences, [
    { apiVersion: 'batch/v1', kind: 'Job', name: 'llama-pretrain-worker-3', uid: 'c-3', controller: true },
  ]);
  const spec = pod.spec as Record<string, unknown>;
  assert.equal(spec.nodeName, 'gpu-node-003');
  assert.equal(spec.priorityClassName, 'training-high');
  assert.equal(spec.schedulerName, 'default-scheduler');
  assert.deepEqual(spec.tolerations, [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  assert.deepEqual(spec.containers, [
    {
      name: 'main',
      image: 'nvcr.io/nvidia/pytorch:24.05-py3',
      resources: { requests: { cpu: '32', memory: '512Gi', 'nvidia.com/gpu': '8' }, limits: { 'nvidia.com/gpu': '8' } },
    },
  ]);
  assert.deepEqual(spec.initContainers, [
    { name: 'init', image: 'nvcr.io/nvidia/pytorch:24.05-py3', resources: { requests: { cpu: '1' } } },
  ]);
  const status = pod.status as Record<string, unknown>;
  assert.equal(status.phase, 'Running');
  assert.equal(status.podIP, '10.1.0.1');
  assert.equal(status.hostIP, '10.0.0.1');
  assert.equal(status.startTime, '2026-12-01T10:00:05Z');
  assert.equal((status.conditions as unknown[]).length, 5);
  type Terminated = { reason: string; exitCode: number; message: string };
  type ContainerStatus = {
    name: string;
    ready: boolean;
    started: boolean;
    restartCount: number;
    state: { terminated?: Terminated };
    lastState: { terminated: Terminated };
  };
  const cs = (status.containerStatuses as ContainerStatus[])[0];
  assert.equal(cs.name, 'main');
  assert.equal(cs.ready, true);
  assert.equal(cs.started, true);
  assert.equal(cs.restartCount, 2);
  assert.deepEqual(cs.state, { running: { startedAt: '2026-12-01T10:00:09Z' } });
  assert.equal(cs.lastState.terminated.reason, 'OOMKilled');
  assert.equal(cs.lastState.terminated.exitCode, 137);
  assert.ok(cs.lastState.terminated.message.length < MAX_MESSAGE + 40, 'long messages are cut');
  assert.match(cs.lastState.terminated.message, /more characters\)$/);
  assert.equal((status.initContainerStatuses as ContainerStatus[])[0].state.terminated?.reason, 'Completed');
});

test('pods drop managedFields, last-applied, big annotations, env, volumes, probes, commands, security contexts', () => {
  const pod = trimPod(realisticPod(1));
  const text = JSON.stringify(pod);
  for (const gone of [
    'managedFields',
    'last-applied',
    'config-blob',
    'ENV_VAR',
    'volumeMounts',
    'volumes',
    'livenessProbe',
    'readinessProbe',
    'torchrun',
    'securityContext',
    'imageID',
    'containerID',
    'affinity',
    'finalizers',
    'blockOwnerDeletion',
  ]) {
    assert.ok(!text.includes(gone), `${gone} should be dropped`);
  }
  assert.ok(
    text.length < 2600,
    `trimmed pod JSON is ${text.length} bytes (from ${JSON.stringify(realisticPod(1)).length})`,
  );
  assert.ok(JSON.stringify(realisticPod(1)).length > 6000, 'the fixture is realistic (big)');
});

test('nodes keep labels, taints, unschedulable, capacity, conditions, kubelet version, addresses', () => {
  const node = trimNode({
    metadata: {
      name: 'gpu-node-01',
      uid: 'n1',
      labels: { 'nvidia.com/gpu.product': 'H100' },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0' },
      managedFields: [{}],
    },
    spec: {
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
      unschedulable: true,
      podCIDR: '10.0.0.0/24',
    },
    status: {
      capacity: { 'nvidia.com/gpu': '8', cpu: '96' },
      allocatable: { 'nvidia.com/gpu': '8', cpu: '95' },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: 'x',
        },
      ],
      nodeInfo: { kubeletVersion: 'v1.32.0', machineID: 'abc', bootID: 'def' },
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
      images: [{ names: ['a'], sizeBytes: 1 }],
    },
  });
  assert.deepEqual(node.metadata.labels, { 'nvidia.com/gpu.product': 'H100' });
  assert.equal(node.metadata.annotations, undefined);
  const spec = node.spec as { taints?: unknown; unschedulable?: boolean };
  const nodeStatus = node.status as {
    capacity: Record<string, string>;
    allocatable: Record<string, string>;
    conditions: Array<Record<string, unknown>>;
    nodeInfo?: unknown;
    addresses?: unknown;
    images?: unknown;
  };
  assert.deepEqual(spec.taints, [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }]);
  assert.equal(spec.unschedulable, true);
  assert.equal(nodeStatus.capacity['nvidia.com/gpu'], '8');
  assert.equal(nodeStatus.allocatable.cpu, '95');
  assert.equal(nodeStatus.conditions[0].reason, 'KubeletReady');
  assert.equal(nodeStatus.conditions[0].lastHeartbeatTime, undefined, 'heartbeats would churn nothing useful');
  assert.deepEqual(nodeStatus.nodeInfo, { kubeletVersion: 'v1.32.0' });
  assert.deepEqual(nodeStatus.addresses, [{ type: 'InternalIP', address: '10.0.0.1' }]);
  assert.equal(nodeStatus.images, undefined);
});

test('owners keep metadata only; workload roots keep everything but managedFields and last-applied', () => {
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: 'j',
      uid: 'u',
      ownerReferences: [
        { apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name: 'js', uid: 'w', controller: true },
      ],
      managedFields: [{}],
    },
    spec: { template: { spec: { containers: [] } } },
    status: { active: 1 },
  };
  const owner = trimOwner(job);
  assert.deepEqual(Object.keys(owner).sort(), ['apiVersion', 'kind', 'metadata']);
  assert.equal(owner.metadata.ownerReferences![0].uid, 'w');
  const root = trimWhole({
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    metadata: {
      name: 'js',
      uid: 'w',
      managedFields: [{}],
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', keep: 'me' },
    },
    spec: { replicatedJobs: [{ name: 'worker', replicas: 2 }] },
    status: { conditions: [] },
  });
  assert.equal(root.metadata.managedFields, undefined);
  assert.deepEqual(root.metadata.annotations, { keep: 'me' });
  assert.deepEqual(root.spec, { replicatedJobs: [{ name: 'worker', replicas: 2 }] });
});

test('retained heap per trimmed pod is under 2 KB', () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const n = 20_000;
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = new Array(n);
  for (let i = 0; i < n; i++) kept[i] = trimPod(JSON.parse(JSON.stringify(realisticPod(i))));
  gc();
  const perPod = (process.memoryUsage().heapUsed - before) / n;
  assert.equal(kept.length, n);
  process.stdout.write(`# retained heap per trimmed pod: ${Math.round(perPod)} bytes (${n} pods)\n`);
  assert.ok(perPod < 2048, `retained ${Math.round(perPod)} bytes per pod`);
});

test('labels and annotations are kept as parsed when nothing is dropped, copied when something is', () => {
  const t = new Trimmer();
  const parsed = JSON.parse(
    JSON.stringify({
      metadata: {
        name: 'a',
        uid: 'u-a',
        labels: { app: 'x', 'job-index': '3' },
        annotations: { note: 'n' },
      },
    }),
  ) as { metadata: { labels: object; annotations: object } };
  const { labels, annotations } = parsed.metadata;
  const pod = t.pod(parsed);
  assert.equal(pod.metadata.labels, labels, 'the parsed map itself, its values interned');
  assert.equal(pod.metadata.annotations, annotations);
  assert.deepEqual(pod.metadata.labels, { app: 'x', 'job-index': '3' });

  const frozen = Object.freeze({ app: 'x' });
  const cut = t.pod({
    metadata: {
      name: 'b',
      uid: 'u-b',
      labels: frozen,
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', keep: 'me', blob: 'x'.repeat(2000) },
    },
  });
  assert.notEqual(cut.metadata.labels, frozen, 'a frozen map is copied, never written');
  assert.deepEqual(cut.metadata.labels, { app: 'x' });
  assert.deepEqual(cut.metadata.annotations, { keep: 'me' });
  const long = t.pod({ metadata: { name: 'c', uid: 'u-c', labels: { ok: 'y', long: 'v'.repeat(2000) } } });
  assert.deepEqual(long.metadata.labels, { ok: 'y' });
});

test("a trimmed pod's parts are plain objects (Object's prototype), whatever builds them", () => {
  const pod = trimPod(JSON.parse(JSON.stringify(realisticPod(2))));
  for (const part of [pod.metadata, pod.spec, pod.status, (pod.status!.conditions as object[])[0]]) {
    assert.equal(Object.getPrototypeOf(part), Object.prototype);
    assert.equal((part as { constructor: unknown }).constructor, Object);
  }
  assert.deepEqual(structuredClone(pod), JSON.parse(JSON.stringify(pod)));
});

test("a pod's new version is trimmed against what was kept of its last one: the same result, its unchanged parts shared", () => {
  type Raw = {
    metadata: { uid: string; resourceVersion: string };
    spec: { containers: { image: string }[]; tolerations: object[] };
    status: { conditions: { type: string; status: string }[]; containerStatuses: { restartCount: number }[] };
  };
  const raw = (i: number) => JSON.parse(JSON.stringify(realisticPod(i))) as Raw;
  const held = new Map<string, ReturnType<typeof trimPod>>();
  const asked: string[] = [];
  const t = new Trimmer();
  const trim = t.for('pod', undefined, (uid) => {
    asked.push(uid);
    return held.get(uid);
  });
  const first = trim(raw(1));
  held.set(first.metadata.uid, first);
  // Another workload's pod in between: nothing of it equals pod 1's, so only pod 1's last version can be found.
  const other = raw(2);
  other.spec.containers[0].image = 'other:1';
  other.spec.tolerations = [{ key: 'other', operator: 'Exists' }];
  other.status.conditions[2].status = 'False';
  other.status.containerStatuses[0].restartCount = 9;
  trim(other);

  const next = raw(1);
  next.metadata.resourceVersion = '200001';
  next.status.containerStatuses[0].restartCount = 3;
  const expected = new Trimmer().pod(JSON.parse(JSON.stringify(next)));
  const kept = trim(next);
  assert.deepEqual(asked, [first.metadata.uid, other.metadata.uid, first.metadata.uid]);
  assert.deepEqual(kept, expected, 'what a trimmer without the last version keeps');
  assert.equal((kept.status!.containerStatuses as { restartCount: number }[])[0].restartCount, 3, 'the change kept');
  assert.notEqual(kept.status!.containerStatuses, first.status!.containerStatuses);
  for (const [part, of] of [
    [kept.spec, first.spec],
    [kept.metadata.labels, first.metadata.labels],
    [kept.spec!.containers, first.spec!.containers],
    [kept.spec!.initContainers, first.spec!.initContainers],
    [kept.spec!.tolerations, first.spec!.tolerations],
    [kept.status!.conditions, first.status!.conditions],
    [kept.metadata.ownerReferences, first.metadata.ownerReferences],
  ])
    assert.equal(part, of, 'an unchanged part is the last version’s object');

  // A change to a part the last version had is kept, not the last version's part.
  const changed = raw(1);
  changed.spec.containers[0].image = 'new:2';
  changed.status.conditions[2].status = 'False';
  const changedExpected = new Trimmer().pod(JSON.parse(JSON.stringify(changed)));
  const after = trim(changed);
  assert.deepEqual(after, changedExpected);
  assert.equal((after.spec!.containers as { image: string }[])[0].image, 'new:2');
  assert.notEqual(after.spec, first.spec);
  assert.equal(after.spec!.tolerations, first.spec!.tolerations, 'its unchanged parts still shared');
  assert.equal((after.status!.conditions as { status: string }[])[2].status, 'False');
  // A pod never seen: trimmed as before.
  assert.deepEqual(trim(raw(7)), new Trimmer().pod(raw(7)));
});
