// The demo's GPU extras as pieces, each built here by hand (gpu-demo.test.ts
// tests them wired into startSimulation and the API server): MIG and DRA
// nodes and pods beside the default scenario
// (whose names, uids and placements they leave as they are), dcgm-exporter
// metrics made from the simulation, and the pods proxy that serves them,
// read with wlx's own parser, model and scraper.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { ObjectStore } from '../../demo/object-store.js';
import { assembleControlPlane, type ControlPlane } from '../../demo/sim/assemble.js';
import { createDefaultScenario, defaultBehaviour } from '../../demo/sim/scenarios/default.js';
import {
  addGpuExtras,
  DRA_NODE,
  DRA_POD,
  MIG_NODES,
  MIG_POD,
  type GpuExtras,
} from '../../demo/sim/scenarios/gpu-extras.js';
import { isDcgmExporterPod, SimulatedDcgm } from '../../demo/sim/dcgm.js';
import { draKinds, draResourceKeys, draVersionsFor, type DraVersion } from '../../demo/kinds-dra.js';
import { SERVED_KINDS } from '../../demo/kinds.js';
import {
  dcgmExporterBackend,
  parsePodProxyPath,
  podProxyAttributes,
  servePodProxy,
} from '../../demo/server/pod-proxy.js';
import { ADMIN_USER, authorise, forbiddenFor, RESTRICTED_USER } from '../../demo/server/rbac.js';
import { R, type Pod } from '../../demo/sim/types.js';
import { parseExposition } from '../../src/metrics/prometheus.js';
import { DCGM_SERIES, GpuHistory, readingsFromSamples } from '../../src/metrics/dcgm.js';
import { draCapacity, draGpuResources, podDraClaims, type DraLookup } from '../../src/model/dra.js';
import { gpuResourceMatcher, nodeGpuModel, nodeGpuResources, podGpuResources } from '../../src/model/gpu.js';
import { groupUtilisation, indexReadings, isIdle, stragglers } from '../../src/model/utilisation.js';
import type { GpuReading, KubeObject } from '../../src/model/types.js';
import { HttpKubeTransport } from '../../src/kube/client.js';
import { DcgmScraper } from '../../src/kube/dcgm-scrape.js';
import { until } from './sim-helpers.js';

const GPU_NODES = Array.from({ length: 12 }, (_, i) => `gpu-node-${String(i + 1).padStart(2, '0')}`);

interface Plane {
  store: ObjectStore;
  plane: ControlPlane;
  extras?: GpuExtras;
}

/** The default scenario as startSimulation builds it, with the extras added after it when asked. */
function start(t: TestContext, withExtras: DraVersion | null, seed = 7, speed = 40): Plane {
  const store = new ObjectStore();
  const plane = assembleControlPlane(store, {
    seed,
    speed,
    behaviour: defaultBehaviour,
    kubelet: { heartbeatMs: 20_000 },
    eventLimit: 5_000,
  });
  createDefaultScenario(plane);
  const extras = withExtras ? addGpuExtras(plane.rt, { seed, draVersion: withExtras, gpuNodes: GPU_NODES }) : undefined;
  plane.rt.flush();
  t.after(() => plane.stop());
  return { store, plane, ...(extras ? { extras } : {}) };
}

const pods = (p: Plane) => p.store.list(R.pods) as Pod[];
const running = (p: Plane, prefix: string, n: number) =>
  pods(p).filter((x) => x.metadata.name.startsWith(prefix) && x.status.phase === 'Running').length >= n;
const extraPod = (x: Pod) =>
  x.metadata.namespace === 'gpu-operator' || x.metadata.name === MIG_POD.name || x.metadata.name === DRA_POD.name;

async function settled(p: Plane): Promise<void> {
  await until('the live workloads running', () => running(p, 'llama-pretrain-', 3) && running(p, 'bert-finetune-', 4));
}

test('the extras leave the default scenario as it is: same pod names, uids and nodes', async (t) => {
  const base = start(t, null);
  const extra = start(t, 'v1beta1');
  await Promise.all([settled(base), settled(extra)]);
  const view = (p: Plane) =>
    new Map(
      pods(p)
        .filter((x) => !extraPod(x))
        .map((x) => [`${x.metadata.namespace}/${x.metadata.name}`, `${x.metadata.uid} ${x.spec.nodeName ?? '-'}`]),
    );
  const a = view(base);
  const b = view(extra);
  assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
  for (const [k, v] of a) if (!v.endsWith(' -')) assert.equal(b.get(k), v, k);
  // gpu-node-01 … 12 keep 96 whole GPUs; the new nodes add MIG slices and DRA devices only.
  const m = gpuResourceMatcher();
  let whole = 0;
  for (const n of extra.store.list(R.nodes)) whole += nodeGpuResources(n['status'], m)['nvidia.com/gpu']?.capacity ?? 0;
  assert.equal(whole, 96);
});

