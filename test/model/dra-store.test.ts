// DRA through the store: claims (v1 and v1beta1 shapes) applied after the
// pods naming them, a claim two pods share counted once in their workload and
// on their node, a pending claim counted by its request, node capacity from a
// ResourceSlice, and claim events re-reading the pods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterStore } from '../../src/model/cluster-store.js';
import type { KubeObject, WorkloadTree } from '../../src/model/types.js';
import { node, object, pod, statefulsetDefinition, STS_GVK } from './fixtures.js';

const DRIVER = 'gpu.nvidia.com';

function claimPod(name: string, owner: KubeObject, nodeName: string | null, claim: Record<string, string>): KubeObject {
  const p = pod(name, { owner, node: nodeName, gpus: 0 });
  return { ...p, spec: { ...p.spec, resourceClaims: [{ name: 'gpu', ...claim }] } };
}

/** A v1 claim (requests under `exactly`), allocated `devices` when given. */
function claimV1(name: string, devices: string[] | null): KubeObject {
  return object('resource.k8s.io/v1', 'ResourceClaim', name, {
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: DRIVER, count: 1 } }] } },
    ...(devices
      ? {
          status: {
            allocation: {
              devices: { results: devices.map((device) => ({ request: 'gpu', driver: DRIVER, pool: 'n1', device })) },
            },
          },
        }
      : {}),
  });
}

/** A v1beta1 claim (class and count on the request), not allocated. */
function pendingClaimV1beta1(name: string, count: number): KubeObject {
  return object('resource.k8s.io/v1beta1', 'ResourceClaim', name, {
    spec: { devices: { requests: [{ name: 'gpu', deviceClassName: DRIVER, allocationMode: 'ExactCount', count }] } },
  });
}

function world() {
  const store = new ClusterStore({ definitions: [statefulsetDefinition()] });
  const sts = object('apps/v1', 'StatefulSet', 'reranker', { spec: { replicas: 3, template: { spec: {} } } });
  store.apply('workload', 'ADDED', sts, STS_GVK);
  store.apply('node', 'ADDED', node('n1', 0));
  const pods = [
    claimPod('reranker-0', sts, 'n1', { resourceClaimName: 'shared' }),
    claimPod('reranker-1', sts, 'n1', { resourceClaimName: 'shared' }),
    claimPod('reranker-2', sts, null, { resourceClaimName: 'waiting' }),
  ];
  for (const p of pods) store.apply('pod', 'ADDED', p);
  store.flush();
  return { store, sts, pods };
}

const tree = (store: ClusterStore): WorkloadTree => store.workloads().find((w) => w.name === 'reranker')!;
const podNamed = (store: ClusterStore, name: string) =>
  [...tree(store).unattributedPods, ...tree(store).roles.flatMap((r) => r.pods)].find((p) => p.name === name)!;

test('store: a claim listed after its pods re-reads them; a shared claim counts once per workload and node', () => {
  const { store } = world();
  assert.equal(podNamed(store, 'reranker-0').gpus, 0, 'no claim seen yet: nothing counted');

  store.apply('dra', 'ADDED', claimV1('shared', ['gpu-0']));
  store.flush();
  for (const name of ['reranker-0', 'reranker-1']) {
    const p = podNamed(store, name);
    assert.equal(p.gpus, 1, name);
    assert.deepEqual(p.gpuResources, { 'dra:gpu.nvidia.com': 1 });
    assert.deepEqual(p.draClaims, { 'ml/shared': { 'dra:gpu.nvidia.com': 1 } });
  }
  assert.equal(tree(store).gpus.requested, 1, 'the shared claim once');
  assert.equal(tree(store).gpus.allocated, 1);
  const n1 = store.nodes().find((n) => n.name === 'n1')!;
  assert.equal(n1.gpuRequested, 1);
  assert.deepEqual(n1.gpuResources?.['dra:gpu.nvidia.com'], { capacity: 0, allocatable: 0, requested: 1 });
});

test('store: a pending v1beta1 claim counts by its request; allocating or deleting a claim updates its pods', () => {
  const { store } = world();
  store.apply('dra', 'ADDED', claimV1('shared', ['gpu-0']));
  store.apply('dra', 'ADDED', pendingClaimV1beta1('waiting', 2));
  store.flush();
  assert.equal(podNamed(store, 'reranker-2').gpus, 2, 'pending: its request');
  assert.equal(tree(store).gpus.requested, 3);
  assert.equal(tree(store).gpus.allocated, 1, 'the unbound pod holds nothing yet');
  assert.equal(store.totals().gpuPending, 2);

  // The claim is allocated one device only (the request was for 2): the allocation counts.
  const allocated = claimV1('waiting', ['gpu-1']);
  store.apply('dra', 'MODIFIED', { ...allocated, metadata: { ...allocated.metadata, resourceVersion: '2' } });
  store.flush();
  assert.equal(podNamed(store, 'reranker-2').gpus, 1);

  store.apply('dra', 'DELETED', claimV1('shared', ['gpu-0']));
  store.flush();
  assert.equal(podNamed(store, 'reranker-0').gpus, 0, 'claim gone: nothing counted');
  assert.equal(podNamed(store, 'reranker-0').draClaims, undefined);
  assert.equal(tree(store).gpus.requested, 1);
  assert.equal(store.nodes().find((n) => n.name === 'n1')!.gpuRequested, 0);
});

