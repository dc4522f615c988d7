// Orphan pods: a pod whose controller chain runs into an owner the store does
// not hold (absent from a dump, its kind forbidden or not served) is listed by
// orphanPods(), not dropped; not while that kind is still listing, and not for
// controllers of kinds no definition uses (a DaemonSet's pods).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterStore } from '../../src/model/cluster-store.js';
import type { Definition } from '../../src/definitions/types.js';
import { definition, object, pod, statefulsetDefinition } from './fixtures.js';

const RAY = { group: 'ray.io', version: 'v1', kind: 'RayCluster' };
const DEPLOYMENT = { group: 'apps', version: 'v1', kind: 'Deployment' };

function definitions(): Definition[] {
  const ray = definition('raycluster', RAY, { name: 'cluster', specDefinition: { podTemplateSpecPath: '.spec.x' } });
  const deployment = definition('deployment', DEPLOYMENT, {
    name: 'deployment',
    specDefinition: { podTemplateSpecPath: '.spec.template' },
  });
  return [ray, deployment, statefulsetDefinition()];
}

const orphanNames = (s: ClusterStore) =>
  s.orphanPods().map((p) => `${p.namespace}/${p.name} <- ${p.owner.kind}/${p.owner.name} ${p.owner.apiVersion}`);

test('pods whose owner is absent are orphans; DaemonSet pods and owned pods are not', () => {
  const store = new ClusterStore({ definitions: definitions() });
  const ray = object('ray.io/v1', 'RayCluster', 'ray-head-owner', { namespace: 'research' });
  const sts = object('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 1, template: {} } });
  const deployment = object('apps/v1', 'Deployment', 'web');
  const rs = object('apps/v1', 'ReplicaSet', 'web-7d9f', { owner: deployment });
  store.apply('workload', 'ADDED', sts);
  store.apply('owner', 'ADDED', rs);
  store.apply('pod', 'ADDED', pod('ray-head', { owner: ray, namespace: 'research', node: 'n1' }));
  store.apply('pod', 'ADDED', pod('db-0', { owner: sts }));
  store.apply('pod', 'ADDED', pod('web-7d9f-x', { owner: rs }));
  store.apply('pod', 'ADDED', pod('exporter', { owner: object('apps/v1', 'DaemonSet', 'dcgm') }));
  store.flush();
  assert.deepEqual(orphanNames(store), [
    'ml/web-7d9f-x <- Deployment/web apps/v1',
    'research/ray-head <- RayCluster/ray-head-owner ray.io/v1',
  ]);
  assert.equal(store.orphanPods()[1].status, 'Running');
  // The owner arrives (a relist, or it becomes readable): no longer an orphan, its workload has it.
  store.apply('workload', 'ADDED', deployment);
  store.flush();
  assert.deepEqual(orphanNames(store), ['research/ray-head <- RayCluster/ray-head-owner ray.io/v1']);
  assert.deepEqual(
    store
      .workloads()
      .find((w) => w.name === 'web')!
      .roles.flatMap((r) => r.pods.map((p) => p.name)),
    ['web-7d9f-x'],
  );
});

test('not an orphan while its owner kind is still in its first list; the same list while nothing changes', () => {
  const store = new ClusterStore({ definitions: definitions() });
  const ray = object('ray.io/v1', 'RayCluster', 'rc', { namespace: 'research' });
  store.setListingKinds([RAY]);
  store.apply('pod', 'ADDED', pod('rc-head', { owner: ray, namespace: 'research' }));
  store.flush();
  assert.deepEqual(store.orphanPods(), []);
  store.setListingKinds([]);
  store.flush();
  const first = store.orphanPods();
  assert.deepEqual(orphanNames(store), ['research/rc-head <- RayCluster/rc ray.io/v1']);
  store.apply('pod', 'ADDED', pod('unrelated', { node: 'n2' }));
  store.flush();
  assert.equal(store.orphanPods(), first);
  store.apply('pod', 'DELETED', pod('rc-head', { owner: ray, namespace: 'research', uid: first[0].uid }));
  store.flush();
  assert.deepEqual(store.orphanPods(), []);
});
