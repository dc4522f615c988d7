// Topology domains (src/model/topology.ts) on plain NodeSummary / PodSummary objects: the keys in
// effect (defaults, --topology-key, Kueue Topology levels), domain grouping with GPU totals, spread
// and its sentence, the split rule, and the `wlx get -o json` fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  HOSTNAME_KEY,
  NVLINK_DOMAIN_KEY,
  REGION_KEY,
  ZONE_KEY,
  defaultTopologyKeys,
  groupByDomain,
  kueueTopologyLevels,
  nodeTopologyJson,
  placementJson,
  roleTopologyJson,
  shortDomainValue,
  splitAcross,
  spreadOf,
  spreadSentence,
  topologyIndex,
  topologyKeysInEffect,
  workloadTopologyJson,
  type TopologyDomain,
} from '../../src/model/topology.js';
import type { KubeObject, NodeSummary, PodSummary, RoleTree } from '../../src/model/types.js';
import { node, tree } from './incident-fixtures.js';

const RACK = 'network.topology.kubernetes.io/rack';
const BLOCK = 'network.topology.kubernetes.io/block';
const KEYS = [REGION_KEY, ZONE_KEY, RACK, NVLINK_DOMAIN_KEY];

/** An 8-GPU node with `requested` GPUs taken, at zone / rack / clique (null: unlabelled). */
function gpuNode(
  name: string,
  requested: number,
  where: { zone?: string | null; rack?: string | null; clique?: string | null } = {},
  extra: Partial<NodeSummary> = {},
): NodeSummary {
  const labels: Record<string, string> = { [REGION_KEY]: 'r1', [HOSTNAME_KEY]: name };
  const zone = where.zone === undefined ? 'z1' : where.zone;
  if (zone !== null) labels[ZONE_KEY] = zone;
  if (where.rack) labels[RACK] = where.rack;
  if (where.clique) labels[NVLINK_DOMAIN_KEY] = where.clique;
  return node(name, 8 - requested, { labels, ...extra });
}

function pod(
  name: string,
  nodeName: string | null,
  gpus: number,
  phase = nodeName ? 'Running' : 'Pending',
): PodSummary {
  return {
    namespace: 'ns',
    name,
    uid: `uid-${name}`,
    status: phase,
    phase,
    ready: phase === 'Running',
    node: nodeName,
    gpus,
    restarts: 0,
    reason: null,
    readyContainers: '1/1',
    message: null,
    createdAt: null,
  };
}

/** A role of `pods` with `roles` below it (the fixture tree's role shape). */
function role(component: string, pods: PodSummary[], roles: RoleTree[] = []): RoleTree {
  return { ...tree('w', [{ component, desired: pods.length, pods }]).roles[0], roles };
}

test('keys in effect: the defaults some node carries, most general first; --topology-key as given, never hostname', () => {
  const nodes = [gpuNode('a', 0, { rack: 'r1', clique: 'c1' }), { labels: { [BLOCK]: 'b1' } }];
  assert.deepEqual(topologyKeysInEffect(undefined, nodes), [REGION_KEY, ZONE_KEY, BLOCK, RACK, NVLINK_DOMAIN_KEY]);
  assert.deepEqual(topologyKeysInEffect([], [{ labels: { [ZONE_KEY]: 'z' } }]), [ZONE_KEY]);
  assert.deepEqual(topologyKeysInEffect(undefined, [{ labels: {} }]), []);
  assert.deepEqual(topologyKeysInEffect(['example.com/pod', ZONE_KEY, HOSTNAME_KEY, ZONE_KEY], nodes), [
    'example.com/pod',
    ZONE_KEY,
  ]);
});

