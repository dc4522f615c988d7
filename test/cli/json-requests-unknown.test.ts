// `wlx get -o json` with pods forbidden cluster-wide and no namespace read
// instead: each node's gpuRequested, pods, workloads and per-kind requested are
// null (unknown), never 0; with pods read in some namespaces they are numbers.
// Over a fleet, `access.forbidden` says whose each kind is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fleetJsonDocument, jsonDocument, type JsonSources } from '../../src/cli/printers/json.js';
import { EMPTY_SCHEDULING } from '../../src/model/scheduling/index.js';
import { node } from '../ui/fixtures.js';

const sources = (access: JsonSources['access']): JsonSources => ({
  nodes: [node('gpu-1', { gpuResources: { 'nvidia.com/gpu': { capacity: 8, allocatable: 8, requested: 0 } } })],
  scheduling: EMPTY_SCHEDULING,
  access,
  topologyKeys: [],
  cluster: null,
});

test('-o json, pods not readable: node requests null, allocatable a number', () => {
  const doc = jsonDocument([], sources({ clusterWide: false, namespaces: [], forbidden: ['pods'] }), []) as {
    nodes: Record<string, unknown>[];
  };
  const [n] = doc.nodes;
  assert.equal(n.gpuRequested, null);
  assert.equal(n.pods, null);
  assert.equal(n.workloads, null);
  assert.equal(n.gpuAllocatable, 8);
  assert.deepEqual(n.gpuResources, { 'nvidia.com/gpu': { capacity: 8, allocatable: 8, requested: null } });
  const fellBack = jsonDocument(
    [],
    sources({ clusterWide: false, namespaces: ['training'], forbidden: ['pods'], podsIn: ['training'] }),
    [],
  ) as { nodes: Record<string, unknown>[] };
  assert.equal(fellBack.nodes[0].gpuRequested, 0);
  assert.deepEqual(fellBack.nodes[0].workloads, []);
});

test('-o json over a fleet: each forbidden kind keeps its cluster; only the blind one’s nodes are null', () => {
  const east = { ...sources({ clusterWide: false, namespaces: [], forbidden: ['pods'] }), cluster: 'east' };
  const west = { ...sources({ clusterWide: true, namespaces: [], forbidden: ['nodes'] }), cluster: 'west' };
  const doc = fleetJsonDocument([], [], {
    members: [east, west],
    clusters: [],
    access: { clusterWide: false, namespaces: [], forbidden: ['nodes', 'pods'] },
  }) as { nodes: Record<string, unknown>[]; access: { forbidden: string[] } };
  assert.deepEqual(doc.access.forbidden, ['east: pods', 'west: nodes']);
  assert.deepEqual(
    doc.nodes.map((n) => [n.cluster, n.gpuRequested]),
    [
      ['east', null],
      ['west', 0],
    ],
  );
});

test('-o json over a fleet: namespaces, podsIn, users and clusterWide each say their cluster; one cluster unchanged', () => {
  const east = {
    ...sources({
      clusterWide: false,
      namespaces: ['training', 'serving'],
      forbidden: ['pods'],
      podsIn: ['training'],
      unreadable: ['secret-team'],
      readable: ['training'],
      user: 'researcher',
    }),
    cluster: 'east',
  };
  const west = { ...sources({ clusterWide: true, namespaces: [], forbidden: [] }), cluster: 'west' };
  const doc = fleetJsonDocument([], [], {
    members: [east, west],
    clusters: [],
    access: { clusterWide: false, namespaces: ['serving', 'training'], forbidden: ['pods'] },
  }) as { access: Record<string, unknown> };
  assert.deepEqual(doc.access, {
    clusterWide: false,
    clusterWideIn: ['west'],
    namespaces: ['east: training', 'east: serving'],
    forbidden: ['east: pods'],
    unreadable: ['east: secret-team'],
    users: ['east: researcher'],
    readable: ['east: training'],
    podsIn: ['east: training'],
  });
  // Every cluster read cluster-wide: no optional list, nothing to tag.
  const wide = fleetJsonDocument([], [], {
    members: [west, { ...west, cluster: 'north' }],
    clusters: [],
    access: { clusterWide: true, namespaces: [], forbidden: [] },
  }) as { access: Record<string, unknown> };
  assert.deepEqual(wide.access, { clusterWide: true, clusterWideIn: ['west', 'north'], namespaces: [], forbidden: [] });
  // A single cluster's document keeps its plain names.
  const one = jsonDocument([], east, []) as { access: Record<string, unknown> };
  assert.deepEqual(one.access.namespaces, ['training', 'serving']);
  assert.equal(one.access.user, 'researcher');
});
