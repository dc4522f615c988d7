// The explorer over a fleet, without a terminal: the merged lists (CLUSTER
// first, each cluster's rows, columns aligned, keys and drill-down bound to
// the row's cluster), `:clusters`, narrowing (Enter) and Esc back to all, the
// frames pushed from a cluster's view staying in it, and a MultiKueue job's
// tree drawn from its copy in the worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FleetMember, ModelSnapshot, NodePodEntry } from '../../src/model/types.js';
import type { ModelSource } from '../../src/model/source.js';
import { FleetMerger } from '../../src/model/fleet/merge.js';
import { summariseCluster } from '../../src/model/fleet/summary.js';
import { MultiKueueIndex } from '../../src/model/fleet/multikueue.js';
import { ScreenModel } from '../../src/ui/state/screen.js';
import { fleetHeadline } from '../../src/ui/render/header.js';
import { clusterTable } from '../../src/ui/render/clusters.js';
import { initialState, reduce, type UiState } from '../../src/ui/state/ui-state.js';
import { keyOutcome } from '../../src/ui/state/keys.js';
import type { RowServer, RowWindow, RowWindowRequest } from '../../src/ui/state/served-rows.js';
import { CONNECTION, FakeSource, defaultSnapshot, node, pod, role, workload } from './fixtures.js';

/** A fleet source over fake members: the merged snapshot, each member's own source. */
class FakeFleet extends FakeSource {
  private readonly merger = new FleetMerger();
  constructor(readonly members: Map<string, FakeSource>) {
    super(defaultSnapshot(), { ...CONNECTION, context: 'a,b', cluster: '2 clusters' });
    this.merge();
  }
  merge(): ModelSnapshot {
    const list: FleetMember[] = [...this.members].map(([context, s]) => ({
      context,
      snapshot: s.snapshot,
      summary: summariseCluster({ context, server: null, version: 'v1.32.0' }, s.snapshot),
    }));
    return (this.snapshot = this.merger.merge(list));
  }
  override getNodePods(): NodePodEntry[] {
    return [];
  }
  member(context: string): ModelSource | undefined {
    return this.members.get(context);
  }
}

const KUEUE = 'kueue.x-k8s.io/v1beta2';