test('Kueue Topology levels: read per object in name order, merged between zone and the NVLink domain, hostname dropped', () => {
  const topology = (name: string, levels: unknown[]): KubeObject => ({
    apiVersion: 'kueue.x-k8s.io/v1beta2',
    kind: 'Topology',
    metadata: { name, uid: name },
    spec: { levels },
  });
  const levels = kueueTopologyLevels([
    topology('gpu-b', [{ nodeLabel: 'example.com/block' }, { nodeLabel: 'example.com/rack' }, { nodeLabel: '' }]),
    topology('gpu-a', [
      { nodeLabel: ZONE_KEY },
      { nodeLabel: 'example.com/rack' },
      { nodeLabel: NVLINK_DOMAIN_KEY },
      { nodeLabel: HOSTNAME_KEY },
    ]),
    topology('broken', [null, 'x', { label: 'y' }]),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', uid: 'c' }, spec: { levels: [{ nodeLabel: 'z' }] } },
  ]);
  assert.deepEqual(levels, [
    [],
    [ZONE_KEY, 'example.com/rack', NVLINK_DOMAIN_KEY, HOSTNAME_KEY],
    ['example.com/block', 'example.com/rack'],
  ]);
  const keys = defaultTopologyKeys(levels);
  assert.deepEqual(keys.slice(0, 4), [REGION_KEY, ZONE_KEY, 'example.com/rack', 'example.com/block']);
  assert.equal(keys[keys.length - 1], NVLINK_DOMAIN_KEY);
  assert.ok(!keys.includes(HOSTNAME_KEY));
  assert.equal(keys.filter((k) => k === NVLINK_DOMAIN_KEY || k === ZONE_KEY).length, 2);
  // In effect: only what nodes carry, in the merged order.
  const nodes = [{ labels: { [ZONE_KEY]: 'z', 'example.com/block': 'b', 'example.com/rack': 'r', [RACK]: 'x' } }];
  assert.deepEqual(topologyKeysInEffect(undefined, nodes, [['example.com/block', 'example.com/rack', HOSTNAME_KEY]]), [
    ZONE_KEY,
    'example.com/block',
    'example.com/rack',
    RACK,
  ]);
});

test('domain grouping: a tree of domains with GPU totals; gaps are null domains, nodes never dropped', () => {
  const nodes = [
    gpuNode('n10', 8, { rack: 'rack-2', clique: 'c2' }),
    gpuNode('n2', 2, { rack: 'rack-1', clique: 'c1' }),
    gpuNode('n1', 4, { rack: 'rack-1', clique: 'c1' }, { unschedulable: true }),
    gpuNode('n3', 0, { rack: 'rack-1', clique: 'c10' }, { ready: false }),
    gpuNode('n4', 9, { rack: null, clique: 'c3' }), // over-committed: free counts 0, not −1
    gpuNode('cpu', 0, {}, { gpuCapacity: 0, gpuAllocatable: 0, gpuRequested: 0 }),
    node('bare', 8, { labels: {} }),
  ];
  const g = groupByDomain(nodes, KEYS);
  assert.deepEqual(g.keys, KEYS);
  assert.deepEqual(
    g.nodes.map((n) => n.name),
    ['bare'],
  );
  assert.equal(g.nodeCount, 7);
  assert.deepEqual(g.gpus, { capacity: 48, allocatable: 48, requested: 23, free: 6 + 4 + 8 + 8 });
  assert.equal(g.notReady, 1);
  assert.equal(g.cordoned, 1);

  const flat = (d: TopologyDomain): string[] => [
    `${d.path.join('/')} ${d.nodeCount} ${d.gpus.requested}/${d.gpus.allocatable} free ${d.gpus.free} [${d.nodes.map((n) => n.name).join(',')}]`,
    ...d.domains.flatMap(flat),
  ];
  assert.deepEqual(g.domains.flatMap(flat), [
    'r1 6 23/40 free 18 []',
    'r1/z1 6 23/40 free 18 [cpu]',
    'r1/z1/rack-1 3 6/24 free 18 []',
    'r1/z1/rack-1/c1 2 6/16 free 10 [n1,n2]',
    'r1/z1/rack-1/c10 1 0/8 free 8 [n3]',
    'r1/z1/rack-2 1 8/8 free 0 []',
    'r1/z1/rack-2/c2 1 8/8 free 0 [n10]',
    'r1/z1/ 1 9/8 free 0 []',
    'r1/z1//c3 1 9/8 free 0 [n4]',
  ]);
  const noRack = g.domains[0].domains[0].domains[2];
  assert.equal(noRack.key, RACK);
  assert.equal(noRack.value, null);
  assert.equal(g.domains[0].domains[0].domains[0].domains[0].key, NVLINK_DOMAIN_KEY);
  assert.equal(g.domains[0].domains[0].domains[0].cordoned, 1);
  assert.equal(g.domains[0].domains[0].domains[0].notReady, 1);
  // No keys: every node at the top.
  assert.equal(groupByDomain(nodes, []).nodes.length, 7);
});

