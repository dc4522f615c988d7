// Finding the broken things: the map's idle-GPU colouring and its distinct
// labels, names cut in the middle, empty columns giving way first, a narrow
// header that keeps the Queued and Unschedulable counts, `?` explaining UTIL's
// marks, the server named while it is down, and the nearest kind for a typo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idleLevel, mapBase } from '../../src/ui/render/gpu-map/cells.js';
import { mapLegend, cursorText } from '../../src/ui/render/gpu-map/legend.js';
import { distinctCuts } from '../../src/ui/render/gpu-map/layout.js';
import { layoutColumns, fitMiddle, formatLine, type Column, type Row } from '../../src/ui/render/table.js';
import { workloadCounts, connectionFlash, gpuHeadline } from '../../src/ui/render/header.js';
import { helpTable } from '../../src/ui/render/help.js';
import { KEYMAP } from '../../src/ui/keymap.js';
import { indexReadings, DEFAULT_IDLE_RULE } from '../../src/model/utilisation.js';
import type { ClusterConnection, GpuMetrics, GpuReading, ModelSnapshot } from '../../src/model/types.js';
import { editDistance, nearest } from '../../src/text/nearest.js';
import { nearestType } from '../../src/cli/get.js';
import { parseCommand } from '../../src/ui/state/commands.js';
import { loadDefinitions } from '../../src/definitions/index.js';
import { node, pod, role, workload } from './fixtures.js';

const NOW = 1_800_000_000_000;

/** A node's GPUs as the exporter reads them: `idle` of them held and unused for the whole window, the rest busy. */
function readings(nodeName: string, busy: number, idle: number): GpuReading[] {
  return Array.from({ length: busy + idle }, (_, i) => ({
    key: `${nodeName}/${i}`,
    node: nodeName,
    uuid: `GPU-${nodeName}-${i}`,
    index: String(i),
    model: 'H100',
    migProfile: null,
    migInstance: null,
    utilisation: i < busy ? 95 : 0,
    memoryUsedBytes: null,
    memoryTotalBytes: null,
    powerWatts: null,
    xid: null,
    pods: [{ namespace: 'training', name: `p-${nodeName}`, container: 'main' }],
    at: NOW,
    lowSince: i < busy ? null : NOW - 10 * 60_000,
    coveredSince: NOW - 20 * 60_000,
  }));
}

test('the map by idle allocated GPUs: 3 idle of 8 stands out although the mean looks fine', () => {
  const nodes = [
    node('busy', { gpuAllocatable: 8, gpuRequested: 8 }),
    node('three-idle', { gpuAllocatable: 8, gpuRequested: 8 }),
    node('one-idle', { gpuAllocatable: 8, gpuRequested: 8 }),
    node('free', { gpuAllocatable: 8, gpuRequested: 0 }),
  ];
  const metrics: GpuMetrics = {
    readings: indexReadings([
      ...readings('busy', 8, 0),
      ...readings('three-idle', 5, 3),
      ...readings('one-idle', 7, 1),
    ]),
    notice: null,
    scrapedAt: NOW,
    idle: DEFAULT_IDLE_RULE,
  };
  const byUtil = mapBase(nodes, metrics, undefined);
  const byIdle = mapBase(nodes, metrics, undefined, undefined, true);
  const level = (base: typeof byIdle, name: string) => base.cells.find((c) => c.node.name === name)!.level;
  // By utilisation the node with 3 idle GPUs reads 59 %: a middle colour like any other.
  assert.equal(level(byUtil, 'three-idle'), 2);
  assert.equal(byIdle.colouring, 'idle');
  assert.deepEqual(
    ['busy', 'three-idle', 'one-idle', 'free'].map((n) => level(byIdle, n)),
    [0, 4, 3, null],
  );
  assert.deepEqual([idleLevel(0, 8), idleLevel(2, 8), idleLevel(3, 8), idleLevel(null, 8)], [0, 3, 4, null]);
  const legend = mapLegend(byIdle, { kind: 'none', nodes: new Map(), label: '' } as never, 2, 200, true).join(' ');
  assert.match(legend, /allocated GPUs idle:/);
  assert.match(legend, /none .* some .* ⅓\+ of the node .* none allocated \/ not known yet .* NotReady .* cordoned/);
  const cell = byIdle.cells.find((c) => c.node.name === 'three-idle')!;
  assert.match(cursorText(cell, byIdle, undefined), /3 of 8 allocated GPUs idle/);
  // No metrics: nothing is known idle, nothing is guessed.
  assert.ok(mapBase(nodes, undefined, undefined, undefined, true).cells.every((c) => c.level === null));
});

