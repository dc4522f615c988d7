// `-n` narrows the view, not the truth: a store given viewNamespaces counts
// every pod on its node (GPU requests, pods, pending GPUs) and offers every
// pod to the exporter search, while only the view's pods reach workloads,
// node pod lists, orphans and bare-pod workloads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterStore } from '../../src/model/cluster-store.js';
import { slimPod } from '../../src/model/outside-pods.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import { jobsetDefinition, jobsetWorld, node, pod } from './fixtures.js';

const podDefinition = () =>
  loadDefinitions({ includeBuiltin: true, envPaths: '' }).definitions.find((d) => d.name === 'pod-v1')!;

function world(view?: string[]) {
  const store = new ClusterStore({
    definitions: [jobsetDefinition(), podDefinition()],
    ...(view ? { viewNamespaces: view } : {}),
  });
  store.apply('node', 'ADDED', node('node-0', 8));
  store.apply('node', 'ADDED', node('node-1', 8));
  const train = jobsetWorld('train', [{ name: 'worker', replicas: 2, gpus: 2 }], {
    namespace: 'training',
    nodes: () => 'node-0',
  });
  const serve = jobsetWorld('serve', [{ name: 'worker', replicas: 2, gpus: 4 }], {
    namespace: 'inference',
    nodes: (i) => (i === 0 ? 'node-0' : 'node-1'),
  });
  for (const w of [train, serve]) {
    // The engine lists workloads and owners in `-n`'s namespaces only; pods everywhere.
    if (!view || view.includes(w.jobset.metadata.namespace!)) {
      store.apply('workload', 'ADDED', w.jobset);
      for (const j of w.jobs) store.apply('owner', 'ADDED', j);
    }
    for (const p of w.pods) store.apply('pod', 'ADDED', p);
  }
  // A bare pod in another namespace (a workload of its own without -n), a pending one, and an exporter.
  store.apply('pod', 'ADDED', pod('notebook', { namespace: 'research', node: 'node-1', gpus: 1 }));
  store.apply('pod', 'ADDED', pod('waiting', { namespace: 'research', gpus: 8 }));
  store.apply(
    'pod',
    'ADDED',
    pod('dcgm-exporter-x', { namespace: 'gpu-operator', node: 'node-0', labels: { app: 'nvidia-dcgm-exporter' } }),
  );
  store.flush();
  return { store, train, serve };
}

test('-n keeps node accounting and totals cluster-wide while workloads are the view', () => {
  const all = world();
  const narrowed = world(['training']);
  // The nodes and the totals are the cluster's either way.
  assert.deepEqual(
    narrowed.store.nodes().map((n) => [n.name, n.gpuRequested, n.pods]),
    all.store.nodes().map((n) => [n.name, n.gpuRequested, n.pods]),
  );
  assert.deepEqual(
    narrowed.store.nodes().map((n) => [n.name, n.gpuRequested, n.pods]),
    [
      ['node-0', 2 + 2 + 4, 4],
      ['node-1', 4 + 1, 2],
    ],
  );
  assert.deepEqual(narrowed.store.totals(), all.store.totals());
  assert.equal(narrowed.store.totals().gpuPending, 8);
  // Workloads: only the view's (no inference JobSet, no bare research pod).
  assert.deepEqual(
    narrowed.store.workloads().map((w) => `${w.namespace}/${w.name}`),
    ['training/train'],
  );
  assert.ok(all.store.workloads().some((w) => w.name === 'notebook'));
  assert.deepEqual(narrowed.store.orphanPods(), []);
  assert.deepEqual(
    narrowed.store.podsWithoutWorkload().map((p) => p.name),
    [],
  );
  // A node's pod list is the view's; its summary still counts the others.
  assert.deepEqual(
    narrowed.store.getNodePods('node-0').map((e) => e.pod.name),
    ['train-worker-0-0', 'train-worker-1-0'],
  );
  // The exporter search sees every pod.
  const names = [...narrowed.store.podObjects()].map((p) => p.metadata.name);
  assert.ok(names.includes('dcgm-exporter-x'));
  assert.equal(names.length, 7);
});

test('pods outside the view move, finish and go like any other on their nodes', () => {
  const { store, serve } = world(['training']);
  const [first] = serve.pods;
  // Moved (a recreated pod would be a new uid; here its node changes) and then finished.
  store.apply('pod', 'MODIFIED', {
    ...first,
    metadata: { ...first.metadata, resourceVersion: '2' },
    spec: { ...first.spec, nodeName: 'node-1' },
  });
  store.flush();
  assert.deepEqual(
    store.nodes().map((n) => n.gpuRequested),
    [2 + 2, 4 + 4 + 1],
  );
  store.apply('pod', 'MODIFIED', {
    ...first,
    metadata: { ...first.metadata, resourceVersion: '3' },
    spec: { ...first.spec, nodeName: 'node-1' },
    status: { phase: 'Succeeded' },
  });
  store.flush();
  assert.deepEqual(
    store.nodes().map((n) => n.gpuRequested),
    [4, 5],
  );
  // A relist without it (and without the pending pod): gone from the node and the pending GPUs.
  const kept = [...store.podObjects()].filter(
    (p) => p.metadata.uid !== first.metadata.uid && p.metadata.name !== 'waiting',
  );
  store.replaceAll('pod', kept);
  store.flush();
  assert.deepEqual(
    store.nodes().map((n) => [n.gpuRequested, n.pods]),
    [
      [4, 3],
      [5, 2],
    ],
  );
  assert.equal(store.totals().gpuPending, 0);
  assert.equal(store.totals().pods, 5);
});

test('a pod outside the view is kept slim: no statuses, conditions or annotations', () => {
  const p = pod('big', { namespace: 'other', node: 'node-0', gpus: 2, annotations: { note: 'x'.repeat(500) } });
  const slim = slimPod(p);
  assert.deepEqual(Object.keys(slim.metadata).sort(), ['name', 'namespace', 'uid']);
  assert.deepEqual(slim.status, { phase: 'Running' });
  assert.equal(slim.spec?.['nodeName'], 'node-0');
  assert.deepEqual(slim.spec?.['containers'], p.spec?.['containers']);
});
