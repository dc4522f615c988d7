// Nested workloads during the initial sync: a kind listed before the kind of
// its controller (Jobs before their JobSet, an LWS's worker StatefulSet before
// the leader pod that links it to the LWS) must not show up as a top-level
// workload in any snapshot, not even for a moment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { startDemoCluster, type DemoCluster } from '../../demo/index.js';
import { resourceKey, type StoredObject } from '../../demo/object-store.js';
import { HttpKubeTransport, type KubeTransport } from '../../src/kube/client.js';
import { ClusterStore } from '../../src/model/cluster-store.js';
import { KEYS, putJobSet, putJobSetPods, putNode, putPod } from './fixtures.js';
import { until, startDemoEngine } from './helpers.js';

/** A transport whose first LIST of the collections matching `held` waits until release(). */
function gatedTransport(cluster: DemoCluster, held: RegExp): { transport: KubeTransport; release: () => void } {
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig());
  const inner = new HttpKubeTransport(kc, cluster.server, kc.getCurrentContext());
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const transport: KubeTransport = {
    label: inner.label,
    async open(path, options): Promise<http.IncomingMessage> {
      const [collection] = path.split('?');
      if (held.test(collection) && !path.includes('watch=')) await gate;
      return inner.open(path, options);
    },
  };
  return { transport, release };
}

const KEYS_LWS = {
  lws: resourceKey('leaderworkerset.x-k8s.io', 'v1', 'leaderworkersets'),
  statefulsets: resourceKey('apps', 'v1', 'statefulsets'),
};

/** A LeaderWorkerSet with one group: its leader pod, and the worker StatefulSet the leader pod controls. */
function putLeaderWorkerSet(
  cluster: DemoCluster,
  namespace: string,
  name: string,
): { lws: StoredObject; workers: StoredObject } {
  const store = cluster.store;
  const lws = store.put(KEYS_LWS.lws, {
    apiVersion: 'leaderworkerset.x-k8s.io/v1',
    kind: 'LeaderWorkerSet',
    metadata: { name, namespace, uid: '', resourceVersion: '', creationTimestamp: '' },
    spec: {
      replicas: 1,
      leaderWorkerTemplate: { size: 2, workerTemplate: { spec: { containers: [{ name: 'w', image: 'vllm:1' }] } } },
    },
    status: { readyReplicas: 1, replicas: 1 },
  });
  const labels = { 'leaderworkerset.sigs.k8s.io/name': name, 'leaderworkerset.sigs.k8s.io/group-index': '0' };
  const leader = putPod(store, namespace, `${name}-0`, lws, {
    ...labels,
    'leaderworkerset.sigs.k8s.io/worker-index': '0',
  });
  const workers = store.put(KEYS_LWS.statefulsets, {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: `${name}-0`,
      namespace,
      uid: '',
      resourceVersion: '',
      creationTimestamp: '',
      labels,
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Pod', name: leader.metadata.name, uid: leader.metadata.uid, controller: true },
      ],
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'w', image: 'vllm:1' }] } },
    },
    status: { replicas: 1, readyReplicas: 1 },
  });
  putPod(store, namespace, `${name}-0-1`, workers, { ...labels, 'leaderworkerset.sigs.k8s.io/worker-index': '1' });
  return { lws, workers };
}

test('engine sync: Jobs listed before their JobSet, and an LWS worker StatefulSet before the pods, never show as top-level', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const { jobs } = putJobSet(cluster.store, 'training', 'llama', ['leader', 'worker'], 4);
  putJobSetPods(cluster.store, 'llama', jobs);
  putLeaderWorkerSet(cluster, 'serving', 'vllm');
  // JobSets and pods are held: Jobs, LWSs and StatefulSets list first.
  const { transport, release } = gatedTransport(cluster, /\/(jobsets|pods)$/);
  let released = false;
  t.after(() => release());
  const engine = await startDemoEngine(cluster, {
    transport,
    flushIntervalMs: 10,
    reflector: { backoff: { initialMs: 20, maxMs: 200, factor: 2, jitter: 0.2 } },
  });
  t.after(() => engine.stop());
  const seen = new Set<string>();
  const record = (names: string[]): void => names.forEach((n) => seen.add(n));
  const names = (): string[] => engine.getSnapshot().workloads.map((w) => `${w.kind}/${w.namespace}/${w.name}`);
  const unsubscribe = engine.subscribe((s) => record(s.workloads.map((w) => `${w.kind}/${w.namespace}/${w.name}`)));
  t.after(unsubscribe);
  const live = (resource: string): boolean =>
    engine.getSnapshot().kinds.some((k) => k.resource === resource && k.state === 'live');
  await until(
    () => live('jobs.batch') && live('statefulsets.apps') && live('leaderworkersets.leaderworkerset.x-k8s.io'),
    'jobs, statefulsets and LWSs listed',
  );
  await new Promise((r) => setTimeout(r, 50)); // a few flushes
  record(names());
  assert.deepEqual(
    names(),
    ['LeaderWorkerSet/serving/vllm'],
    'while JobSets and pods are still listing, only the LWS is top-level',
  );
  release();
  released = true;
  await engine.whenSynced();
  await until(() => names().length === 2, 'both roots after sync');
  record(names());
  assert.ok(released);
  assert.deepEqual(names().sort(), ['JobSet/training/llama', 'LeaderWorkerSet/serving/vllm']);
  assert.deepEqual(
    [...seen].sort(),
    ['JobSet/training/llama', 'LeaderWorkerSet/serving/vllm'],
    'no snapshot ever held a nested Job or StatefulSet',
  );
});

