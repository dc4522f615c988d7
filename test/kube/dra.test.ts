// DRA on the kube side: the kinds wanted (optional, at v1 with discovery's
// version fallback), what trimming keeps of pods' claims and of claims, and a
// dump holding a pod, its claim, the DeviceClass and the node's slice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wantedKinds } from '../../src/kube/kinds.js';
import { Trimmer } from '../../src/kube/trim.js';
import { buildOfflineModel, parseDump } from '../../src/kube/offline.js';
import { loadDefinitions } from '../../src/definitions/index.js';

test('wantedKinds: the four DRA kinds at v1 and Kueue Topology, each in its own role', () => {
  const wanted = wantedKinds([]);
  const dra = wanted.filter((w) => w.role === 'dra').map((w) => `${w.gvk.group}/${w.gvk.version}/${w.gvk.kind}`);
  assert.deepEqual(dra.sort(), [
    'resource.k8s.io/v1/DeviceClass',
    'resource.k8s.io/v1/ResourceClaim',
    'resource.k8s.io/v1/ResourceClaimTemplate',
    'resource.k8s.io/v1/ResourceSlice',
  ]);
  assert.deepEqual(
    wanted.filter((w) => w.role === 'topology').map((w) => w.gvk.kind),
    ['Topology'],
  );
});

test('trim: a pod keeps its claims and their generated names; a claim keeps spec and allocation, not reservedFor', () => {
  const t = new Trimmer();
  const pod = t.pod({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ml', uid: 'u1', managedFields: [{ manager: 'x' }] },
    spec: {
      containers: [{ name: 'c', env: [{ name: 'A', value: 'b' }] }],
      resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 't' }],
    },
    status: { phase: 'Running', resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'p-gpu-x' }] },
  });
  assert.deepEqual(pod.spec?.['resourceClaims'], [{ name: 'gpu', resourceClaimTemplateName: 't' }]);
  assert.deepEqual(pod.status?.['resourceClaimStatuses'], [{ name: 'gpu', resourceClaimName: 'p-gpu-x' }]);

  const claim = t.for('dra')({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'p-gpu-x', namespace: 'ml', uid: 'c1', managedFields: [{ manager: 'kube-controller-manager' }] },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com' } }] } },
    status: {
      allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'n', device: 'gpu-0' }] } },
      reservedFor: Array.from({ length: 3 }, (_, i) => ({ resource: 'pods', name: `p${i}`, uid: `u${i}` })),
    },
  });
  assert.equal(claim.kind, 'ResourceClaim');
  assert.equal(claim.metadata.managedFields, undefined);
  assert.ok(claim.spec?.['devices']);
  assert.ok(claim.status?.['allocation']);
  assert.equal(claim.status?.['reservedFor'], undefined);
});

test('offline: a dump with a pod, its template-generated claim (v1beta1), the DeviceClass and the slice', () => {
  const yaml = `
apiVersion: v1
kind: Node
metadata: {name: dra-node, uid: n1}
status: {conditions: [{type: Ready, status: "True"}]}
---
apiVersion: v1
kind: Pod
metadata: {name: reranker, namespace: inference, uid: p1}
spec:
  nodeName: dra-node
  containers: [{name: c, resources: {claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: single}]
status:
  phase: Running
  resourceClaimStatuses: [{name: gpu, resourceClaimName: reranker-gpu-abcde}]
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: reranker-gpu-abcde, namespace: inference, uid: c1}
spec: {devices: {requests: [{name: gpu, deviceClassName: gpu.nvidia.com, count: 1}]}}
status: {allocation: {devices: {results: [{request: gpu, driver: gpu.nvidia.com, pool: dra-node, device: gpu-0}]}}}
---
apiVersion: resource.k8s.io/v1beta1
kind: DeviceClass
metadata: {name: gpu.nvidia.com, uid: dc1}
spec: {selectors: [{cel: {expression: "device.driver == 'gpu.nvidia.com'"}}]}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: dra-node-gpu, uid: s1}
spec:
  driver: gpu.nvidia.com
  nodeName: dra-node
  pool: {name: dra-node, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0, basic: {}}, {name: gpu-1, basic: {}}]
`;
  const dump = parseDump(yaml, 'dra.yaml');
  assert.deepEqual(dump.problems, []);
  const model = buildOfflineModel(dump.objects, loadDefinitions({ includeBuiltin: true, envPaths: '' }));
  const w = model.store.workloads().find((x) => x.name === 'reranker');
  assert.ok(w, 'the bare pod is a workload');
  const p = [...w.unattributedPods, ...w.roles.flatMap((r) => r.pods)][0];
  assert.deepEqual(p.gpuResources, { 'dra:gpu.nvidia.com': 1 });
  assert.equal(w.gpus.allocated, 1);
  const n = model.store.nodes()[0];
  assert.deepEqual(n.gpuResources, { 'dra:gpu.nvidia.com': { capacity: 2, allocatable: 2, requested: 1 } });
  assert.equal(n.gpuAllocatable, 2);
});