test('spread: distinct values per key over the nodes of its bound pods; unbound pods and unlabelled nodes add none', () => {
  const nodes = [
    gpuNode('a', 8, { rack: 'r1', clique: 'c1' }),
    gpuNode('b', 8, { rack: 'r1', clique: 'c2' }),
    gpuNode('c', 8, { rack: 'r2', clique: 'c3' }),
    gpuNode('cpu', 0, { zone: 'z2' }),
  ];
  const index = topologyIndex(nodes, KEYS);
  const pods = [pod('p0', 'a', 4), pod('p1', 'a', 4), pod('p2', 'b', 8), pod('p3', null, 8), pod('head', 'cpu', 0)];
  const s = spreadOf(pods, index);
  assert.deepEqual(s, { nodes: 3, byKey: { [REGION_KEY]: 1, [ZONE_KEY]: 2, [RACK]: 1, [NVLINK_DOMAIN_KEY]: 2 } });
  // A failed pod left on c does not widen a running group; a finished group's spread is where it ran.
  assert.equal(spreadOf([...pods, pod('old', 'c', 8, 'Failed')], index).byKey[RACK], 1);
  assert.deepEqual(spreadOf([pod('d0', 'a', 8, 'Succeeded'), pod('d1', 'c', 8, 'Failed')], index).byKey, {
    [REGION_KEY]: 1,
    [ZONE_KEY]: 1,
    [RACK]: 2,
    [NVLINK_DOMAIN_KEY]: 2,
  });
  assert.deepEqual(spreadOf([pod('p', null, 8)], index), {
    nodes: 0,
    byKey: { [REGION_KEY]: 0, [ZONE_KEY]: 0, [RACK]: 0, [NVLINK_DOMAIN_KEY]: 0 },
  });
});

test('spread sentence: most specific level first, down to the level above the most general split', () => {
  const say = (nodes: number, counts: number[]) =>
    spreadSentence({ nodes, byKey: Object.fromEntries(KEYS.map((k, i) => [k, counts[i]])) }, KEYS);
  assert.equal(say(4, [1, 1, 1, 2]), '4 nodes · 2 NVLink domains · 1 rack');
  assert.equal(say(8, [1, 2, 3, 4]), '8 nodes · 4 NVLink domains · 3 racks · 2 zones · 1 region');
  assert.equal(say(1, [1, 1, 1, 1]), '1 node · 1 NVLink domain');
  // Nodes without NVLink / rack labels (a CPU head node): the levels they do carry still speak.
  assert.equal(say(2, [1, 2, 1, 1]), '2 nodes · 1 NVLink domain · 1 rack · 2 zones · 1 region');
  assert.equal(say(2, [1, 1, 0, 0]), '2 nodes · 1 zone');
  assert.equal(say(0, [0, 0, 0, 0]), '0 nodes');
  assert.equal(spreadSentence({ nodes: 3, byKey: {} }, []), '3 nodes');
});

