// A bare Pod definition: pods nobody controls are workloads of their own (the
// same object, holding itself); adopted pods, pods of other workloads and pods
// of undefined controllers (a DaemonSet's) are not. One pod event feeds both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterStore } from '../../src/model/cluster-store.js';
import type { Definition } from '../../src/definitions/types.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import { object, pod, node, statefulsetDefinition } from './fixtures.js';

/** The built-in bare Pod definition (definitions/pod-v1.yaml). */
function podDefinition(): Definition {
  return loadDefinitions({ includeBuiltin: true, envPaths: '' }).definitions.find((d) => d.name === 'pod-v1')!;
}

const names = (s: ClusterStore) => s.workloads().map((w) => `${w.kind}/${w.name}`);
const podsOf = (s: ClusterStore, name: string) =>
  s
    .workloads()
    .find((w) => w.name === name)!
    .roles.flatMap((r) => r.pods.map((p) => p.name));

test('an unowned pod is its own workload, holding itself; controlled pods are not', () => {
  const store = new ClusterStore({ definitions: [podDefinition(), statefulsetDefinition()] });
  const sts = object('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 1, template: {} } });
  const daemonSet = object('apps/v1', 'DaemonSet', 'exporter');
  store.apply('node', 'ADDED', node('n1', 8));
  store.apply('workload', 'ADDED', sts);
  store.apply('pod', 'ADDED', pod('db-0', { owner: sts, node: 'n1' }));
  store.apply('pod', 'ADDED', pod('exporter-x1', { owner: daemonSet, node: 'n1' }));
  store.apply('pod', 'ADDED', pod('notebook', { node: 'n1', gpus: 2 }));
  store.flush();
  assert.deepEqual(names(store), ['Pod/notebook', 'StatefulSet/db']);
  const bare = store.workloads().find((w) => w.kind === 'Pod')!;
  assert.deepEqual(podsOf(store, 'notebook'), ['notebook']);
  assert.deepEqual(bare.unattributedPods, []);
  assert.deepEqual(bare.gpus, { desired: 2, requested: 2, allocated: 2 });
  assert.deepEqual(
    store.getNodePods('n1').map((e) => `${e.pod.name}:${e.workload?.name ?? '-'}`),
    ['db-0:db', 'exporter-x1:-', 'notebook:notebook'],
  );
});

test('a bare pod follows its events: modified in place, adopted, deleted', () => {
  const store = new ClusterStore({ definitions: [podDefinition(), statefulsetDefinition()] });
  const p = pod('debug', { node: 'n1' });
  store.apply('pod', 'ADDED', p);
  store.flush();
  assert.equal(store.workloads()[0].status.join(), 'Running');
  store.apply('pod', 'MODIFIED', { ...p, status: { ...p.status, phase: 'Succeeded' } });
  store.flush();
  assert.equal(store.workloads()[0].status.join(), 'Completed');
  // Adopted by a controller (a StatefulSet taking over an orphan): no longer a workload of its own.
  const sts = object('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 1, template: {} } });
  store.apply('workload', 'ADDED', sts);
  const adopted = pod('debug', { node: 'n1', owner: sts, uid: p.metadata.uid });
  store.apply('pod', 'MODIFIED', adopted);
  let r = store.flush();
  assert.deepEqual(names(store), ['StatefulSet/db']);
  assert.deepEqual(r.removedWorkloads, [p.metadata.uid]);
  assert.deepEqual(podsOf(store, 'db'), ['debug']);
  store.apply('pod', 'DELETED', adopted);
  const lone = pod('lone');
  store.apply('pod', 'ADDED', lone);
  store.flush();
  store.apply('pod', 'DELETED', lone);
  r = store.flush();
  assert.deepEqual(r.removedWorkloads, [lone.metadata.uid]);
  assert.deepEqual(names(store), ['StatefulSet/db']);
});

test('the Pod definition loaded or removed later makes or drops the bare pods’ workloads', () => {
  const store = new ClusterStore({ definitions: [] });
  store.apply('pod', 'ADDED', pod('notebook', { node: 'n1' }));
  store.flush();
  assert.deepEqual(names(store), []);
  store.setDefinitions([podDefinition()]);
  store.flush();
  assert.deepEqual(names(store), ['Pod/notebook']);
  assert.deepEqual(podsOf(store, 'notebook'), ['notebook']);
  store.setDefinitions([]);
  store.flush();
  assert.deepEqual(names(store), []);
});
