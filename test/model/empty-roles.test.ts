// Roles that expect no pods and hold none are left out of the tree; a role
// with pods always stays, whatever its desired count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workloadTree } from './workload-tree.js';
import { ClusterStore } from '../../src/model/cluster-store.js';
import type { RoleTree } from '../../src/model/types.js';
import { definition, jobsetDefinition, jobsetWorld, object, pod, gpuTemplate } from './fixtures.js';

const rows = (roles: RoleTree[], indent = ''): string[] =>
  roles.flatMap((r) => [
    `${indent}${r.component}${r.instance !== null ? `[${r.instance}]` : ''} ${r.replicas.current}/${r.replicas.desired} ${r.pods.map((p) => p.name).join(',')}`.trimEnd(),
    ...rows(r.roles, `${indent}  `),
  ]);

// Milvus-like: each component scaled by the mode; the unused ones desire 0.
const DB = { group: 'milvus.io', version: 'v1beta1', kind: 'Milvus' };
function milvusDefinition() {
  const comp = (name: string, replicas: string) => ({
    name,
    ownerRef: 'milvus',
    specDefinition: { podTemplateSpecPath: '.spec.template' },
    scaleDefinition: { replicasPath: replicas },
    podSelector: { componentTypeSelector: { keyPath: '.metadata.labels["app.kubernetes.io/component"]', value: name } },
  });
  return definition('milvus', DB, { name: 'milvus' }, [
    comp('standalone', 'if .spec.mode == "cluster" then 0 else 1 end'),
    comp('proxy', 'if .spec.mode == "cluster" then 1 else 0 end'),
    comp('querynode', 'if .spec.mode == "cluster" then 2 else 0 end'),
    comp('rootcoord', 'if .spec.mode == "cluster" and .spec.mixCoord == null then 1 else 0 end'),
    comp('mixcoord', 'if .spec.mode == "cluster" and .spec.mixCoord != null then 1 else 0 end'),
  ]);
}
const milvus = (spec: Record<string, unknown>) =>
  object('milvus.io/v1beta1', 'Milvus', 'db', { namespace: 'ml', spec: { template: gpuTemplate(0), ...spec } });
const component = (name: string) => ({ 'app.kubernetes.io/component': name });

test('components a workload does not use (desired 0, no pods) are not roles', () => {
  const w = milvus({ mode: 'cluster', mixCoord: {} });
  const pods = [
    pod('db-proxy-1', { owner: w, node: 'a', labels: component('proxy') }),
    pod('db-querynode-1', { owner: w, node: 'a', labels: component('querynode') }),
    pod('db-querynode-2', { owner: w, labels: component('querynode') }),
  ];
  const t = workloadTree({ definition: milvusDefinition(), workload: w, pods, owners: [] });
  // standalone and rootcoord desire 0 and hold nothing; mixcoord desires 1 and is missing: it stays.
  assert.deepEqual(rows(t.roles), [
    'proxy 1/1 db-proxy-1',
    'querynode 2/2 db-querynode-1,db-querynode-2',
    'mixcoord 0/1',
  ]);
  assert.deepEqual(t.replicas, { desired: 4, current: 3, ready: 2 });

  const standalone = workloadTree({
    definition: milvusDefinition(),
    workload: milvus({ mode: 'standalone' }),
    pods: [],
    owners: [],
  });
  assert.deepEqual(rows(standalone.roles), ['standalone 0/1']);
});

test('a role with pods stays whatever its desired: leftovers of a mode switch, Failed pods, Succeeded pods', () => {
  const w = milvus({ mode: 'cluster', mixCoord: {} });
  const pods = [
    pod('db-proxy-1', { owner: w, node: 'a', labels: component('proxy') }),
    pod('db-standalone-1', { owner: w, node: 'a', labels: component('standalone'), deleting: true }),
    pod('db-rootcoord-1', { owner: w, node: 'a', labels: component('rootcoord'), phase: 'Failed', ready: false }),
    pod('db-mixcoord-1', { owner: w, node: 'a', labels: component('mixcoord'), phase: 'Succeeded', ready: false }),
  ];
  const t = workloadTree({ definition: milvusDefinition(), workload: w, pods, owners: [] });
  assert.deepEqual(rows(t.roles), [
    'standalone 0/0 db-standalone-1',
    'proxy 1/1 db-proxy-1',
    'querynode 0/2',
    'rootcoord 0/0 db-rootcoord-1',
    'mixcoord 1/1 db-mixcoord-1',
  ]);
});

