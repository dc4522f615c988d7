// Issue 12's demo pieces wired into the simulated cluster: the default
// scenario has the GPU extras (MIG and DRA nodes and pods, a dcgm-exporter on
// every GPU node) without moving any original workload; the API server
// serves the pods proxy (the exporters' /metrics, RBAC pods/proxy get) and
// resource.k8s.io at the version a 1.32 server serves; the real kubectl lists
// the DRA kinds and reads the metrics through the proxy.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { startDemoCluster, type DemoCluster } from '../../demo/index.js';
import { ObjectStore } from '../../demo/object-store.js';
import { assembleControlPlane } from '../../demo/sim/assemble.js';
import { createDefaultScenario, defaultBehaviour } from '../../demo/sim/scenarios/default.js';
import { DRA_NODE, DRA_POD, GPU_OPERATOR_NAMESPACE, MIG_NODES, MIG_POD } from '../../demo/sim/scenarios/gpu-extras.js';
import { draResourceKeys } from '../../demo/kinds-dra.js';
import { R, type Pod } from '../../demo/sim/types.js';
import { kubectl, kubectlEnv } from '../e2e/kubectl-helpers.js';
import { isReady, startSim, until } from './sim-helpers.js';

type Json = Record<string, unknown>;

const GPU_NODES = Array.from({ length: 12 }, (_, i) => `gpu-node-${String(i + 1).padStart(2, '0')}`);
const DRA = '/apis/resource.k8s.io/v1beta1';

async function cluster(t: TestContext): Promise<DemoCluster> {
  const c = await startDemoCluster({ speed: 20, seed: 5 });
  t.after(() => c.stop());
  return c;
}

