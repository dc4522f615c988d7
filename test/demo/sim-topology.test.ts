// The simulated cluster's topology labels (issue 13): the default scenario's
// gpu-node-01 … 12 sit in 2 racks and 3 NVLink domains, and the scheduler's
// bin-packing splits llama-pretrain's workers across two NVLink domains
// although one had room (read through the model, as wlx reads it); the scale
// scenario has 18-node NVLink domains, racks of two and 2–4 zones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { R, type NodeObject } from '../../demo/sim/types.js';
import { CLIQUE_LABEL, RACK_LABEL } from '../../demo/sim/scenarios/cluster.js';
import { DRA_NODE, MIG_NODES } from '../../demo/sim/scenarios/gpu-extras.js';
import { NVLINK_DOMAIN_NODES, scaleTopology } from '../../demo/sim/scenarios/scale.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import { buildOfflineModel } from '../../src/kube/offline.js';
import { treePods } from '../../src/model/tree-pods.js';
import { roleName } from '../../src/model/role-name.js';
import {
  NVLINK_DOMAIN_KEY,
  REGION_KEY,
  ZONE_KEY,
  roleTopologyJson,
  spreadOf,
  spreadSentence,
  topologyIndex,
  topologyKeysInEffect,
  workloadTopologyJson,
} from '../../src/model/topology.js';
import type { RoleTree } from '../../src/model/types.js';
import { isReady, startSim, until } from './sim-helpers.js';

const CLIQUE_VALUE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}\.\d+$/;

function labelsOf(nodes: NodeObject[], name: string): Record<string, string> {
  const n = nodes.find((x) => x.metadata.name === name);
  assert.ok(n, name);
  return n.metadata.labels ?? {};
}

test('default scenario: gpu-node-01 … 12 in 2 racks and 3 NVLink domains, each domain in one rack and zone', (t) => {
  const f = startSim(t);
  const nodes = f.store.list(R.nodes) as NodeObject[];
  const gpuNodes = Array.from({ length: 12 }, (_, i) => `gpu-node-${String(i + 1).padStart(2, '0')}`);
  const racks = new Map<string, string>();
  const zones = new Map<string, string>();
  for (const name of gpuNodes) {
    const l = labelsOf(nodes, name);
    assert.match(l[CLIQUE_LABEL] ?? '', CLIQUE_VALUE, name);
    assert.ok(l[RACK_LABEL], name);
    // An NVLink domain never straddles racks or zones.
    assert.equal(racks.get(l[CLIQUE_LABEL]) ?? l[RACK_LABEL], l[RACK_LABEL], name);
    assert.equal(zones.get(l[RACK_LABEL]) ?? l[ZONE_KEY], l[ZONE_KEY], name);
    racks.set(l[CLIQUE_LABEL], l[RACK_LABEL]);
    zones.set(l[RACK_LABEL], l[ZONE_KEY]);
  }
  assert.equal(new Set(racks.values()).size, 2);
  assert.equal(racks.size, 3);
  // gpu-node-07 and -08 (where llama-pretrain lands) share a rack but not an NVLink domain.
  const [n7, n8] = [labelsOf(nodes, 'gpu-node-07'), labelsOf(nodes, 'gpu-node-08')];
  assert.equal(n7[RACK_LABEL], n8[RACK_LABEL]);
  assert.notEqual(n7[CLIQUE_LABEL], n8[CLIQUE_LABEL]);
  // CPU nodes and the GPU extras' nodes carry a zone only.
  for (const name of ['cpu-node-01', 'cpu-node-02', ...MIG_NODES, DRA_NODE]) {
    const l = labelsOf(nodes, name);
    assert.ok(l[ZONE_KEY], name);
    assert.equal(l[RACK_LABEL], undefined, name);
    assert.equal(l[CLIQUE_LABEL], undefined, name);
  }
});

