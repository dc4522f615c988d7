// The GPU map's renderer: cells packed two nodes per character (one without colour), bands per topology
// domain, the legend, the NO_COLOR glyphs, the cursor's node, highlights by regex and by role, cursor
// moves, and a 5,000-node cluster drawn on one 160×50 screen within the frame budget. Then `:nodes` by
// domain and the UTIL sort.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GpuMetrics, ModelSnapshot, NodeSummary } from '../../src/model/types.js';
import { DEFAULT_IDLE_RULE, indexReadings } from '../../src/model/utilisation.js';
import { gpuReading } from '../model/gpu-fixtures.js';
import { GpuMapMemo } from '../../src/ui/render/gpu-map/index.js';
import { mapBase } from '../../src/ui/render/gpu-map/cells.js';
import type { HighlightSpec } from '../../src/ui/render/gpu-map/highlight.js';
import { layoutMap, stepCursor } from '../../src/ui/render/gpu-map/layout.js';
import { defaultSnapshot, HOSTILE_NAME, node, pod, role, workload } from './fixtures.js';
import { domainGroups, groupingKeys } from '../../src/ui/render/domains.js';
import { domainLabel, domainNodeTable } from '../../src/ui/render/nodes.js';
import type { Row } from '../../src/ui/render/table.js';
import { sortRows } from '../../src/ui/state/derive.js';