test('engine sync: a workload whose owner kind is not watched, or whose owner is gone after sync, stays top-level', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  // A Job whose controller is a JobSet that no longer exists (dangling reference), once everything has listed.
  cluster.store.put(KEYS.jobs, {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: 'orphan',
      namespace: 'training',
      uid: '',
      resourceVersion: '',
      creationTimestamp: '',
      ownerReferences: [
        { apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name: 'gone', uid: 'no-such-uid', controller: true },
      ],
    },
    spec: { parallelism: 1, template: { spec: { containers: [{ name: 'main', image: 'x:1' }] } } },
    status: { active: 1 },
  });
  const { transport, release } = gatedTransport(cluster, /^$/);
  t.after(() => release());
  const engine = await startDemoEngine(cluster, { transport, flushIntervalMs: 10 });
  t.after(() => engine.stop());
  await engine.whenSynced();
  await until(() => engine.getSnapshot().workloads.length === 1, 'the orphan Job shown');
  assert.equal(engine.getSnapshot().workloads[0].name, 'orphan');
});

test('engine sync: a list is applied page by page but flushed once complete (no tree is built from half a list)', async (t) => {
  const cluster = await startDemoCluster({ simulate: false });
  t.after(() => cluster.stop());
  putNode(cluster.store, 'gpu-node-01', 8);
  const { jobs } = putJobSet(cluster.store, 'training', 'llama', ['leader', 'worker'], 4);
  const podCount = putJobSetPods(cluster.store, 'llama', jobs).length;
  assert.ok(podCount >= 2);
  // The pods list's first page waits for releaseFirst(), the next ones for releaseRest().
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig());
  const inner = new HttpKubeTransport(kc, cluster.server, kc.getCurrentContext());
  let releaseFirst!: () => void;
  let releaseRest!: () => void;
  const first = new Promise<void>((r) => (releaseFirst = r));
  const rest = new Promise<void>((r) => (releaseRest = r));
  t.after(() => {
    releaseFirst();
    releaseRest();
  });
  const transport: KubeTransport = {
    label: inner.label,
    async open(path, options): Promise<http.IncomingMessage> {
      if (/\/pods\?/.test(path) && !path.includes('watch=')) await (path.includes('continue=') ? rest : first);
      return inner.open(path, options);
    },
  };
  let podsApplied = 0;
  let flushes = 0;
  const engine = await startDemoEngine(cluster, {
    transport,
    flushIntervalMs: 10,
    reflector: { pageSize: 1 },
    createStore: (options) => {
      const store = new ClusterStore(options);
      const apply = store.apply.bind(store);
      const flush = store.flush.bind(store);
      store.apply = (kind, type, object, gvk) => {
        if (kind === 'pod') podsApplied++;
        apply(kind, type, object, gvk);
      };
      store.flush = () => {
        flushes++;
        return flush();
      };
      return store;
    },
  });
  t.after(() => engine.stop());
  const othersListed = (): boolean => {
    const kinds = engine.getSnapshot().kinds;
    return (
      kinds.some((k) => k.resource === 'jobsets.jobset.x-k8s.io' && k.state === 'live') &&
      kinds.every((k) => k.resource === 'pods' || k.state !== 'syncing')
    );
  };
  await until(othersListed, 'every other kind listed');
  await new Promise((r) => setTimeout(r, 50)); // their flushes done
  const flushesBefore = flushes;
  releaseFirst();
  await until(() => podsApplied === 1, 'the first page of pods applied');
  await new Promise((r) => setTimeout(r, 100)); // many flush intervals
  assert.equal(flushes, flushesBefore, 'pods arriving in a list still in progress schedule no flush');
  assert.equal(engine.getSnapshot().totals.pods, 0, 'no snapshot shows half a list');
  releaseRest();
  await engine.whenSynced();
  assert.equal(podsApplied, podCount, 'each pod applied once');
  assert.equal(engine.getSnapshot().totals.pods, podCount);
});