/** manager: llm-sft dispatched to `worker`; worker: its copy running 2 pods, and a job of its own. */
function fleet(): FakeFleet {
  const managerIdx = new MultiKueueIndex();
  managerIdx.apply('ADDED', {
    apiVersion: KUEUE,
    kind: 'Workload',
    metadata: {
      name: 'pytorchjob-llm-sft-1',
      namespace: 'training',
      uid: 'wl-m',
      ownerReferences: [
        { apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', name: 'llm-sft', uid: 'm-sft', controller: true },
      ],
    },
    status: {
      clusterName: 'worker',
      admissionChecks: [{ name: 'multikueue', state: 'Ready', message: 'The workload got reservation on "worker"' }],
    },
  });
  const workerIdx = new MultiKueueIndex();
  workerIdx.apply('ADDED', {
    apiVersion: KUEUE,
    kind: 'Workload',
    metadata: {
      name: 'pytorchjob-llm-sft-1',
      namespace: 'training',
      uid: 'wl-w',
      labels: { 'kueue.x-k8s.io/multikueue-origin': 'multikueue' },
      ownerReferences: [
        { apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', name: 'llm-sft', uid: 'w-sft', controller: true },
      ],
    },
    status: { conditions: [{ type: 'Admitted', status: 'True' }] },
  });
  const kind = { kind: 'PyTorchJob', apiVersion: 'kubeflow.org/v1' };
  const manager: ModelSnapshot = {
    ...defaultSnapshot(1),
    workloads: [workload('llm-sft', [role('master', [])], { ...kind, uid: 'm-sft', status: ['Running'] })],
    nodes: [node('cpu-node-01', { gpuCapacity: 0, gpuAllocatable: 0 })],
    orphanPods: [],
    multiKueue: managerIdx.view(),
  };
  const worker: ModelSnapshot = {
    ...defaultSnapshot(1),
    workloads: [
      workload(
        'llm-sft',
        [role('master', [pod('llm-sft-master-0', { node: 'gpu-node-01' })]), role('worker', [pod('llm-sft-worker-0')])],
        { ...kind, uid: 'w-sft' },
      ),
      workload('own-job', [role('worker', [pod('own-0')])], { uid: 'w-own' }),
    ],
    orphanPods: [],
    multiKueue: workerIdx.view(),
  };
  return new FakeFleet(
    new Map([
      ['wlx-fleet-manager', new FakeSource(manager)],
      ['wlx-fleet-worker', new FakeSource(worker)],
    ]),
  );
}

function screenOf(model: ScreenModel, f: FakeFleet, state: UiState) {
  return model.screen(f.snapshot, state, Date.parse('2026-01-01T01:00:00Z'), { columns: 140, rows: 40 }, f);
}

test('merged workloads list: CLUSTER first, each cluster’s rows, keys of their cluster; Enter opens that cluster', () => {
  const f = fleet();
  const model = new ScreenModel();
  const state = initialState();
  const s = screenOf(model, f, state);
  assert.match(s.columnHeader, /^CLUSTER\s+NAMESPACE\s+NAME/);
  const rows = s.rows.filter((r) => r !== undefined);
  assert.deepEqual(
    rows.map((r) => [r.cells[0], r.cells[2], r.cluster]),
    [
      ['wlx-fleet-manager', 'llm-sft', 'wlx-fleet-manager'],
      ['wlx-fleet-worker', 'llm-sft', 'wlx-fleet-worker'],
      ['wlx-fleet-worker', 'own-job', 'wlx-fleet-worker'],
    ],
  );
  // The same name in two clusters: two rows, two keys.
  assert.equal(new Set(rows.map((r) => r.key)).size, 3);
  // Enter on the worker's llm-sft: its view, bound to the worker.
  const moved = reduce(state, { type: 'move', delta: 1, count: 3, page: 20 });
  const out = keyOutcome('enter', '', {
    state: moved,
    rows: s.rows,
    page: 20,
    snapshot: f.snapshot,
    contexts: [],
    canSwitchContext: false,
    getNodePods: () => [],
  });
  const push = out.actions.find((a) => a.type === 'push');
  assert.ok(push && push.type === 'push');
  assert.equal(push.frame.cluster, 'wlx-fleet-worker');
  assert.equal(push.frame.workloadUid, 'w-sft');
  // A frame pushed from there stays in that cluster.
  const there = reduce(moved, push);
  const deeper = reduce(there, { type: 'push', frame: { kind: 'pods', label: 'pods', workloadUid: 'w-sft' } });
  assert.equal(deeper.stack[deeper.stack.length - 1].cluster, 'wlx-fleet-worker');
});

test("a member's progress alone keeps the merged list and the header's counts; a status changed reaches both", () => {
  const f = fleet();
  const model = new ScreenModel();
  const state = initialState();
  const before = screenOf(model, f, state);
  const table = model.view(f.snapshot, state, f).table;
  assert.equal(before.header.workloads, '3  3 Running');
  // The worker lists another page: a new snapshot with its progress, the same objects.
  const worker = f.members.get('wlx-fleet-worker')!;
  const w = worker.snapshot;
  worker.snapshot = { ...w, version: w.version + 1, connection: { ...w.connection, since: '2026-01-01T00:59:00Z' } };
  const merged = f.snapshot;
  assert.notEqual(f.merge(), merged);
  const after = screenOf(model, f, state);
  assert.equal(
    model.view(f.snapshot, state, f).table,
    table,
    'the same merged table: not sorted, filtered or laid out again',
  );
  assert.equal(after.header.workloads, before.header.workloads);
  // own-job fails: its row and the header's counts change.
  const failed = { ...w.workloads[1], status: ['Failed' as const] };
  worker.snapshot = { ...worker.snapshot, version: w.version + 2, workloads: [w.workloads[0], failed] };
  f.merge();
  const now = screenOf(model, f, state);
  assert.notEqual(model.view(f.snapshot, state, f).table, table);
  assert.match(now.header.workloads, /1 Failed/);
  assert.ok(now.rows.some((r) => r?.cells[2] === 'own-job' && /Failed/.test(r.cells.join(' '))));
});

/** A member as the engine worker's source is: it serves rows to whoever asks it (nobody does in a fleet). */
class RowServingSource extends FakeSource implements RowServer {
  requests: (RowWindowRequest | null)[] = [];
  serveRows(request: RowWindowRequest | null): void {
    this.requests.push(request);
  }
  rowWindow(): RowWindow | undefined {
    return undefined;
  }
}

test(':pods and :nodes over a fleet: CLUSTER first; narrowed, a member that serves rows is drawn from its snapshot', () => {
  const f = fleet();
  const model = new ScreenModel();
  const pods = reduce(initialState(), { type: 'root', frame: { kind: 'pods', label: 'pods' } });
  let s = screenOf(model, f, pods);
  assert.match(s.columnHeader, /^CLUSTER\s+NAMESPACE\s+NAME/);
  assert.deepEqual(
    s.rows.filter((r) => r !== undefined).map((r) => [r.cells[0], r.cells[2]]),
    [
      ['wlx-fleet-worker', 'llm-sft-master-0'],
      ['wlx-fleet-worker', 'llm-sft-worker-0'],
      ['wlx-fleet-worker', 'own-0'],
    ],
  );
  const nodes = reduce(initialState(), { type: 'root', frame: { kind: 'nodes', label: 'nodes' } });
  s = screenOf(model, f, nodes);
  assert.match(s.columnHeader, /^CLUSTER\s+NAME/);
  const nodeRows = s.rows.filter((r) => r !== undefined);
  assert.ok(nodeRows.some((r) => r.cells[0] === 'wlx-fleet-manager' && r.cells.includes('cpu-node-01')));
  assert.ok(nodeRows.every((r) => r.cluster === r.cells[0]));

  // The worker as an engine worker's source: the fleet asks it for no rows, so its pods come from its snapshot.
  const serving = new RowServingSource(f.members.get('wlx-fleet-worker')!.snapshot);
  const g = new FakeFleet(new Map([...f.members, ['wlx-fleet-worker', serving]]));
  const narrowed = { ...pods, cluster: 'wlx-fleet-worker' };
  s = model.screen(g.snapshot, narrowed, Date.parse('2026-01-01T01:00:00Z'), { columns: 140, rows: 40 }, g);
  assert.match(s.title, /pods\(all@wlx-fleet-worker\)\[3\]/);
  assert.deepEqual(
    s.rows.filter((r) => r !== undefined).map((r) => r.cells[1]),
    ['llm-sft-master-0', 'llm-sft-worker-0', 'own-0'],
  );
  assert.deepEqual(serving.requests, []);
});

test('/ filters across every cluster (the CLUSTER cell included)', () => {
  const f = fleet();
  const model = new ScreenModel();
  let state = reduce(initialState(), { type: 'startFilter' });
  for (const ch of 'worker.*own') state = reduce(state, { type: 'input', text: ch });
  const rows = screenOf(model, f, state).rows.filter((r) => r !== undefined);
  assert.deepEqual(
    rows.map((r) => r.cells[2]),
    ['own-job'],
  );
});

test(':clusters: one row per cluster (GPU models under it); Enter narrows every view, Esc returns to all', () => {
  const f = fleet();
  const model = new ScreenModel();
  const state = reduce(initialState(), { type: 'root', frame: { kind: 'clusters', label: 'clusters' } });
  const s = screenOf(model, f, state);
  assert.match(s.title, /clusters\[2\]/);
  const first = s.rows[0]!;
  assert.deepEqual(first.cells.slice(0, 2), ['wlx-fleet-manager', 'live']);
  const out = keyOutcome('enter', '', {
    state,
    rows: s.rows,
    page: 20,
    snapshot: f.snapshot,
    contexts: [],
    canSwitchContext: false,
    getNodePods: () => [],
  });
  let narrowed = state;
  for (const a of out.actions) narrowed = reduce(narrowed, a);
  assert.equal(narrowed.cluster, 'wlx-fleet-manager');
  const ns = screenOf(model, f, narrowed);
  assert.doesNotMatch(ns.columnHeader, /CLUSTER/);
  assert.match(ns.title, /workloads\(all@wlx-fleet-manager\)\[1\]/);
  const back = reduce(narrowed, { type: 'back' });
  assert.equal(back.cluster, null);
  assert.match(screenOf(model, f, back).columnHeader, /^CLUSTER/);
});

test("a manager's MultiKueue job: 'runs on cluster' with the roles and pods of its copy in the worker", () => {
  const f = fleet();
  const model = new ScreenModel();
  const state = reduce(initialState(), {
    type: 'push',
    frame: { kind: 'workload', label: 'llm-sft', workloadUid: 'm-sft', cluster: 'wlx-fleet-manager' },
  });
  const s = screenOf(model, f, state);
  assert.match(s.panel[0].text, /runs on cluster wlx-fleet-worker \(MultiKueue worker worker\): Running/);
  const rows = s.rows.filter((r) => r !== undefined);
  // The copy's roles (the manager's own tree has one empty role), each row of the worker's cluster.
  assert.deepEqual(
    rows.map((r) => [r.cells[0].trim(), r.cluster]),
    [
      ['master', 'wlx-fleet-worker'],
      ['worker', 'wlx-fleet-worker'],
    ],
  );
  // The copy says where it came from.
  const copy = reduce(initialState(), {
    type: 'push',
    frame: { kind: 'workload', label: 'llm-sft', workloadUid: 'w-sft', cluster: 'wlx-fleet-worker' },
  });
  assert.match(
    screenOf(model, f, copy).panel[0].text,
    /from cluster wlx-fleet-manager \(MultiKueue origin multikueue\)/,
  );
});

test(':map over a fleet: one band group per cluster under its name; the cursor crosses from one to the next', () => {
  const f = fleet();
  const model = new ScreenModel();
  const state = reduce(initialState(), { type: 'root', frame: { kind: 'map', label: 'map' } });
  const s = screenOf(model, f, state);
  const text = s.map!.lines.join('\n');
  assert.match(text, /── wlx-fleet-manager ─+/);
  assert.match(text, /── wlx-fleet-worker ─+/);
  assert.ok(text.indexOf('wlx-fleet-manager') < text.indexOf('wlx-fleet-worker'));
  const managerNodes = f.members.get('wlx-fleet-manager')!.snapshot.nodes.length;
  assert.equal(s.map!.nodes, managerNodes + f.members.get('wlx-fleet-worker')!.snapshot.nodes.length);
  // Rows: every node of every cluster, keyed by its cluster (node names repeat across clusters).
  assert.equal(new Set(s.rows.map((r) => r?.key)).size, s.map!.nodes);
  // Down from the manager's last node: the worker's first.
  assert.equal(s.map!.step(managerNodes - 1, 'down'), managerNodes);
  assert.equal(s.map!.step(managerNodes, 'up'), managerNodes - 1);
});

test("the header's Conn: each cluster's state as :clusters says it (`3 clusters: 1 live, east unreachable, west connecting`)", () => {
  const live = defaultSnapshot(1);
  const merged = new FleetMerger().merge([
    {
      context: 'manager',
      snapshot: live,
      summary: summariseCluster({ context: 'manager', server: null, version: null }, live),
    },
    {
      context: 'east',
      snapshot: null,
      summary: summariseCluster(
        { context: 'east', server: null, version: null, error: { kind: 'unreachable', text: 'connect ECONNREFUSED' } },
        null,
      ),
    },
    {
      context: 'west',
      snapshot: null,
      summary: summariseCluster({ context: 'west', server: null, version: null }, null),
    },
  ]);
  const f = new FakeSource(merged, { ...CONNECTION, context: 'manager,east,west', cluster: '3 clusters', user: '' });
  const model = new ScreenModel();
  const s = model.screen(merged, initialState(), Date.parse('2026-01-01T01:00:00Z'), { columns: 140, rows: 40 }, f);
  assert.equal(s.header.summary.text, '3 clusters: 1 live, east unreachable, west connecting');
  assert.equal(s.header.summary.level, 'warn');
  // The flash line: each failing cluster with its own cause.
  assert.deepEqual(s.flash, { text: 'east: connect ECONNREFUSED', level: 'warn' });
  // :clusters says the same words.
  const c = model.screen(
    merged,
    reduce(initialState(), { type: 'root', frame: { kind: 'clusters', label: 'clusters' } }),
    Date.parse('2026-01-01T01:00:00Z'),
    { columns: 140, rows: 40 },
    f,
  );
  assert.deepEqual(
    c.rows.filter((r) => r && !r.cells[0].startsWith(' ')).map((r) => r!.cells.slice(0, 2)),
    [
      ['manager', 'live'],
      ['east', 'unreachable'],
      ['west', 'connecting'],
    ],
  );
});

test("the header's Conn over a fleet: all live; several down of one state named together; none live is an error", () => {
  const s = (context: string, state: 'live' | 'unreachable' | 'unauthorized') => ({ context, state });
  assert.deepEqual(fleetHeadline([s('a', 'live'), s('b', 'live')], []), { text: '2 clusters: all live', level: 'ok' });
  assert.deepEqual(fleetHeadline([s('a', 'live'), s('b', 'unreachable'), s('c', 'unreachable')], []), {
    text: '3 clusters: 1 live, b, c unreachable',
    level: 'warn',
  });
  assert.deepEqual(fleetHeadline([s('a', 'unauthorized'), s('b', 'unreachable')], []), {
    text: '2 clusters: b unreachable, a unauthorized',
    level: 'error',
  });
  // A kind a live cluster may not list is named with its cluster.
  assert.deepEqual(fleetHeadline([s('a', 'live'), s('b', 'live')], ['b/pods']), {
    text: '2 clusters: all live  forbidden: b/pods',
    level: 'warn',
  });
});

test('the flash line over a fleet names each failing cluster with its own cause, never one cause for all', () => {
  const dead = (context: string, kind: 'unreachable' | 'kubeconfig', text: string) => ({
    context,
    snapshot: null,
    summary: summariseCluster({ context, server: null, version: null, error: { kind, text } }, null),
  });
  const live = defaultSnapshot(1);
  const merged = new FleetMerger().merge([
    {
      context: 'east',
      snapshot: live,
      summary: summariseCluster({ context: 'east', server: null, version: null }, live),
    },
    dead('refused', 'unreachable', 'connection refused'),
    dead('broken', 'kubeconfig', 'context "broken": cluster "missing" is not defined (kubeconfig /k)'),
  ]);
  const f = new FakeSource(merged, { ...CONNECTION, context: 'east,refused,broken', cluster: '3 clusters' });
  const s = new ScreenModel().screen(
    merged,
    initialState(),
    Date.parse('2026-01-01T01:00:00Z'),
    { columns: 140, rows: 40 },
    f,
  );
  assert.equal(s.header.summary.text, '3 clusters: 1 live, broken invalid, refused unreachable');
  assert.deepEqual(s.flash, {
    text: 'refused: connection refused; broken: context "broken": cluster "missing" is not defined (kubeconfig /k)',
    level: 'error',
  });
  // :clusters names the context in its first column: the PROBLEMS cell starts at what is wrong.
  const rows = clusterTable(merged.fleet!.members.map((m) => m.summary)).rows;
  const broken = rows.find((r) => r.key === 'broken');
  assert.equal(broken?.cells.at(-1), 'cluster "missing" is not defined (kubeconfig /k)');
  assert.equal(rows.find((r) => r.key === 'refused')?.cells.at(-1), 'connection refused');
});

test('a plugin scoped to clusters runs on a :clusters row with that cluster’s $CONTEXT $CLUSTER $USER; a merged row with its own', () => {
  const a = defaultSnapshot(1);
  const b = { ...defaultSnapshot(1), workloads: [workload('west-job', [], { uid: 'uid-west' })] };
  const member = (context: string, snapshot: ModelSnapshot) => ({
    context,
    clusterName: `kc-${context}`,
    user: `user-${context}`,
    snapshot,
    summary: summariseCluster({ context, server: null, version: null }, snapshot),
  });
  const merged = new FleetMerger().merge([member('east', a), member('west', b)]);
  const fleetConnection = {
    ...CONNECTION,
    context: 'east,west',
    cluster: '2 clusters (:clusters)',
    user: 'per cluster',
  };
  const sources = new Map([
    ['east', new FakeSource(a)],
    ['west', new FakeSource(b)],
  ]);
  const f = Object.assign(new FakeSource(merged, fleetConnection), { member: (c: string) => sources.get(c) });
  const run = (state: UiState, scopes: string[]) => {
    const s = new ScreenModel().screen(
      merged,
      state,
      Date.parse('2026-01-01T01:00:00Z'),
      { columns: 140, rows: 40 },
      f,
    );
    return keyOutcome('P', 'P', {
      state,
      rows: s.rows,
      page: 20,
      snapshot: merged,
      contexts: [],
      canSwitchContext: false,
      getNodePods: () => [],
      canRunPlugins: true,
      connection: fleetConnection,
      bindings: {
        aliases: new Map(),
        hotkeys: [],
        plugins: [
          {
            id: 'ctx',
            key: 'P',
            shortCut: 'Shift-P',
            description: 'cluster info',
            scopes,
            command: 'sh',
            args: ['-c', 'kubectl --context $CONTEXT cluster-info'],
            background: false,
            confirm: false,
          },
        ],
      },
    });
  };
  let state = reduce(initialState(), { type: 'root', frame: { kind: 'clusters', label: 'clusters' } });
  const rows = new ScreenModel().screen(merged, state, 0, { columns: 140, rows: 40 }, f).rows;
  const west = rows.findIndex((r) => r?.key === 'west');
  state = reduce(state, { type: 'move', delta: west, count: rows.length, page: 20 });
  const out = run(state, ['clusters']);
  assert.equal(out.effect?.kind, 'plugin');
  assert.ok(out.effect?.kind === 'plugin');
  assert.deepEqual(
    [out.effect.env.CONTEXT, out.effect.env.CLUSTER, out.effect.env.USER, out.effect.env.NAME],
    ['west', 'kc-west', 'user-west', 'west'],
  );
  // Not in its scope elsewhere; a workloads plugin on a merged row gets that row's cluster, not "east,west".
  assert.equal(run(initialState(), ['clusters']).effect, undefined);
  const list = new ScreenModel().screen(merged, initialState(), 0, { columns: 140, rows: 40 }, f).rows;
  const westJob = list.findIndex((r) => r?.cells.includes('west-job'));
  const onRow = run(reduce(initialState(), { type: 'move', delta: westJob, count: list.length, page: 20 }), [
    'workloads',
  ]);
  assert.ok(onRow.effect?.kind === 'plugin');
  assert.deepEqual(
    [onRow.effect.env.CONTEXT, onRow.effect.env.CLUSTER, onRow.effect.env.NAME],
    ['west', 'kc-west', 'west-job'],
  );
});