test('declared instances with 0 replicas and no pods are left out; the others keep their order', () => {
  const w = jobsetWorld('train', [
    { name: 'driver', replicas: 1, gpus: 0 },
    { name: 'idle', replicas: 0, gpus: 8 },
    { name: 'worker', replicas: 2, gpus: 8 },
  ]);
  const t = workloadTree({ definition: jobsetDefinition(), workload: w.jobset, pods: w.pods, owners: w.jobs });
  assert.deepEqual(
    t.roles.map((r) => r.instance),
    ['driver', 'worker'],
  );
  assert.deepEqual(t.replicas, { desired: 3, current: 3, ready: 3 });
  assert.deepEqual(t.gpus, { desired: 16, requested: 16, allocated: 16 });
});

test('a grouping component is left out when every role below it is; kept when one is not', () => {
  const gvk = { group: 'x.io', version: 'v1', kind: 'Serve' };
  const def = definition('serve', gvk, { name: 'serve' }, [
    {
      name: 'predictor',
      ownerRef: 'serve',
      specDefinition: { podTemplateSpecPath: '.spec.template' },
      scaleDefinition: { replicasPath: '.spec.predictor' },
      podSelector: { componentTypeSelector: { matchLabels: { role: 'predictor' } } },
    },
    { name: 'extras', ownerRef: 'serve' },
    {
      name: 'transformer',
      ownerRef: 'extras',
      scaleDefinition: { replicasPath: '.spec.transformer // 0' },
      podSelector: { componentTypeSelector: { matchLabels: { role: 'transformer' } } },
    },
    {
      name: 'explainer',
      ownerRef: 'extras',
      scaleDefinition: { replicasPath: '.spec.explainer // 0' },
      podSelector: { componentTypeSelector: { matchLabels: { role: 'explainer' } } },
    },
  ]);
  const plain = object('x.io/v1', 'Serve', 's', { spec: { predictor: 1, template: gpuTemplate(1) } });
  const predictorPod = pod('s-predictor-0', { owner: plain, node: 'a', gpus: 1, labels: { role: 'predictor' } });
  const t = workloadTree({ definition: def, workload: plain, pods: [predictorPod], owners: [] });
  assert.deepEqual(rows(t.roles), ['predictor 1/1 s-predictor-0']);
  // A stray explainer pod brings the group back, with only the role that holds it.
  const stray = pod('s-explainer-0', { owner: plain, node: 'a', labels: { role: 'explainer' } });
  const withStray = workloadTree({ definition: def, workload: plain, pods: [predictorPod, stray], owners: [] });
  assert.deepEqual(rows(withStray.roles), [
    'predictor 1/1 s-predictor-0',
    'extras 1/0',
    '  explainer 1/0 s-explainer-0',
  ]);
  // Configured but not started yet: desired 1, so it shows (as missing).
  const configured = object('x.io/v1', 'Serve', 's', {
    spec: { predictor: 1, transformer: 1, template: gpuTemplate(1) },
  });
  const c = workloadTree({ definition: def, workload: configured, pods: [], owners: [] });
  assert.deepEqual(rows(c.roles), ['predictor 0/1', 'extras 0/1', '  transformer 0/1']);
});

test('a workload scaled to zero with no pods left has no roles; the store drops and brings back the role', () => {
  const gvk = { group: 'apps', version: 'v1', kind: 'StatefulSet' };
  const def = definition('sts', gvk, {
    name: 'statefulset',
    specDefinition: { podTemplateSpecPath: '.spec.template' },
    scaleDefinition: { replicasPath: '.spec.replicas' },
  });
  const sts = object('apps/v1', 'StatefulSet', 'db', {
    namespace: 'ml',
    spec: { replicas: 0, template: gpuTemplate(1) },
  });
  const store = new ClusterStore({ definitions: [def] });
  store.apply('workload', 'ADDED', sts);
  const p = pod('db-0', { namespace: 'ml', owner: sts, node: 'a', gpus: 1, deleting: true });
  store.apply('pod', 'ADDED', p);
  store.flush();
  // Scaled down, its pod still terminating: the role stays with it.
  assert.deepEqual(rows(store.workloads()[0].roles), ['statefulset 0/0 db-0']);
  store.apply('pod', 'DELETED', p);
  store.flush();
  assert.deepEqual(store.workloads()[0].roles, []);
  assert.deepEqual(store.workloads()[0].replicas, { desired: 0, current: 0, ready: 0 });
  const up = structuredClone(sts);
  up.spec!['replicas'] = 1;
  up.metadata.resourceVersion = '2';
  store.apply('workload', 'MODIFIED', up);
  store.flush();
  assert.deepEqual(rows(store.workloads()[0].roles), ['statefulset 0/1']);
});
