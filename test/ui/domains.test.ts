// :nodes and the GPU map group nodes by domain with the model's totals
// (model/topology.ts): a domain holding nodes of its own beside sub-domains
// gives its own nodes' totals, not its whole subtree's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainGroups } from '../../src/ui/render/domains.js';
import { node } from './fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';
const RACK = 'network.topology.kubernetes.io/rack';

test('a zone with unracked nodes beside its racks: each group totals its own nodes', () => {
  const nodes = [
    node('r1', { gpuAllocatable: 8, gpuRequested: 8, labels: { [ZONE]: 'a', [RACK]: 'r1' } }),
    node('r2', { gpuAllocatable: 8, gpuRequested: 2, ready: false, labels: { [ZONE]: 'a', [RACK]: 'r2' } }),
    node('u1', { gpuAllocatable: 4, gpuRequested: 1, labels: { [ZONE]: 'a' } }),
    node('u2', { gpuAllocatable: 4, gpuRequested: 0, ready: false, labels: { [ZONE]: 'a' } }),
    node('bare', { gpuAllocatable: 2, gpuRequested: 2, labels: {} }),
  ];
  const groups = domainGroups(nodes, [ZONE, RACK]);
  const own = (names: string[]) => {
    const of = nodes.filter((n) => names.includes(n.name));
    return {
      gpuAllocatable: of.reduce((t, n) => t + n.gpuAllocatable, 0),
      gpuRequested: of.reduce((t, n) => t + n.gpuRequested, 0),
      notReady: of.filter((n) => !n.ready).length,
    };
  };
  assert.deepEqual(
    groups.map((g) => ({
      key: g.key,
      gpuAllocatable: g.gpuAllocatable,
      gpuRequested: g.gpuRequested,
      notReady: g.notReady,
    })),
    [
      { key: 'a/r1', ...own(['r1']) },
      { key: 'a/r2', ...own(['r2']) },
      { key: 'a/-', ...own(['u1', 'u2']) },
      { key: '-/-', ...own(['bare']) },
    ],
  );
});