async function get(c: DemoCluster, path: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`${c.server}${path}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** The dcgm-exporter pod on a node, read over HTTP as a client finds it (label and field selectors). */
async function exporterOn(c: DemoCluster, node: string): Promise<string> {
  const q = `labelSelector=app%3Dnvidia-dcgm-exporter&fieldSelector=spec.nodeName%3D${node}`;
  const list = JSON.parse((await get(c, `/api/v1/namespaces/${GPU_OPERATOR_NAMESPACE}/pods?${q}`)).text) as {
    items: Pod[];
  };
  assert.equal(list.items.length, 1, `one exporter on ${node}`);
  return list.items[0].metadata.name;
}

test('the default scenario has the GPU extras: MIG and DRA nodes and pods, an exporter on each of 15 GPU nodes', (t) => {
  const f = startSim(t);
  const nodes = f.store.list(R.nodes).map((n) => n.metadata.name);
  for (const n of [...MIG_NODES, DRA_NODE]) assert.ok(nodes.includes(n), n);
  const mig = f.pod(MIG_POD.namespace, MIG_POD.name);
  const dra = f.pod(DRA_POD.namespace, DRA_POD.name);
  assert.equal(mig?.spec.nodeName, MIG_NODES[0]);
  assert.equal(dra?.spec.nodeName, DRA_NODE);
  assert.ok(mig && isReady(mig) && dra && isReady(dra));
  const exporters = f.pods(GPU_OPERATOR_NAMESPACE);
  assert.deepEqual(
    exporters.map((p) => p.spec.nodeName).sort(),
    [...GPU_NODES, ...MIG_NODES, DRA_NODE].sort(),
    'one exporter per GPU node, none on the CPU nodes',
  );
  assert.ok(exporters.every((p) => p.status.phase === 'Running' && p.status.podIP));
  const keys = draResourceKeys('v1beta1');
  assert.equal(f.store.list(keys.resourceClaims, DRA_POD.namespace).length, 1);
  assert.equal(f.store.list(keys.resourceSlices).length, 1);
  assert.deepEqual(
    f.store
      .list(keys.deviceClasses)
      .map((d) => d.metadata.name)
      .sort(),
    ['gpu.nvidia.com', 'mig.nvidia.com'],
  );
  assert.equal(f.sim.podProxy !== undefined, true, 'the simulation hands the server its proxy backend');
});

test("the default scenario's original workloads keep their names, uids and nodes with the extras wired in", async (t) => {
  const wired = startSim(t);
  const plainStore = new ObjectStore();
  const plain = assembleControlPlane(plainStore, {
    seed: 7,
    speed: 40,
    behaviour: defaultBehaviour,
    kubelet: { heartbeatMs: 20_000 },
    eventLimit: 5_000,
  });
  createDefaultScenario(plain);
  plain.rt.flush();
  t.after(() => plain.stop());
  const running = (store: ObjectStore, prefix: string) =>
    (store.list(R.pods) as Pod[]).filter((p) => p.metadata.name.startsWith(prefix) && p.status.phase === 'Running')
      .length;
  const settled = (store: ObjectStore) =>
    running(store, 'llama-pretrain-') >= 3 && running(store, 'bert-finetune-') >= 4 && running(store, 'stuck-') >= 4;
  await until('both clusters settled', () => settled(wired.store) && settled(plainStore));
  const placement = (store: ObjectStore) =>
    new Map(
      (store.list(R.pods) as Pod[]).map((p) => [
        `${p.metadata.namespace}/${p.metadata.name}`,
        `${p.metadata.uid} ${p.spec.nodeName ?? '-'}`,
      ]),
    );
  const before = placement(plainStore);
  const after = placement(wired.store);
  const extras = [...after.keys()].filter((k) => !before.has(k)).sort();
  assert.equal(extras.length, 15 + 2);
  assert.ok(extras.every((k) => k.startsWith(`${GPU_OPERATOR_NAMESPACE}/`) || k.startsWith('inference/')));
  let bound = 0;
  for (const [k, v] of before) {
    assert.ok(after.has(k), k);
    if (v.endsWith(' -')) continue;
    bound++;
    assert.equal(after.get(k), v, k);
  }
  assert.ok(bound >= 20, `${bound} bound pods compared`);
});

test('pods proxy over HTTP: the admin reads DCGM metrics, the researcher gets 403, a missing pod 404', async (t) => {
  const c = await cluster(t);
  const exporter = await exporterOn(c, 'gpu-node-01');
  const path = (name: string) => `/api/v1/namespaces/${GPU_OPERATOR_NAMESPACE}/pods/${name}:9400/proxy/metrics`;

  const ok = await get(c, path(exporter));
  assert.equal(ok.status, 200);
  assert.match(ok.type, /^text\/plain; version=0\.0\.4/);
  assert.match(ok.text, /^# HELP DCGM_FI_DEV_/m);
  assert.match(ok.text, /^DCGM_FI_DEV_GPU_UTIL\{[^}]*Hostname="gpu-node-01"[^}]*pod="[^"]+"[^}]*\} \d+/m);

  const denied = await get(c, `/restricted${path(exporter)}`);
  assert.equal(denied.status, 403);
  assert.match(denied.type, /^application\/json/);
  assert.deepEqual(JSON.parse(denied.text), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `pods "${exporter}" is forbidden: User "researcher" cannot get resource "pods/proxy" in API group "" in the namespace "${GPU_OPERATOR_NAMESPACE}"`,
    reason: 'Forbidden',
    details: { name: exporter, kind: 'pods' },
    code: 403,
  });
  // Not even in its own namespace: the researcher's Role grants pods and pods/log, not pods/proxy.
  assert.equal((await get(c, `/restricted/api/v1/namespaces/training/pods/x:9400/proxy/metrics`)).status, 403);

  const missing = await get(c, path('nvidia-dcgm-exporter-nope0'));
  assert.equal(missing.status, 404);
  assert.equal((JSON.parse(missing.text) as Json).message, 'pods "nvidia-dcgm-exporter-nope0" not found');
  assert.equal((await get(c, `/api/v1/namespaces/${GPU_OPERATOR_NAMESPACE}/pods/${exporter}:x/proxy`)).status, 400);
  const post = await fetch(`${c.server}${path(exporter)}`, { method: 'POST' });
  assert.equal(post.status, 405);
  // A pod that is not an exporter has nothing on 9400.
  const refused = await get(c, `/api/v1/namespaces/${DRA_POD.namespace}/pods/${DRA_POD.name}:9400/proxy/metrics`);
  assert.equal(refused.status, 503);
  assert.match(refused.text, /error trying to reach service: dial tcp [\d.]+:9400: connect: connection refused/);

  // The forbid fault turns the proxy off for the admin too (the "no permission" case of issue 12).
  c.faults.set({ forbid: ['pods/proxy'] });
  const faulted = await get(c, path(exporter));
  assert.equal(faulted.status, 403);
  assert.match(faulted.text, /User \\"kubernetes-admin\\" cannot get resource \\"pods\/proxy\\"/);
  c.faults.clear();
  assert.equal((await get(c, path(exporter))).status, 200);

  const core = JSON.parse((await get(c, '/api/v1')).text) as { resources: Array<{ name: string; verbs: string[] }> };
  assert.deepEqual(core.resources.find((r) => r.name === 'pods/proxy')?.verbs, [
    'create',
    'delete',
    'get',
    'patch',
    'update',
  ]);
});

test('resource.k8s.io over HTTP: v1beta1 only (a 1.32 server), lists, Tables and OpenAPI', async (t) => {
  const c = await cluster(t);
  const groups = JSON.parse((await get(c, '/apis')).text) as {
    groups: Array<{ name: string; versions: Array<{ version: string }>; preferredVersion: { version: string } }>;
  };
  const group = groups.groups.find((g) => g.name === 'resource.k8s.io');
  assert.deepEqual(
    group?.versions.map((v) => v.version),
    ['v1beta1'],
  );
  assert.equal(group?.preferredVersion.version, 'v1beta1');
  assert.equal((await get(c, '/apis/resource.k8s.io/v1/resourceclaims')).status, 404);
  const resources = JSON.parse((await get(c, DRA)).text) as { resources: Array<{ name: string; namespaced: boolean }> };
  assert.deepEqual(
    resources.resources.map((r) => `${r.name} ${r.namespaced}`),
    [
      'deviceclasses false',
      'resourceclaims true',
      'resourceclaims/status true',
      'resourceclaimtemplates true',
      'resourceslices false',
    ],
  );

  const claims = JSON.parse((await get(c, `${DRA}/namespaces/${DRA_POD.namespace}/resourceclaims`)).text) as {
    kind: string;
    items: Array<{ apiVersion: string; metadata: { name: string }; status: { reservedFor: Array<{ name: string }> } }>;
  };
  assert.equal(claims.kind, 'ResourceClaimList');
  assert.equal(claims.items.length, 1);
  assert.equal(claims.items[0].apiVersion, 'resource.k8s.io/v1beta1');
  assert.equal(claims.items[0].status.reservedFor[0].name, DRA_POD.name);
  const slices = await get(c, `${DRA}/resourceslices?fieldSelector=spec.nodeName%3D${DRA_NODE}`);
  assert.equal((JSON.parse(slices.text) as { items: unknown[] }).items.length, 1);

  const table = await fetch(`${c.server}${DRA}/resourceslices`, {
    headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
  });
  const t1 = (await table.json()) as { columnDefinitions: Array<{ name: string }>; rows: Array<{ cells: unknown[] }> };
  assert.deepEqual(
    t1.columnDefinitions.map((d) => d.name),
    ['Name', 'Node', 'Driver', 'Pool', 'Age'],
  );
  assert.deepEqual(t1.rows[0].cells.slice(1, 4), [DRA_NODE, 'gpu.nvidia.com', DRA_NODE]);

  const openapi = await get(c, '/openapi/v3/apis/resource.k8s.io/v1beta1');
  assert.equal(openapi.status, 200);
  const schemas = (JSON.parse(openapi.text) as { components: { schemas: Record<string, unknown> } }).components.schemas;
  for (const kind of ['DeviceClass', 'ResourceClaim', 'ResourceClaimTemplate', 'ResourceSlice'])
    assert.ok(schemas[`io.k8s.api.resource.v1beta1.${kind}`], kind);
});

test('kubectl: get resourceclaims,resourceslices,deviceclasses -A; the metrics through get --raw, 403 for the researcher', async (t) => {
  const c = await cluster(t);
  const k = await kubectlEnv();
  await writeFile(k.kubeconfigPath, c.kubeconfig());
  t.after(() => k.cleanup());
  const exporter = await exporterOn(c, 'gpu-node-02');
  const metrics = `/api/v1/namespaces/${GPU_OPERATOR_NAMESPACE}/pods/${exporter}:9400/proxy/metrics`;
  const [dra, raw, denied] = await Promise.all([
    kubectl(k.env, ['get', 'resourceclaims,resourceslices,deviceclasses', '-A']),
    kubectl(k.env, ['get', '--raw', metrics]),
    // --raw ignores the server URL's path, so the restricted user's prefix is part of the path.
    kubectl(k.env, ['--context', 'wlx-demo-restricted', 'get', '--raw', `/restricted${metrics}`]),
  ]);
  assert.equal(dra.code, 0, dra.stderr);
  assert.match(dra.stdout, /^NAMESPACE\s+NAME\s+STATE\s+AGE$/m);
  assert.match(
    dra.stdout,
    /^inference\s+resourceclaim\.resource\.k8s\.io\/dra-reranker-gpu-\w{5}\s+allocated,reserved\s+/m,
  );
  assert.match(dra.stdout, /^NAMESPACE\s+NAME\s+NODE\s+DRIVER\s+POOL\s+AGE$/m);
  assert.match(
    dra.stdout,
    /^\s+resourceslice\.resource\.k8s\.io\/gpu-dra-node-01-gpu\.nvidia\.com-\w{5}\s+gpu-dra-node-01\s+gpu\.nvidia\.com\s+gpu-dra-node-01\s+/m,
  );
  assert.match(dra.stdout, /^\s+deviceclass\.resource\.k8s\.io\/gpu\.nvidia\.com\s+\S+$/m);
  assert.match(dra.stdout, /^\s+deviceclass\.resource\.k8s\.io\/mig\.nvidia\.com\s+\S+$/m);

  assert.equal(raw.code, 0, raw.stderr);
  assert.match(raw.stdout, /^DCGM_FI_DEV_FB_USED\{[^}]*Hostname="gpu-node-02"/m);
  assert.notEqual(denied.code, 0);
  assert.match(
    denied.stderr,
    new RegExp(
      `Error from server \\(Forbidden\\): pods "${exporter}" is forbidden: User "researcher" cannot get resource "pods/proxy" in API group "" in the namespace "gpu-operator"`,
    ),
  );
});
