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