test('MIG nodes and the MIG pod: resources by name, the model from labels', (t) => {
  const p = start(t, 'v1beta1');
  const m = gpuResourceMatcher();
  const mig1 = p.store.get(R.nodes, undefined, MIG_NODES[0]) as unknown as KubeObject;
  const mig2 = p.store.get(R.nodes, undefined, MIG_NODES[1]) as unknown as KubeObject;
  assert.deepEqual(nodeGpuResources(mig1.status, m), { 'nvidia.com/mig-1g.10gb': { capacity: 56, allocatable: 56 } });
  assert.deepEqual(nodeGpuResources(mig2.status, m), { 'nvidia.com/mig-3g.40gb': { capacity: 16, allocatable: 16 } });
  assert.deepEqual(nodeGpuModel(mig1.metadata.labels), {
    product: 'NVIDIA-A100-SXM4-80GB',
    migStrategy: 'mixed',
    count: 8,
    memoryMiB: 81920,
  });
  const pod = p.store.get(R.pods, MIG_POD.namespace, MIG_POD.name) as Pod;
  assert.equal(pod.spec.nodeName, MIG_NODES[0]);
  assert.equal(pod.status.phase, 'Running');
  assert.deepEqual(podGpuResources(pod.spec, m), { 'nvidia.com/mig-1g.10gb': 1 });
  assert.deepEqual(p.extras?.nodes, [...MIG_NODES, DRA_NODE]);
  assert.equal(p.extras?.exporters.length, 15, 'one exporter on each of the 15 GPU nodes');
});

for (const version of ['v1', 'v1beta1'] as const) {
  test(`DRA (${version}): the pod's GPU from its generated claim; node capacity from the slice`, (t) => {
    const p = start(t, version);
    const keys = draResourceKeys(version);
    const lookup: DraLookup = (kind, ns, name) =>
      p.store.get(kind === 'ResourceClaim' ? keys.resourceClaims : keys.resourceClaimTemplates, ns, name);
    const pod = p.store.get(R.pods, DRA_POD.namespace, DRA_POD.name) as unknown as KubeObject;
    const claims = podDraClaims(pod, lookup);
    assert.equal(claims.length, 1);
    assert.equal(claims[0].state, 'allocated');
    assert.equal(claims[0].claim, `${p.extras!.claim.namespace}/${p.extras!.claim.name}`);
    assert.deepEqual(claims[0].resources, { 'dra:gpu.nvidia.com': 1 });
    assert.deepEqual(
      claims[0].devices.map((d) => `${d.driver} ${d.pool} ${d.device}`),
      [`gpu.nvidia.com ${DRA_NODE} gpu-0`],
    );
    assert.deepEqual(draGpuResources([...claims, ...claims]), { 'dra:gpu.nvidia.com': 1 });
    const cap = draCapacity(p.store.list(keys.resourceSlices), p.store.list(keys.deviceClasses));
    assert.deepEqual(cap.byNode.get(DRA_NODE), { 'dra:gpu.nvidia.com': 8 });
    assert.deepEqual(podGpuResources(pod.spec, gpuResourceMatcher()), {}, 'no device-plugin GPU besides the claim');
  });
}

test('the DRA kinds: discovery facts in demo/kinds.ts shape, versions by server minor', () => {
  const kinds = draKinds('v1');
  assert.deepEqual(
    kinds.map((k) => [k.kind, k.plural, k.namespaced]),
    [
      ['DeviceClass', 'deviceclasses', false],
      ['ResourceClaim', 'resourceclaims', true],
      ['ResourceClaimTemplate', 'resourceclaimtemplates', true],
      ['ResourceSlice', 'resourceslices', false],
    ],
  );
  const pod = SERVED_KINDS.find((k) => k.kind === 'Pod')!;
  for (const k of kinds) assert.deepEqual(Object.keys(k).sort(), Object.keys(pod).sort());
  assert.deepEqual(draVersionsFor(32), ['v1beta1']);
  assert.deepEqual(draVersionsFor(34), ['v1', 'v1beta2', 'v1beta1']);
  assert.deepEqual(draVersionsFor(31), []);
});

/** One scrape of every GPU node's simulated exporter, as readings. */
function scrapeAll(p: Plane, dcgm: SimulatedDcgm, history: GpuHistory): GpuReading[] {
  const at = p.plane.rt.clock.now();
  const out: GpuReading[] = [];
  for (const node of [...GPU_NODES, ...MIG_NODES, DRA_NODE]) {
    const text = dcgm.metricsText(node);
    assert.ok(text, node);
    const parsed = parseExposition(text, { names: DCGM_SERIES });
    assert.deepEqual(parsed.problems, []);
    out.push(...history.record(node, readingsFromSamples(parsed.samples, at, node), at));
  }
  return out;
}