test('split rule: split across NVLink domains though one had room → flagged, with the domain that could hold it', () => {
  // c1: a (4 of ours + 4 other), b (8 other); c2: c (4 of ours), d (4 free). Ours: 2 pods × 4 GPUs.
  const nodes = [
    gpuNode('a', 8, { rack: 'r1', clique: 'c1' }),
    gpuNode('b', 8, { rack: 'r1', clique: 'c1' }),
    gpuNode('c', 4, { rack: 'r1', clique: 'c2' }),
    gpuNode('d', 4, { rack: 'r1', clique: 'c2' }),
  ];
  const index = topologyIndex(nodes, KEYS);
  const worker = [pod('w0', 'a', 4), pod('w1', 'c', 4)];
  assert.deepEqual(splitAcross(worker, index), [
    { key: NVLINK_DOMAIN_KEY, domains: 2, couldFit: 'c2', gpus: 8, room: 12, inside: 4 },
  ]);
  // Not judged at region / zone: a group split over zones that one zone could hold is not this rule's.
  const zones = [gpuNode('x', 4, { zone: 'z1' }), gpuNode('y', 4, { zone: 'z2' })];
  assert.deepEqual(splitAcross([pod('x0', 'x', 4), pod('y0', 'y', 4)], topologyIndex(zones, KEYS)), []);
});

test('split rule: no domain can hold it → not flagged; a pending pod counts; GPUs must pack whole per node', () => {
  const nodes = [
    gpuNode('a', 8, { clique: 'c1' }),
    gpuNode('b', 6, { clique: 'c1' }),
    gpuNode('c', 4, { clique: 'c2' }),
    gpuNode('d', 5, { clique: 'c2' }),
  ];
  const index = topologyIndex(nodes, KEYS);
  // Ours: a 4 + c 4. c2 offers c 8 (4 ours) + d 3 = 11 ≥ 8: flagged.
  assert.equal(splitAcross([pod('w0', 'a', 4), pod('w1', 'c', 4)], index).length, 1);
  // With a pending 4-GPU pod: 12 wanted; c2 has 11. Not flagged.
  assert.deepEqual(splitAcross([pod('w0', 'a', 4), pod('w1', 'c', 4), pod('w2', null, 4)], index), []);
  // 2 pods × 6: c2 offers c 8 + d 4 = 12 GPUs, but no node takes the second 6 whole → not flagged.
  const six = [pod('s0', 'a', 6), pod('s1', 'c', 6)];
  const sixNodes = [
    gpuNode('a', 8, { clique: 'c1' }),
    gpuNode('b', 8, { clique: 'c1' }),
    gpuNode('c', 6, { clique: 'c2' }),
    gpuNode('d', 4, { clique: 'c2' }),
  ];
  assert.deepEqual(splitAcross(six, topologyIndex(sixNodes, KEYS)), []);
});

test('split rule: cordoned and NotReady nodes offer no room; single-node groups, CPU pods and finished pods never split', () => {
  const inClique = (clique: string) => ({ clique });
  const index = (extra: Partial<NodeSummary>) =>
    topologyIndex(
      [
        gpuNode('a', 4, inClique('c1')),
        gpuNode('b', 8, inClique('c1')),
        gpuNode('c', 4, inClique('c2')),
        gpuNode('d', 0, inClique('c2'), extra),
      ],
      KEYS,
    );
  // Ours: a 4 + c 4 = 8. c1 offers a 8; c2 offers c 8 + d 8: both could; c2 is roomier at equal inside.
  const ours = [pod('w0', 'a', 4), pod('w1', 'c', 4)];
  assert.equal(splitAcross(ours, index({}))[0]?.couldFit, 'c2');
  assert.equal(splitAcross(ours, index({ unschedulable: true }))[0]?.couldFit, 'c1');
  assert.equal(splitAcross(ours, index({ ready: false }))[0]?.room, 8);
  // One node: never split, whatever the labels.
  assert.deepEqual(splitAcross([pod('w0', 'a', 2), pod('w1', 'a', 2)], index({})), []);
  // CPU-only pods elsewhere do not make a GPU group multi-node; finished pods hold nothing.
  assert.deepEqual(splitAcross([pod('w0', 'a', 4), pod('head', 'c', 0)], index({})), []);
  assert.deepEqual(splitAcross([pod('w0', 'a', 4), pod('old', 'c', 4, 'Failed')], index({})), []);
});

