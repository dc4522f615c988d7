// GPU slices (MIG, time-sliced shares) are not whole GPUs, but a workload on
// them must never read as holding none: the store puts them on each pod
// (gpuSlices), the trees sum them per role and workload (GpuCounts.slices),
// kept right when a pod changes or finishes, and the cells name them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterStore } from '../../src/model/cluster-store.js';
import type { KubeObject, PodSummary, RoleTree, WorkloadTree } from '../../src/model/types.js';
import { gpuSlicesOf, withSlices } from '../../src/model/gpu.js';
import { gpuRatio, podGpus } from '../../src/ui/render/format.js';
import { renderWorkload } from '../../src/cli/printers/tree.js';
import { node, object, pod, statefulsetDefinition, STS_GVK } from './fixtures.js';

const MIG = 'nvidia.com/mig-1g.10gb';
const SHARED = 'nvidia.com/gpu.shared';

function slicePod(name: string, owner: KubeObject, limits: Record<string, number>, phase?: string): KubeObject {
  const p = pod(name, { owner, node: 'n1', phase });
  return { ...p, spec: { ...p.spec, containers: [{ name: 'main', resources: { limits } }] } };
}

function world(gpuResources?: string[]) {
  const store = new ClusterStore({ definitions: [statefulsetDefinition()], gpuResources });
  const sts = object('apps/v1', 'StatefulSet', 'embedder', { spec: { replicas: 3, template: { spec: {} } } });
  store.apply('workload', 'ADDED', sts, STS_GVK);
  store.apply('node', 'ADDED', node('n1', 8));
  const pods = [
    slicePod('embedder-0', sts, { [MIG]: 1 }),
    slicePod('embedder-1', sts, { [MIG]: 2, [SHARED]: 1 }),
    slicePod('embedder-2', sts, { 'nvidia.com/gpu': 1 }),
  ];
  for (const p of pods) store.apply('pod', 'ADDED', p);
  store.flush();
  return { store, sts, pods };
}

const treeOf = (store: ClusterStore): WorkloadTree => store.workloads().find((w) => w.name === 'embedder')!;
const allRoles = (roles: RoleTree[]): RoleTree[] => roles.flatMap((r) => [r, ...allRoles(r.roles)]);
const podsOf = (w: WorkloadTree): PodSummary[] => [...w.unattributedPods, ...allRoles(w.roles).flatMap((r) => r.pods)];
const podNamed = (w: WorkloadTree, name: string) => podsOf(w).find((p) => p.name === name)!;
/** The role holding the pods (the deepest with pods), so a test reads what a role row shows. */
const podRole = (w: WorkloadTree) => allRoles(w.roles).find((r) => r.pods.length > 0)!;

test('store: slices on the pod, summed per role and workload, beside the whole GPUs', () => {
  const { store } = world();
  const w = treeOf(store);
  assert.equal(podNamed(w, 'embedder-0').gpus, 0, 'a MIG slice is not a whole GPU');
  assert.deepEqual(podNamed(w, 'embedder-0').gpuSlices, { [MIG]: 1 });
  assert.deepEqual(podNamed(w, 'embedder-1').gpuSlices, { [MIG]: 2, [SHARED]: 1 });
  assert.equal(podNamed(w, 'embedder-2').gpuSlices, undefined, 'whole GPUs only: no slices');
  assert.equal(w.gpus.requested, 1);
  assert.deepEqual(w.gpus.slices, { [MIG]: 3, [SHARED]: 1 });
  assert.deepEqual(podRole(w).gpus.slices, { [MIG]: 3, [SHARED]: 1 });
});

