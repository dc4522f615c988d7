// Pods forbidden cluster-wide and no namespace read instead: `:nodes` says `?`
// for each node's requested, free, pods and workloads, never 0 — in a fleet only
// on the nodes of the cluster that cannot read pods. The GPU map does not paint
// such a node free: it is uncoloured, and its cursor line says `?`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainNodeTable, nodeTable, podNodeTable } from '../../src/ui/render/nodes.js';
import { sortRows } from '../../src/ui/state/derive.js';
import { nodePanel } from '../../src/ui/render/panels.js';
import { domainGroups } from '../../src/ui/render/domains.js';
import { mapBase } from '../../src/ui/render/gpu-map/cells.js';
import { cursorText, mapLegend } from '../../src/ui/render/gpu-map/legend.js';
import type { Highlight } from '../../src/ui/render/gpu-map/highlight.js';
import { nodeRequestsUnknown } from '../../src/model/pods-readable.js';
import type { AccessScope, ModelSnapshot } from '../../src/model/types.js';
import { node } from './fixtures.js';

const BLIND: AccessScope = { clusterWide: false, namespaces: [], forbidden: ['pods'] };
const FULL: AccessScope = { clusterWide: true, namespaces: [], forbidden: [] };
const cell = (t: ReturnType<typeof nodeTable>, row: number, column: string) =>
  t.rows[row].cells[t.columns.findIndex((c) => c.name === column)];

test(':nodes with pods unreadable: requested, free, pods and workloads are ?, allocatable still told', () => {
  const n = node('gpu-1', { gpuAllocatable: 8 });
  const blind = nodeTable([n], undefined, nodeRequestsUnknown({ access: BLIND }));
  assert.equal(cell(blind, 0, 'GPUS'), '?/8');
  assert.equal(cell(blind, 0, 'FREE'), '?');
  assert.equal(cell(blind, 0, 'PODS'), '?');
  assert.equal(cell(blind, 0, 'WORKLOADS'), '?');
  assert.match(nodePanel(n, true)[0].text, /allocatable 8  requested \?  free \?  pods \?  \(pods not readable\)$/);
  assert.match(nodePanel(n)[0].text, /allocatable 8  requested 0  free 8  pods 0$/);
  // Readable (or read in some namespaces): the figures.
  const seen = nodeTable([n], undefined, nodeRequestsUnknown({ access: FULL }));
  assert.equal(cell(seen, 0, 'GPUS'), '0/8');
  assert.equal(cell(seen, 0, 'FREE'), '8');
  const fellBack = nodeRequestsUnknown({ access: { ...BLIND, podsIn: ['training'] } });
  assert.equal(cell(nodeTable([n], undefined, fellBack), 0, 'FREE'), '8');
});

test(':nodes over a fleet: only the blind cluster’s nodes are ?, its domain header too', () => {
  const fleet = {
    access: BLIND, // merged: loses whose pods were forbidden
    fleet: {
      members: [
        { context: 'east', snapshot: { access: BLIND } },
        { context: 'west', snapshot: { access: FULL } },
      ],
    },
  } as unknown as Pick<ModelSnapshot, 'access' | 'fleet'>;
  const east = node('east-1', { cluster: 'east', labels: { rack: 'r1' } });
  const west = node('west-1', { cluster: 'west', gpuRequested: 2, pods: 1, labels: { rack: 'r2' } });
  const unknown = nodeRequestsUnknown(fleet);
  const flat = nodeTable([east, west], undefined, unknown);
  assert.equal(cell(flat, 0, 'FREE'), '?');
  assert.equal(cell(flat, 1, 'GPUS'), '2/8');
  assert.equal(cell(flat, 1, 'FREE'), '6');
  const grouped = domainNodeTable(domainGroups([east, west], ['rack']), undefined, new Set(), (r) => r, unknown);
  const headers = grouped.rows.filter((r) => r.tone === 'group');
  assert.deepEqual(
    headers.map((r) => r.cells[2]),
    ['?/8', '2/8'],
  );
});

test('the GPU map with pods unreadable: the node is not painted free, its line says ? of allocatable', () => {
  const nodes = [node('gpu-1', { gpuAllocatable: 8 })];
  const base = mapBase(nodes, undefined, undefined, undefined, false, nodeRequestsUnknown({ access: BLIND }));
  const [c] = base.cells;
  assert.equal(c.level, null, 'not the "free" step');
  assert.match(cursorText(c, base, undefined), /GPUs \?\/8 used \(pods not readable\) · workloads unknown/);
  const none: Highlight = { kind: 'none', nodes: new Map(), roles: [], label: '' };
  assert.match(mapLegend(base, none, 2, 200, true).join(' '), /no GPU \/ pods not readable/);
  // Readable: free, and said so.
  const seen = mapBase(nodes, undefined, undefined);
  assert.equal(seen.cells[0].level, 0);
  assert.match(cursorText(seen.cells[0], seen, undefined), /GPUs 0\/8 used \(8 free\)/);
});

test(':nodes sorted by GPUS or AGE: unknown values go last in both directions, never among real zeros', () => {
  const fleet = {
    access: BLIND,
    fleet: {
      members: [
        { context: 'east', snapshot: { access: BLIND } },
        { context: 'west', snapshot: { access: FULL } },
      ],
    },
  } as unknown as Pick<ModelSnapshot, 'access' | 'fleet'>;
  // a-blind and c-blind cannot read their requests; b-idle really requests 0; d-busy requests 4.
  const nodes = [
    node('a-blind', { cluster: 'east' }),
    node('b-idle', { cluster: 'west' }),
    node('c-blind', { cluster: 'east' }),
    node('d-busy', { cluster: 'west', gpuRequested: 4, pods: 1 }),
  ];
  const rows = nodeTable(nodes, undefined, nodeRequestsUnknown(fleet)).rows;
  const order = (key: 'gpus' | 'age', desc: boolean) => sortRows(rows, { key, desc }, true).map((r) => r.key);
  assert.deepEqual(order('gpus', false), ['b-idle', 'd-busy', 'a-blind', 'c-blind']);
  assert.deepEqual(order('gpus', true), ['d-busy', 'b-idle', 'c-blind', 'a-blind']);
  // The same rule for a row without a creation time (a node known only from its pods).
  const aged = podNodeTable([
    { name: 'p-unknown', gpuRequested: 1, pods: 1, workloads: [] },
    { name: 'q-unknown', gpuRequested: 0, pods: 1, workloads: [] },
  ]).rows;
  const withAge = [...aged, ...rows.slice(1, 2)];
  for (const desc of [false, true])
    assert.equal(sortRows(withAge, { key: 'age', desc }, true)[0].key, 'b-idle', `age desc=${desc}`);
});