test('simulated dcgm-exporter: training busy, broken-finetune idle, a straggler, free GPUs without pods', async (t) => {
  const p = start(t, 'v1beta1');
  await settled(p);
  await until(
    'llama-pretrain Ready',
    () =>
      pods(p).filter((x) => x.metadata.name.startsWith('llama-pretrain-') && x.status.containerStatuses?.[0]?.ready)
        .length === 3,
  );
  const dcgm = new SimulatedDcgm(p.store, p.plane.rt.clock, 7);
  assert.equal(dcgm.metricsText('cpu-node-01'), null, 'no GPUs, no exporter text');
  const history = new GpuHistory();
  let readings = scrapeAll(p, dcgm, history);
  const started = p.plane.rt.clock.now();
  // Scrape for over a simulated minute (40× speed: ~2 s).
  while (p.plane.rt.clock.now() - started < 75_000) {
    await new Promise((r) => setTimeout(r, 100));
    readings = scrapeAll(p, dcgm, history);
  }
  const now = p.plane.rt.clock.now();
  const index = indexReadings(readings);
  const byPrefix = (prefix: string) =>
    [...index.byPod.entries()].filter(([k]) => k.startsWith(prefix)).flatMap(([, r]) => r);

  // 96 whole GPUs + 56 + 16 MIG instances + 8 DRA devices, each once.
  assert.equal(readings.length, 96 + 56 + 16 + 8);
  const wholeBusy = readings.filter((r) => r.migProfile === null && r.pods.length > 0);
  assert.ok(wholeBusy.length >= 58, `${wholeBusy.length} GPUs held`);
  for (const r of readings.filter((x) => x.pods.length === 0)) {
    assert.equal(r.utilisation, 0, `free ${r.key}`);
    assert.equal(r.memoryUsedBytes, 0);
  }
  for (const prefix of ['training/bert-finetune-', 'research/resnet-tf-', 'training/llama-pretrain-leader-']) {
    const rs = byPrefix(prefix);
    assert.ok(rs.length > 0, prefix);
    for (const r of rs) assert.ok(r.utilisation! >= 70 && r.utilisation! <= 95, `${prefix}: ${r.utilisation}`);
  }
  const broken = byPrefix('training/broken-finetune-');
  assert.equal(broken.length, 3);
  for (const r of broken) assert.ok(r.utilisation! <= 2);
  const idleBroken = broken.filter((r) => isIdle(r, now));
  assert.ok(idleBroken.length >= 2, `${idleBroken.length} of broken-finetune's GPUs idle for a minute`);
  // The straggler: llama-pretrain's second worker, far below the rest.
  const llama = [...index.byPod.keys()].filter((k) => k.startsWith('training/llama-pretrain-'));
  const entries = llama.map((pod) => ({ pod, utilisation: groupUtilisation([pod], index, now).utilisation }));
  assert.deepEqual(
    stragglers(entries).map((s) => s.pod.replace(/-[a-z0-9]{5}$/, '')),
    ['training/llama-pretrain-worker-1-0'],
  );
  // MIG: the slice's pod, with profile and instance; DRA: the device's UUID is the slice's.
  const mig = index.byPod.get(`${MIG_POD.namespace}/${MIG_POD.name}`);
  assert.equal(mig?.length, 1);
  assert.equal(mig[0].migProfile, '1g.10gb');
  assert.equal(mig[0].node, MIG_NODES[0]);
  assert.ok(mig[0].utilisation! >= 25 && mig[0].utilisation! <= 90);
  const dra = index.byPod.get(`${DRA_POD.namespace}/${DRA_POD.name}`);
  assert.equal(dra?.length, 1);
  const slice = p.store.list(draResourceKeys('v1beta1').resourceSlices)[0];
  const devices = (
    slice['spec'] as { devices: { name: string; basic: { attributes: { uuid: { string: string } } } }[] }
  ).devices;
  assert.equal(dra[0].uuid, devices.find((d) => d.name === 'gpu-0')!.basic.attributes.uuid.string);
});

test('simulated metrics are the same for the same seed and simulated step', (t) => {
  const p = start(t, 'v1beta1', 11, 1);
  const a = new SimulatedDcgm(p.store, p.plane.rt.clock, 11);
  const b = new SimulatedDcgm(p.store, p.plane.rt.clock, 11);
  assert.equal(a.metricsText('gpu-node-01'), b.metricsText('gpu-node-01'));
  assert.match(a.metricsText(MIG_NODES[1])!, /GPU_I_PROFILE="3g\.40gb",GPU_I_ID="2"/);
});