test('store: a status change keeps the slices; a finished pod no longer holds its slices', () => {
  const { store, sts } = world();
  // Not ready any more: patched in place, slices carried over.
  const notReady = slicePod('embedder-0', sts, { [MIG]: 1 });
  notReady.metadata.uid = podNamed(treeOf(store), 'embedder-0').uid;
  notReady.status = { ...notReady.status, conditions: [{ type: 'Ready', status: 'False' }] };
  store.apply('pod', 'MODIFIED', notReady);
  store.flush();
  assert.equal(podNamed(treeOf(store), 'embedder-0').ready, false);
  assert.deepEqual(treeOf(store).gpus.slices, { [MIG]: 3, [SHARED]: 1 });
  assert.deepEqual(podRole(treeOf(store)).gpus.slices, { [MIG]: 3, [SHARED]: 1 });

  // Succeeded: a terminal pod holds no devices.
  const done = slicePod('embedder-1', sts, { [MIG]: 2, [SHARED]: 1 }, 'Succeeded');
  done.metadata.uid = podNamed(treeOf(store), 'embedder-1').uid;
  store.apply('pod', 'MODIFIED', done);
  store.flush();
  assert.deepEqual(treeOf(store).gpus.slices, { [MIG]: 1 });
  assert.deepEqual(podRole(treeOf(store)).gpus.slices, { [MIG]: 1 });

  const last = slicePod('embedder-0', sts, { [MIG]: 1 }, 'Failed');
  last.metadata.uid = notReady.metadata.uid;
  store.apply('pod', 'MODIFIED', last);
  store.flush();
  assert.equal(treeOf(store).gpus.slices, undefined, 'none left: absent, not {}');
});

test('store: a kind named by --gpu-resource is counted, so it is no slice', () => {
  const { store } = world(['nvidia.com/gpu', MIG]);
  const w = treeOf(store);
  assert.equal(podNamed(w, 'embedder-0').gpus, 1);
  assert.deepEqual(podNamed(w, 'embedder-1').gpuSlices, { [SHARED]: 1 });
  assert.equal(w.gpus.requested, 4);
  assert.deepEqual(w.gpus.slices, { [SHARED]: 1 });
});

test('gpuSlicesOf: DRA entries and counted names are not slices; nothing left is null', () => {
  assert.deepEqual(gpuSlicesOf({ 'nvidia.com/gpu': 2, [MIG]: 1, 'dra:gpu.nvidia.com': 1 }, ['nvidia.com/gpu']), {
    [MIG]: 1,
  });
  assert.equal(gpuSlicesOf({ 'nvidia.com/gpu': 2, 'dra:mig.nvidia.com': 1 }, ['nvidia.com/gpu']), null);
});

test('cells: slices alone when no whole GPU, beside them otherwise; by kind in tables, by name in panels', () => {
  const onSlices = { desired: 0, requested: 0, allocated: 0, slices: { [MIG]: 1 } };
  assert.equal(gpuRatio(onSlices), '1 mig', 'a table cell stays narrow');
  assert.equal(gpuRatio(onSlices, 'names'), '1×mig-1g.10gb');
  const both = { desired: 8, requested: 8, allocated: 4, slices: { [MIG]: 2, 'nvidia.com/mig-3g.40gb': 1 } };
  assert.equal(gpuRatio(both), '4/8 + 3 mig');
  assert.equal(gpuRatio(both, 'names'), '4/8 + 2×mig-1g.10gb + 1×mig-3g.40gb');
  assert.equal(gpuRatio({ desired: 8, requested: 8, allocated: 4 }), '4/8');
  const pod = { gpus: 0, gpuSlices: { [SHARED]: 1, [MIG]: 1, 'example.com/gpu': 2 } };
  assert.equal(podGpus(pod), '1 mig + 1 shared + 2 gpu');
  assert.equal(podGpus(pod, 'names'), '2×gpu + 1×gpu.shared + 1×mig-1g.10gb');
  assert.equal(podGpus({ gpus: 0 }), '0');
  const hostile = { gpus: 0, gpuSlices: { 'example.com/\u001b[2Jx': 1 } };
  assert.equal(podGpus(hostile, 'names').includes('\u001b'), false);
  assert.equal(withSlices('2', false, {}), '2');
});

test('wlx get: the tree names the slices on the workload, role and pod lines', () => {
  const { store } = world();
  const text = renderWorkload(treeOf(store), Date.parse('2026-01-02T00:00:00Z'), 160).join('\n');
  assert.match(text, /gpu: 1\/1 allocated \(0 desired\), slices: 1×gpu\.shared \+ 3×mig-1g\.10gb requested/);
  assert.match(text, /statefulset\s+3\/3 ready\s+gpu: 1 \+ 1×gpu\.shared \+ 3×mig-1g\.10gb\s+n1/);
  assert.match(text, /embedder-0\s+Running\s+gpu: 1×mig-1g\.10gb\s+n1/);
  assert.match(text, /embedder-2\s+Running\s+gpu: 1\s+n1/);
});
