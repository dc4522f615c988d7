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