test('store: node capacity from a v1beta1 ResourceSlice matched to its DeviceClass; totals by kind', () => {
  const { store } = world();
  store.apply('node', 'ADDED', node('n2', 8));
  store.apply('dra', 'ADDED', claimV1('shared', ['gpu-0']));
  store.apply(
    'dra',
    'ADDED',
    object('resource.k8s.io/v1beta1', 'DeviceClass', DRIVER, {
      namespace: '',
      spec: { selectors: [{ cel: { expression: `device.driver == '${DRIVER}'` } }] },
    }),
  );
  store.flush();
  assert.equal(store.nodes().find((n) => n.name === 'n1')!.gpuCapacity, 0, 'no slice yet');
  store.apply(
    'dra',
    'ADDED',
    object('resource.k8s.io/v1beta1', 'ResourceSlice', 'n1-gpu', {
      namespace: '',
      spec: {
        driver: DRIVER,
        nodeName: 'n1',
        pool: { name: 'n1', generation: 1, resourceSliceCount: 1 },
        devices: [0, 1, 2, 3].map((i) => ({ name: `gpu-${i}`, basic: { attributes: { type: { string: 'gpu' } } } })),
      },
    }),
  );
  store.flush();
  const n1 = store.nodes().find((n) => n.name === 'n1')!;
  assert.deepEqual(n1.gpuResources?.['dra:gpu.nvidia.com'], { capacity: 4, allocatable: 4, requested: 1 });
  assert.equal(n1.gpuAllocatable, 4, 'DRA GPUs count with the device-plugin ones');
  const t = store.totals();
  assert.equal(t.gpuAllocatable, 12);
  assert.deepEqual(t.byResource, {
    'dra:gpu.nvidia.com': { capacity: 4, allocatable: 4, requested: 1 },
    'nvidia.com/gpu': { capacity: 8, allocatable: 8, requested: 0 },
  });
});

test('store: Kueue Topology levels, most general first, per Topology', () => {
  const store = new ClusterStore({ definitions: [] });
  const levels = (labels: string[]) => ({ levels: labels.map((nodeLabel) => ({ nodeLabel })) });
  store.apply(
    'topology',
    'ADDED',
    object('kueue.x-k8s.io/v1beta2', 'Topology', 'gpus', {
      namespace: '',
      spec: levels(['topology.kubernetes.io/zone', 'network.topology.kubernetes.io/rack', 'kubernetes.io/hostname']),
    }),
  );
  assert.deepEqual(store.kueueTopologyLevels(), [
    ['topology.kubernetes.io/zone', 'network.topology.kubernetes.io/rack', 'kubernetes.io/hostname'],
  ]);
  store.apply('topology', 'DELETED', object('kueue.x-k8s.io/v1beta2', 'Topology', 'gpus', { namespace: '' }));
  assert.deepEqual(store.kueueTopologyLevels(), []);
});

/** A v1 ResourceClaimTemplate asking for `count` devices of `deviceClassName`. */
function claimTemplateV1(name: string, count: number, deviceClassName = DRIVER): KubeObject {
  return object('resource.k8s.io/v1', 'ResourceClaimTemplate', name, {
    spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName, count } }] } } },
  });
}

test('store: desired GPUs count the ResourceClaimTemplates the pod template names, kept current as they change', () => {
  const store = new ClusterStore({ definitions: [statefulsetDefinition()] });
  const podSpec = {
    containers: [{ name: 'main' }],
    // Per replica: a claim from the template; the named claim is shared, so not per replica.
    resourceClaims: [
      { name: 'gpu', resourceClaimTemplateName: 'two-gpus' },
      { name: 'shared', resourceClaimName: 'shared' },
    ],
  };
  const sts = object('apps/v1', 'StatefulSet', 'reranker', { spec: { replicas: 3, template: { spec: podSpec } } });
  store.apply('workload', 'ADDED', sts, STS_GVK);
  store.apply('dra', 'ADDED', claimV1('shared', ['gpu-0']));
  store.flush();
  assert.equal(tree(store).gpus.desired, 0, 'the template not seen yet: nothing known to count');

  store.apply('dra', 'ADDED', claimTemplateV1('two-gpus', 2));
  store.flush();
  assert.equal(tree(store).gpus.desired, 6, '3 replicas × 2 GPUs, read when the template arrives');
  assert.equal(tree(store).roles[0]?.gpus.desired, 6);

  store.apply('dra', 'MODIFIED', claimTemplateV1('two-gpus', 1));
  store.flush();
  assert.equal(tree(store).gpus.desired, 3);

  store.apply('dra', 'DELETED', claimTemplateV1('two-gpus', 1));
  store.flush();
  assert.equal(tree(store).gpus.desired, 0);

  store.apply('dra', 'ADDED', claimTemplateV1('two-gpus', 4, 'nic.example.com'));
  store.flush();
  assert.equal(tree(store).gpus.desired, 0, 'a device class that is no GPU');
});