const ZONE = 'topology.kubernetes.io/zone';
const CLIQUE = 'nvidia.com/gpu.clique';
const SGR = /\u001b\[[0-9;]*m/g;
const plain = (s: string) => s.replace(SGR, '');
const NONE: HighlightSpec = { kind: 'none' };

/** `count` nodes in cliques of `perClique`, two zones; requested GPUs cycle 0, 2, 4, 6, 8. */
function cluster(count: number, perClique: number): NodeSummary[] {
  return Array.from({ length: count }, (_, i) => {
    const clique = Math.floor(i / perClique);
    return node(`node-${String(i).padStart(4, '0')}`, {
      gpuRequested: (i % 5) * 2,
      labels: { [ZONE]: `zone-${clique % 2 ? 'b' : 'a'}`, [CLIQUE]: `clique-${clique}` },
    });
  });
}

function snapshotWith(nodes: NodeSummary[], over: Partial<ModelSnapshot> = {}): ModelSnapshot {
  return { ...defaultSnapshot(), nodes, ...over };
}

function draw(
  snapshot: ModelSnapshot,
  opts: { spec?: HighlightSpec; cursor?: number; width?: number; height?: number; noColor?: boolean } = {},
) {
  const memo = new GpuMapMemo();
  return memo.screen(
    snapshot,
    snapshot.workloads,
    opts.spec ?? NONE,
    opts.cursor ?? -1,
    opts.width ?? 100,
    opts.height ?? 20,
    opts.noColor ?? false,
  );
}

test('two nodes share a character (half blocks): a band of 10 nodes is 5 cells, labelled with its path', () => {
  const nodes = cluster(20, 10);
  const base = mapBase(nodes, undefined, undefined);
  const layout = layoutMap(base, 100, 20, 2);
  assert.equal(layout.mode, 'path');
  assert.equal(layout.line[0], layout.line[1]);
  assert.equal(layout.col[0], layout.col[1], 'nodes 0 and 1 in one character');
  assert.deepEqual([layout.half[0], layout.half[1]], [0, 1]);
  const map = draw(snapshotWith(nodes));
  const lines = map.lines.map(plain);
  assert.match(lines[0], /^zone-a \/ clique-0 +[▀▄]{5} *$/);
  assert.match(lines[1], /^zone-b \/ clique-1 +[▀▄]{5} *$/);
  // Top half foreground, bottom half background: both colours on one character.
  assert.match(map.lines[0], /\u001b\[\d+;\d+m▀/);
});

test('the legend names the colour steps, the marks and what they measure', () => {
  const map = draw(snapshotWith(cluster(4, 4)), { width: 160 });
  const legend = map.legend.map(plain).join('\n');
  for (const word of ['2 nodes/char', 'GPUs allocated', 'free', 'full', 'no GPU', 'NotReady', 'cordoned', 'pressure'])
    assert.ok(legend.includes(word), `${word} in ${legend}`);
  // Narrow: wrapped into more lines, none wider than the map.
  const narrow = draw(snapshotWith(cluster(4, 4)), { width: 40 });
  assert.ok(narrow.legend.length > 1);
  for (const l of narrow.legend) assert.equal([...plain(l)].length, 40);
});

test('utilisation colours the map once a node reports one (the legend says so)', () => {
  const nodes = cluster(4, 4);
  const metrics: GpuMetrics = {
    readings: indexReadings([gpuReading('node-0000/GPU-0', 90, [])]),
    notice: null,
    scrapedAt: Date.now(),
    idle: DEFAULT_IDLE_RULE,
  };
  const base = mapBase(nodes, metrics, undefined);
  assert.equal(base.byUtil, true);
  const map = draw(snapshotWith(nodes, { gpuMetrics: metrics }), { width: 160 });
  assert.match(plain(map.legend[0]), /GPU util/);
  assert.match(plain(map.legend[0]), /no reading/);
});

test('NO_COLOR: one node per character, density glyphs, problem letters, no colour codes', () => {
  const nodes = [
    node('free', { labels: { [ZONE]: 'a' } }),
    node('half', { gpuRequested: 4, labels: { [ZONE]: 'a' } }),
    node('full', { gpuRequested: 8, labels: { [ZONE]: 'a' } }),
    node('down', { ready: false, labels: { [ZONE]: 'a' } }),
    node('cordoned', { unschedulable: true, labels: { [ZONE]: 'a' } }),
    node('squeezed', {
      labels: { [ZONE]: 'a' },
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'MemoryPressure', status: 'True' },
      ],
    }),
    node('cpu', { gpuAllocatable: 0, gpuCapacity: 0, labels: { [ZONE]: 'a' } }),
  ];
  const map = draw(snapshotWith(nodes), { noColor: true, width: 120 });
  const all = [...map.legend, ...map.lines].join('\n');
  assert.doesNotMatch(all, /\u001b\[/, 'no escape codes at all without a cursor');
  // Natural order: cordoned, cpu, down, free, full, half, squeezed.
  assert.match(map.lines[0], /^a C-X·█▒P *$/);
  assert.match(plain(map.legend.join(' ')), /1 node\/char/);
  assert.match(plain(map.legend.join(' ')), /· free .*█ full .*X NotReady .*C cordoned .*P pressure/);
});

test("the cursor's node: drawn apart (bright half / inverse) and named with its domain, GPUs and top workloads", () => {
  const nodes = ['gpu-node-01', 'gpu-node-02', 'gpu-node-03', 'gpu-node-04'].map((n, i) =>
    node(n, { gpuRequested: i === 3 ? 4 : 8, labels: { [ZONE]: 'zone-a', [CLIQUE]: 'c1' } }),
  );
  const snapshot = snapshotWith(nodes);
  const map = draw(snapshot, { cursor: 3 });
  assert.equal(
    map.cursorText,
    'gpu-node-04 · c1 · GPUs 4/8 used (4 free) · training/bert-finetune 4 — Enter: the node',
  );
  // Node 3 is the bottom half of the second cell: its background is bright white (107).
  assert.match(map.lines[0], /107m▀/);
  const mono = draw(snapshot, { cursor: 3, noColor: true });
  assert.match(mono.lines[0], /\u001b\[7m.\u001b\[0m/, 'inverse, not a colour');
  assert.equal(plain(mono.lines[0]).trimEnd(), 'c1 ███▒');
});

test('highlights: a regex marks the nodes of matching workloads; a workload distinguishes its roles', () => {
  const nodes = ['gpu-node-01', 'gpu-node-02', 'gpu-node-03', 'gpu-node-04'].map((n) => node(n, { gpuRequested: 8 }));
  const snapshot = snapshotWith(nodes);
  const re = draw(snapshot, { spec: { kind: 'regex', filter: 'llama' }, noColor: true });
  assert.equal(plain(re.lines[0]).trimEnd(), '(no topology labels) ***█');
  assert.match(plain(re.legend.join(' ')), /workloads \/llama\/ on 3 nodes/);
  const roles = draw(snapshot, { spec: { kind: 'workload', uid: 'uid-llama-pretrain' }, noColor: true });
  assert.equal(plain(roles.lines[0]).trimEnd(), '(no topology labels) 122█', 'leader 1, workers 2');
  assert.match(plain(roles.legend.join(' ')), /training\/llama-pretrain on 3 nodes, by role: +1 leader +2 worker/);
  const colour = draw(snapshot, { spec: { kind: 'workload', uid: 'uid-llama-pretrain' } });
  assert.match(plain(colour.legend.join(' ')), /█ leader +█ worker +█ other nodes/);
  // Leader (role 0) bright green over worker (role 1) bright yellow; the other node grey.
  assert.match(colour.lines[0], /92;103m▀/);
  assert.match(colour.lines[0], /93;100m▀/);
  // An invalid regex matches literally and says so.
  const bad = draw(snapshot, { spec: { kind: 'regex', filter: 'llama(' } });
  assert.ok(bad.error);
});

test('cursor keys move over cells: left/right along the half-row, up/down to the nearest cell', () => {
  const base = mapBase(cluster(12, 6), undefined, undefined);
  const layout = layoutMap(base, 100, 20, 2);
  // Band 0: nodes 0..5 in 3 characters (top 0,2,4; bottom 1,3,5); band 1 on the next line.
  assert.equal(stepCursor(layout, 0, 'right'), 2);
  assert.equal(stepCursor(layout, 2, 'left'), 0);
  assert.equal(stepCursor(layout, 0, 'left'), 0);
  assert.equal(stepCursor(layout, 2, 'down'), 3);
  assert.equal(stepCursor(layout, 3, 'down'), 8, 'the top half of the next band, same column');
  assert.equal(stepCursor(layout, 8, 'up'), 3);
  assert.equal(stepCursor(layout, 0, 'up'), 0);
});

test('many small domains: the bands flow on a line (labels shortened, then dropped) to fit the screen', () => {
  const base = mapBase(cluster(600, 4), undefined, undefined);
  const layout = layoutMap(base, 100, 20, 2);
  assert.notEqual(layout.mode, 'path');
  assert.ok(layout.lines <= 20, `${layout.lines} lines in ${layout.mode} mode`);
});

test('label values from the cluster are sanitised', () => {
  const nodes = [node('n1', { labels: { [ZONE]: HOSTILE_NAME } })];
  const map = draw(snapshotWith(nodes), { cursor: 0 });
  for (const line of [...map.lines, map.cursorText ?? ''])
    assert.doesNotMatch(plain(line), /[\u0000-\u001f\u007f\u202e]/);
});

test('5,000 nodes fit one 160×50 screen and draw within the frame budget; a cursor move redraws little', () => {
  const nodes = cluster(5000, 18);
  const pods = nodes.slice(0, 2000).map((n, i) => pod(`p-${i}`, { node: n.name, uid: `p-${i}` }));
  const big = workload('big-pretrain', [role('worker', pods)]);
  const snapshot = snapshotWith(nodes, { workloads: [big] });
  const memo = new GpuMapMemo();
  // 160×50: the map's box holds 50 - 4 header - 2 borders - breadcrumbs - flash = 42 lines, 158 wide.
  let t = performance.now();
  const map = memo.screen(snapshot, snapshot.workloads, NONE, 0, 158, 42, false);
  const first = performance.now() - t;
  const cells = map.lines.reduce((s, l) => s + (plain(l).match(/[▀▄]/g)?.length ?? 0), 0);
  assert.equal(cells, 2500 + 0, 'every node on screen, two per character');
  assert.ok(map.legend.length + map.lines.length <= 42);
  t = performance.now();
  for (let i = 1; i <= 100; i++) memo.screen(snapshot, snapshot.workloads, NONE, i, 158, 42, false);
  const move = (performance.now() - t) / 100;
  t = performance.now();
  const hl = memo.screen(snapshot, snapshot.workloads, { kind: 'workload', uid: big.uid }, 0, 158, 42, false);
  const highlight = performance.now() - t;
  assert.match(plain(hl.legend[0]), /on 2000 nodes/);
  // Live snapshots: every node object new (pods came and went), the cells redrawn; the median of five.
  const times: number[] = [];
  for (let k = 1; k <= 5; k++) {
    const next = { ...snapshot, nodes: nodes.map((n, i) => ({ ...n, gpuRequested: (i + k) % 9 })) };
    t = performance.now();
    memo.screen(next, next.workloads, NONE, 0, 158, 42, false);
    times.push(performance.now() - t);
  }
  const live = times.sort((a, b) => a - b)[2];
  const mono = new GpuMapMemo().screen(snapshot, snapshot.workloads, NONE, 0, 158, 42, true);
  const monoCells = mono.lines.reduce((s, l) => s + (plain(l).match(/[·░▒▓█]/g)?.length ?? 0), 0);
  process.stdout.write(
    `# GPU map, 5,000 nodes at 160×50: first frame ${first.toFixed(1)} ms, cursor move ${move.toFixed(2)} ms, ` +
      `workload highlight ${highlight.toFixed(1)} ms, next snapshot ${live.toFixed(1)} ms (median of 5); NO_COLOR shows ${monoCells} of 5000 (one per character)\n`,
  );
  // Generous: the machine is shared; the figures above are what to read.
  assert.ok(first < 1000, `first frame ${first} ms`);
  assert.ok(move < 50, `cursor move ${move} ms`);
  assert.ok(live < 1000, `next snapshot ${live} ms`);
});

test('sorting by UTIL puts nodes without a reading last in either direction', () => {
  const row = (name: string, util: number | null | undefined): Row => ({
    key: name,
    cells: [name],
    tone: 'normal',
    createdMs: null,
    sort: { name, status: '', gpus: 0, util },
  });
  const rows = [row('a', null), row('b', 50), row('c', undefined), row('d', 10)];
  const names = (desc: boolean) => sortRows(rows, { key: 'util', desc }, true).map((r) => r.key);
  assert.deepEqual(names(true).slice(0, 2), ['b', 'd']);
  assert.deepEqual(names(false).slice(0, 2), ['d', 'b']);
  for (const desc of [true, false]) assert.deepEqual(names(desc).slice(2).sort(), ['a', 'c'], 'unknown last');
});

test(':nodes by domain: a header per domain with its GPU totals, nodes in the frame sort within it, collapsible', () => {
  const nodes = [
    node('n2', { gpuRequested: 8, labels: { [ZONE]: 'zone-b' } }),
    node('n10', { gpuRequested: 2, ready: false, labels: { [ZONE]: 'zone-a' } }),
    node('n1', { gpuRequested: 6, labels: { [ZONE]: 'zone-a' } }),
    node('n3', { labels: {} }),
  ];
  const groups = domainGroups(nodes, [ZONE]);
  assert.deepEqual(
    groups.map((g) => [g.key, g.nodes.map((n) => n.name)]),
    [
      ['zone-a', ['n1', 'n10']],
      ['zone-b', ['n2']],
      ['-', ['n3']],
    ],
  );
  const byGpus = (rows: readonly Row[]) => sortRows(rows, { key: 'gpus', desc: true }, true);
  const t = domainNodeTable(groups, undefined, new Set(['domain:zone-b']), byGpus);
  assert.deepEqual(
    t.rows.map((r) => r.cells.slice(0, 4).join('|')),
    [
      '▾ zone-a|2 nodes, 1 NotReady|8/16|8',
      'n1|Ready|6/8|2',
      'n10|NotReady|2/8|6',
      '▸ zone-b|1 node|8/8|0',
      '▾ (no topology labels)|1 node|0/8|8',
      'n3|Ready|0/8|8',
    ],
  );
});

test('a live snapshot with the same nodes in the same domains keeps the order and layout; a moved node regroups', () => {
  const nodes = cluster(40, 10);
  const first = mapBase(nodes, undefined, undefined);
  const busier = nodes.map((n) => ({ ...n, gpuRequested: 8 })).reverse();
  const next = mapBase(busier, undefined, undefined, first.topology);
  assert.equal(next.topology, first.topology, 'no regrouping');
  assert.equal(next.cells[0].node.name, first.cells[0].node.name);
  assert.equal(next.cells[0].level, 4, 'the new allocation');
  const moved = nodes.map((n, i) => (i === 0 ? { ...n, labels: { ...n.labels, [CLIQUE]: 'clique-3' } } : n));
  const regrouped = mapBase(moved, undefined, undefined, first.topology);
  assert.notEqual(regrouped.topology, first.topology);
  // zone-a/clique-0 lost it; zone-a/clique-3 is a new band.
  assert.deepEqual(
    regrouped.bands.map((b) => `${b.path.join('/')}:${b.size}`),
    ['zone-a/clique-0:9', 'zone-a/clique-2:10', 'zone-a/clique-3:1', 'zone-b/clique-1:10', 'zone-b/clique-3:10'],
  );
});

test('domain labels: a level every node shares is not a grouping level; trailing gaps dropped; a clique UUID shortened', () => {
  const REGION = 'topology.kubernetes.io/region';
  const keys = [REGION, ZONE, CLIQUE];
  const nodes = [
    node('a', { labels: { [REGION]: 'r1', [ZONE]: 'z1', [CLIQUE]: '2df6d60c-30f6-4ac5-aff6-d9322af6d153.1' } }),
    node('b', { labels: { [REGION]: 'r1', [ZONE]: 'z2' } }),
  ];
  assert.deepEqual(groupingKeys(nodes, keys), [ZONE, CLIQUE]);
  assert.deepEqual(groupingKeys([nodes[1]], [REGION, ZONE]), [ZONE], 'all uniform: the most specific level stays');
  assert.deepEqual(groupingKeys(nodes, []), []);
  assert.equal(domainLabel(['z1', '2df6d60c-30f6-4ac5-aff6-d9322af6d153.1']), 'z1 / 2df6….1');
  assert.equal(domainLabel(['z2', null]), 'z2');
  assert.equal(domainLabel([null, 'x']), '- / x');
  assert.equal(domainLabel([null, null]), '(no topology labels)');
});