test('the pods proxy: paths, RBAC pods/proxy get, 404 / 503 / metrics; scraped by wlx through it', async (t) => {
  assert.deepEqual(parsePodProxyPath(['api', 'v1', 'namespaces', 'ns', 'pods', 'p:9400', 'proxy', 'metrics']), {
    namespace: 'ns',
    name: 'p',
    port: 9400,
    scheme: 'http',
    path: '/metrics',
  });
  assert.deepEqual(parsePodProxyPath(['api', 'v1', 'namespaces', 'ns', 'pods', 'https:p:443', 'proxy']), {
    namespace: 'ns',
    name: 'p',
    port: 443,
    scheme: 'https',
    path: '/',
  });
  assert.equal(
    (parsePodProxyPath(['api', 'v1', 'namespaces', 'ns', 'pods', 'p:x', 'proxy']) as { code: number }).code,
    400,
  );
  assert.equal(parsePodProxyPath(['api', 'v1', 'namespaces', 'ns', 'pods', 'p', 'log']), null);
  const attrs = podProxyAttributes({ namespace: 'training', name: 'p', port: 9400, scheme: 'http', path: '/metrics' });
  assert.ok(authorise(ADMIN_USER, attrs));
  assert.equal(authorise(RESTRICTED_USER, attrs), undefined, 'the researcher may read pods and logs, not proxy');
  assert.match(forbiddenFor(RESTRICTED_USER, attrs).message, /cannot get resource "pods\/proxy"/);

  const p = start(t, 'v1beta1');
  const dcgm = new SimulatedDcgm(p.store, p.plane.rt.clock, 7);
  const backend = dcgmExporterBackend(isDcgmExporterPod, (node) => dcgm.metricsText(node));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const restricted = url.pathname.startsWith('/restricted/');
    const segs = url.pathname
      .replace(/^\/restricted/, '')
      .split('/')
      .filter(Boolean)
      .map(decodeURIComponent);
    const send = (s: { code: number }) => {
      res.writeHead(s.code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(s));
    };
    const r = parsePodProxyPath(segs);
    if (r === null) return send({ code: 404 });
    if ('kind' in r) return send(r);
    const user = restricted ? RESTRICTED_USER : ADMIN_USER;
    if (!authorise(user, podProxyAttributes(r))) return send(forbiddenFor(user, podProxyAttributes(r)));
    const failure = servePodProxy(res, r, p.store.get(R.pods, r.namespace, r.name), backend);
    if (failure) send(failure);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    const res = await fetch(base + path);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const exporter = p.extras!.exporters[0];
  const ok = await get(`/api/v1/namespaces/gpu-operator/pods/${exporter.name}:9400/proxy/metrics`);
  assert.equal(ok.status, 200);
  assert.match(ok.type ?? '', /^text\/plain; version=0\.0\.4/);
  assert.match(ok.text, /^# HELP DCGM_FI_DEV_SM_CLOCK/);
  assert.match(ok.text, new RegExp(`Hostname="${exporter.node}"`));
  assert.equal((await get(`/api/v1/namespaces/gpu-operator/pods/${exporter.name}:9400/proxy/other`)).status, 404);
  const refused = await get(`/api/v1/namespaces/gpu-operator/pods/${exporter.name}:8080/proxy/metrics`);
  assert.equal(refused.status, 503);
  assert.match(refused.text, /error trying to reach service: dial tcp [\d.]+:8080: connect: connection refused/);
  assert.equal((await get('/api/v1/namespaces/gpu-operator/pods/nope:9400/proxy/metrics')).status, 404);
  const pending = pods(p).find((x) => x.metadata.name.startsWith('stuck-pretrain-') && !x.spec.nodeName);
  if (pending)
    assert.equal(
      (await get(`/api/v1/namespaces/training/pods/${pending.metadata.name}:9400/proxy/metrics`)).status,
      503,
    );
  assert.equal(
    (await get(`/restricted/api/v1/namespaces/gpu-operator/pods/${exporter.name}:9400/proxy/metrics`)).status,
    403,
  );

  // wlx's scraper through this proxy: every GPU node's readings, and the forbidden notice for the researcher.
  const transport = (path: string) => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: base + path, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    return new HttpKubeTransport(kc, base + path, 'x');
  };
  const admin = transport('');
  const researcher = transport('/restricted');
  t.after(() => {
    admin.close();
    researcher.close();
  });
  const all = () => p.store.list(R.pods) as unknown as KubeObject[];
  const state = await new DcgmScraper(admin, all).scrapeOnce();
  assert.equal(state.exporters, 15);
  assert.equal(state.notice, null);
  assert.equal(state.readings.length, 96 + 56 + 16 + 8);
  const denied = await new DcgmScraper(researcher, all).scrapeOnce();
  assert.equal(denied.notice?.kind, 'forbidden');
  assert.deepEqual(denied.readings, []);
});