test('map labels stay distinct when cut, the general levels first, and names are cut in the middle', () => {
  const clique = (n: number) => `00a6d60c-30f6-4ac5-aff6-d9322af6d153.${n}`;
  const paths = [
    ['us-east-1b', 'rack-2', clique(1)],
    ['us-east-1b', 'rack-2', clique(2)],
    ['us-east-1a', 'rack-1', clique(1)],
    ['east-1a', 'rack-1', clique(3)],
    ['west-1a', 'rack-1', clique(3)],
  ];
  const cut = distinctCuts(paths, 25);
  assert.equal(new Set(cut).size, 5, cut.join(' | '));
  assert.ok(cut.every((c) => c.trimEnd().length <= 25));
  assert.deepEqual(cut.slice(0, 3), [
    '…st-1b / rack-2 / 00a6….1',
    '…st-1b / rack-2 / 00a6….2',
    '…st-1a / rack-1 / 00a6….1',
  ]);
  // Alike by their zones' tails: the zones keep their heads instead.
  assert.deepEqual(
    cut.slice(3).map((c) => c.trimEnd()),
    ['east-… / rack-1 / 00a6….3', 'west-… / rack-1 / 00a6….3'],
  );
  assert.equal(fitMiddle('llama-pretrain-worker-0-0-hvrl9', 14), 'llama…-0-hvrl9');
  assert.equal(fitMiddle('short', 8), 'short   ');
  assert.equal(fitMiddle('abcdefghij', 6, 'left', '~'), 'ab~hij');
});

test('an empty column gives way before any other; a name column cuts in the middle', () => {
  const columns: Column[] = [
    { name: 'NAME', min: 8, max: 40, cut: 'middle' },
    { name: 'STATUS', min: 7 },
    { name: 'REASON', min: 6, max: 30 },
    { name: 'NODE', min: 6, dropPriority: 2 },
  ];
  const row = (name: string, reason: string): Row => ({
    key: name,
    cells: [name, 'Running', reason, 'gpu-node-01'],
    tone: 'normal',
    createdMs: null,
    sort: { name, status: '', gpus: 0 },
  });
  const rows = [row('llama-pretrain-worker-0-0-hvrl9', ''), row('llama-pretrain-worker-1-0-z6pxs', '-')];
  const layout = layoutColumns(columns, rows, 36);
  const shown = layout.shown.map((i) => columns[i].name);
  assert.deepEqual(shown, ['NAME', 'STATUS', 'NODE'], 'REASON says nothing: it goes first, before NODE');
  const lines = rows.map((r) => formatLine(r.cells, columns, layout));
  assert.notEqual(lines[0].split(' ')[0], lines[1].split(' ')[0], lines.join('\n'));
  assert.match(lines[0], /hvrl9/);
  // With a value in REASON it stays (cut like the others).
  const withReason = layoutColumns(columns, [row('a', 'Unschedulable'), ...rows], 36);
  assert.deepEqual(
    withReason.shown.map((i) => columns[i].name),
    ['NAME', 'STATUS', 'REASON', 'NODE'],
  );
});

test('a narrow header keeps the Queued and Unschedulable counts; ? explains UTIL idle and slow', () => {
  const words = (status: string[]) => workload(status.join(), [role('r', [pod('p')])], { status: status as never });
  const snapshot = {
    workloads: [
      ...Array.from({ length: 8 }, () => words(['Running'])),
      words(['Failed']),
      words(['Degraded']),
      words(['Initializing']),
      words(['Initializing']),
    ],
    scheduling: {
      queues: new Map([
        [
          'uid-Initializing',
          {
            system: 'kueue',
            name: 'q',
            clusterQueue: 'cq',
            state: 'Pending',
            position: 0,
            reason: null,
            message: null,
          },
        ],
      ]),
    },
  } as unknown as ModelSnapshot;
  snapshot.workloads[11] = { ...snapshot.workloads[11], uid: 'other' };
  const compact = workloadCounts(snapshot, null, true);
  assert.match(compact, /^12 {2}1 Failed 1 Deg .*Queued.*8 Run$/);
  assert.ok(compact.indexOf('Queued') < compact.indexOf('Run'));
  const help = helpTable(KEYMAP.workloads, [], 'workloads').rows.map((r) => r.cells.join(' '));
  assert.ok(help.some((l) => /^UTIL … idle .*under 5 % for the idle window/.test(l)));
  assert.ok(help.some((l) => /^UTIL … slow .*straggler/.test(l)));
  assert.ok(!helpTable(KEYMAP.map, [], 'map').rows.some((r) => r.key.startsWith('word:')));
});