test('split rule: each network level on its own, most general first; the domain already holding most of it is named', () => {
  const nodes = [
    gpuNode('a', 8, { rack: 'r1', clique: 'c1' }),
    gpuNode('b', 4, { rack: 'r1', clique: 'c2' }),
    gpuNode('c', 4, { rack: 'r2', clique: 'c3' }),
    gpuNode('d', 0, { rack: 'r2', clique: 'c4' }),
  ];
  const index = topologyIndex(nodes, KEYS);
  // Ours: a 8 (c1), b 4 (c2), c 4 (c3) → 16 GPUs over 2 racks, 3 NVLink domains.
  const ours = [pod('w0', 'a', 8), pod('w1', 'b', 4), pod('w2', 'c', 4)];
  assert.deepEqual(splitAcross(ours, index), [
    // r1 holds 12 of ours (a 8 + b 4 + 4 free on b = 16 room); r2 holds 4, has 4 + 4 + 8 = 16 room too.
    { key: RACK, domains: 2, couldFit: 'r1', gpus: 16, room: 16, inside: 12 },
  ]);
  // No single NVLink domain (8 GPUs each) holds 16: only the rack level is flagged.
});

test('JSON: node topology, spread and splitAcross for roles (sub-roles included) and workloads; null without node access', () => {
  const nodes = [
    gpuNode('a', 8, { rack: 'r1', clique: 'c1' }),
    gpuNode('b', 4, { rack: 'r1', clique: 'c2' }),
    gpuNode('c', 0, { rack: 'r1', clique: 'c2' }),
  ];
  const keys = topologyKeysInEffect(undefined, nodes);
  assert.deepEqual(nodeTopologyJson(nodes[0], keys), {
    [REGION_KEY]: 'r1',
    [ZONE_KEY]: 'z1',
    [RACK]: 'r1',
    [NVLINK_DOMAIN_KEY]: 'c1',
  });
  assert.deepEqual(nodeTopologyJson({ labels: { [ZONE_KEY]: 'z' } }, keys), { [ZONE_KEY]: 'z' });
  const index = topologyIndex(nodes, keys);
  const sub = role('worker', [pod('w1', 'b', 4)]);
  const parent = role('workers', [pod('w0', 'a', 4)], [sub]);
  assert.deepEqual(roleTopologyJson(parent, index), {
    spread: { [REGION_KEY]: 1, [ZONE_KEY]: 1, [RACK]: 1, [NVLINK_DOMAIN_KEY]: 2 },
    splitAcross: [NVLINK_DOMAIN_KEY],
  });
  assert.deepEqual(roleTopologyJson(sub, index).splitAcross, []);
  const w = tree('job', [{ component: 'leader', desired: 1, pods: [pod('l', 'c', 2)] }], { roles: [parent] });
  w.unattributedPods = [pod('stray', 'c', 0)];
  assert.deepEqual(workloadTopologyJson(w, index).spread, {
    [REGION_KEY]: 1,
    [ZONE_KEY]: 1,
    [RACK]: 1,
    [NVLINK_DOMAIN_KEY]: 2,
  });
  assert.deepEqual(placementJson([pod('w0', 'a', 4)], null), { spread: null, splitAcross: null });
});

test('a clique value reads short: its cluster UUID cut to 4 characters; other values unchanged', () => {
  assert.equal(shortDomainValue('2df6d60c-30f6-4ac5-aff6-d9322af6d153.1'), '2df6….1');
  assert.equal(shortDomainValue('rack-1'), 'rack-1');
});