test('default scenario: llama-pretrain is the one job split across NVLink domains although one had room', async (t) => {
  const f = startSim(t);
  await until('llama-pretrain running', () => {
    const pods = f.pods('training').filter((p) => p.metadata.name.startsWith('llama-pretrain-'));
    return pods.length === 3 && pods.every(isReady);
  });
  const objects = f.store.resourceKeys().flatMap((k) => f.store.list(k)) as unknown as Record<string, unknown>[];
  const model = buildOfflineModel(objects, loadDefinitions({ envPaths: '' }), { includeNested: false });
  const nodes = model.store.nodes();
  const keys = topologyKeysInEffect(undefined, nodes);
  assert.deepEqual(keys, [REGION_KEY, ZONE_KEY, RACK_LABEL, NVLINK_DOMAIN_KEY]);
  const index = topologyIndex(nodes, keys);

  const split: string[] = [];
  const walk = (w: string, roles: readonly RoleTree[]): void => {
    for (const r of roles) {
      const j = roleTopologyJson(r, index);
      if (j.splitAcross?.length) split.push(`${w} ${roleName(r)}: ${j.splitAcross.join(',')}`);
      walk(w, r.roles);
    }
  };
  const workloads = model.store.workloads();
  for (const w of workloads) {
    const name = `${w.namespace}/${w.name}`;
    const j = workloadTopologyJson(w, index);
    if (j.splitAcross?.length) split.push(`${name}: ${j.splitAcross.join(',')}`);
    walk(name, w.roles);
  }
  assert.deepEqual(split, [`training/llama-pretrain worker: ${NVLINK_DOMAIN_KEY}`]);

  const llama = workloads.find((w) => w.name === 'llama-pretrain');
  assert.ok(llama);
  assert.equal(spreadSentence(spreadOf(treePods(llama), index), keys), '2 nodes · 2 NVLink domains · 1 rack');
  // The other multi-node jobs each sit in one NVLink domain.
  for (const name of ['llama-70b', 'bert-finetune', 'stuck-pretrain']) {
    const w = workloads.find((x) => x.name === name);
    assert.ok(w, name);
    assert.equal(workloadTopologyJson(w, index).spread?.[NVLINK_DOMAIN_KEY], 1, name);
  }
});

test('scale scenario: 18-node NVLink domains, racks of two domains, racks dealt over 2–4 zones', (t) => {
  const place = (n: number) => Array.from({ length: n }, (_, i) => scaleTopology(i, n));
  const check = (n: number, zones: number): void => {
    const all = place(n);
    const perDomain = new Map<string, number>();
    const rackOf = new Map<string, string>();
    const zoneOf = new Map<string, string>();
    for (const p of all) {
      assert.match(p.clique, CLIQUE_VALUE);
      perDomain.set(p.clique, (perDomain.get(p.clique) ?? 0) + 1);
      assert.equal(rackOf.get(p.clique) ?? p.rack, p.rack);
      assert.equal(zoneOf.get(p.rack) ?? p.zone, p.zone);
      rackOf.set(p.clique, p.rack);
      zoneOf.set(p.rack, p.zone);
    }
    const sizes = [...perDomain.values()];
    assert.ok(
      sizes.slice(0, -1).every((s) => s === NVLINK_DOMAIN_NODES),
      `${n} nodes: domains of ${sizes.join(',')}`,
    );
    assert.equal(perDomain.size, Math.ceil(n / NVLINK_DOMAIN_NODES));
    assert.equal(new Set(rackOf.values()).size, Math.ceil(perDomain.size / 2));
    assert.equal(new Set(zoneOf.values()).size, zones, `${n} nodes`);
  };
  check(10, 1);
  check(72, 2);
  check(100, 3);
  check(144, 4);
  check(5000, 4);

  const f = startSim(t, { scenario: 'scale', nodes: 40, workloads: 4, podsPerWorkload: 4, speed: 1 });
  const nodes = f.store.list(R.nodes) as NodeObject[];
  const cliques = new Set(nodes.map((n) => n.metadata.labels?.[CLIQUE_LABEL]));
  assert.equal(cliques.size, 3);
  assert.ok(nodes.every((n) => n.metadata.labels?.[RACK_LABEL] && n.metadata.labels[ZONE_KEY]));
});