test('with the server down: its URL on the flash line, GPUs not read yet rather than 0/0', () => {
  const down: ClusterConnection = {
    state: 'retrying',
    since: new Date(NOW).toISOString(),
    synced: 0,
    total: 0,
    failing: [],
    forbidden: [],
    cause: { kind: 'unreachable', text: 'connection refused' },
    retryAt: new Date(NOW + 3000).toISOString(),
  };
  assert.equal(
    connectionFlash(down, NOW, 'https://10.0.0.1:6443')?.text,
    'https://10.0.0.1:6443: connection refused — retry in 3 s',
  );
  const empty = {
    totals: { gpuCapacity: 0, gpuAllocatable: 0, gpuRequested: 0, gpuFree: 0, gpuPending: 0, pods: 0, nodes: 0 },
    nodes: [],
    connection: down,
  };
  assert.equal(gpuHeadline(empty), 'not read yet');
  // Nodes readable but pods only per namespace: the requests are those namespaces', and the header says so.
  const partial = {
    totals: { gpuCapacity: 16, gpuAllocatable: 16, gpuRequested: 4, gpuFree: 12, gpuPending: 0, pods: 3, nodes: 2 },
    nodes: [],
    access: { clusterWide: false, namespaces: ['training'], forbidden: [], podsIn: ['training'] },
  };
  assert.match(gpuHeadline(partial), /^4\/16 req\/alloc .*\(requests of pods in training only\)$/);
  assert.match(gpuHeadline({ ...empty, connection: { ...down, state: 'live' } }), /^0\/0 req\/alloc/);
  // Pods forbidden cluster-wide and no namespace to fall back to: the requests are unknown, never 0.
  const blind = {
    totals: { gpuCapacity: 16, gpuAllocatable: 16, gpuRequested: 0, gpuFree: 16, gpuPending: 0, pods: 0, nodes: 2 },
    nodes: [],
    access: { clusterWide: false, namespaces: [], forbidden: ['pods'] },
  };
  assert.equal(gpuHeadline(blind), '?/16 req/alloc  free ?  pending ?  (pods not readable)');
  // Every namespace fallen back to forbidden too: the same.
  assert.equal(gpuHeadline({ ...blind, access: { ...blind.access, podsIn: [] } }), gpuHeadline(blind));
  // A fleet: the others' sums, and which cluster's requests are missing.
  const fleet = {
    ...partial,
    access: { clusterWide: false, namespaces: [], forbidden: ['pods'] },
    fleet: {
      members: [
        { context: 'east', snapshot: { access: blind.access } },
        { context: 'west', snapshot: { access: { clusterWide: true, namespaces: [], forbidden: [] } } },
      ],
    } as unknown as NonNullable<Parameters<typeof gpuHeadline>[0]['fleet']>,
  };
  assert.equal(gpuHeadline(fleet), '4/16 req/alloc  free 12  pending 0  (requests without east: pods not readable)');
});

test('a mistyped kind: the nearest type is suggested, a word far from all is not', () => {
  assert.equal(editDistance('jobsett', 'jobset'), 1);
  assert.equal(editDistance('pytorchjbos', 'pytorchjobs'), 1, 'a swap is one slip');
  assert.equal(nearest('jbo', ['job', 'jobset']), 'job');
  assert.equal(nearest('wat', ['job', 'jobset']), null);
  const defs = loadDefinitions({ includeBuiltin: true, envPaths: '' }).definitions;
  assert.equal(nearestType('jobsett', defs), 'jobset');
  assert.equal(nearestType('JobSest', defs), 'jobset');
  assert.equal(nearestType('raycluster', defs), 'raycluster', 'case and plurals are its own business');
  assert.equal(nearestType('lwss', defs, new Map([['lws', 'x']])), 'lws');
});

test('the explorer: a mistyped command or kind suggests the nearest', () => {
  const types = new Map([
    ['jobset', {} as never],
    ['jobsets', {} as never],
  ]);
  const bad = parseCommand('jobsett', { types });
  assert.equal(bad.kind, 'error');
  assert.match((bad as { message: string }).message, /^unknown command "jobsett" \(did you mean jobset\? /);
  assert.match((parseCommand('qeueus') as { message: string }).message, /did you mean queues\?/);
  assert.doesNotMatch((parseCommand('xyzzy') as { message: string }).message, /did you mean/);
});
