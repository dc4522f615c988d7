// @kubernetes/client-node 1.4 against the demo API server as a metadata-only
// client: the typed list API with the Accept header of client-go's metadata
// client (set through the request middleware client-node's configuration
// offers, setHeaderOptions) gets a PartialObjectMetadataList; and the restricted kubeconfig
// context, whose token client-node does send over http, gets the real 403.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, CoreV1Api, KubeConfig, setHeaderOptions } from '@kubernetes/client-node';
import { startFixture } from '../demo/server-watch-helpers.js';

const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

test('client-node: a metadata-only list of nodes and pods through the typed API', async (t) => {
  const f = await startFixture();
  t.after(() => f.cluster.stop());
  const kc = new KubeConfig();
  kc.loadFromString(f.cluster.kubeconfig());
  const api = kc.makeApiClient(CoreV1Api);
  // client-node's own helper for a per-request header (a request middleware).
  const metadataOnly = setHeaderOptions('Accept', METADATA_LIST_ACCEPT);
  const nodes = await api.listNode({}, metadataOnly);
  assert.equal(nodes.kind, 'PartialObjectMetadataList');
  assert.equal(nodes.apiVersion, 'meta.k8s.io/v1');
  assert.ok(nodes.items.length >= 2);
  for (const n of nodes.items) {
    assert.ok(n.metadata?.name && n.metadata.uid && n.metadata.resourceVersion);
    assert.equal(n.spec, undefined, 'no spec in a metadata-only list');
    assert.equal(n.status, undefined, 'no status in a metadata-only list');
  }
  const pods = await api.listPodForAllNamespaces({ labelSelector: 'app=trainer' }, metadataOnly);
  assert.deepEqual(pods.items.map((p) => p.metadata?.name).sort(), ['trainer-0', 'trainer-1', 'trainer-2']);
  const plain = await api.listNode();
  assert.equal(plain.kind, 'NodeList');
  assert.ok(plain.items[0].status);
});

test('client-node: the restricted context lists its namespace and gets 403 cluster-wide', async (t) => {
  const f = await startFixture({ token: 'admin-token' });
  t.after(() => f.cluster.stop());
  const kc = new KubeConfig();
  kc.loadFromString(f.cluster.kubeconfig());
  kc.setCurrentContext('wlx-demo-restricted');
  const api = kc.makeApiClient(CoreV1Api);
  const mine = await api.listNamespacedPod({ namespace: 'training' });
  assert.equal(mine.kind, 'PodList');
  await assert.rejects(
    () => api.listPodForAllNamespaces(),
    (err: unknown) => {
      assert.ok(err instanceof ApiException);
      assert.equal(err.code, 403);
      assert.match(String(err.body), /User \\?"researcher\\?" cannot list resource \\?"pods\\?"/);
      return true;
    },
  );
});
